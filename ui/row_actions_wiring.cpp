// The Listen list's row actions that read what a row names off the GUI thread: Copy as curl, Resend, Export HAR,
// and a refused request's record. Part of ServiceWiring (service_wiring.h).

#include "capture/stored_captures.h"
#include "inspect/har_export.h"
#include "inspect/inspect_worker.h"
#include "inspect/resend.h"
#include "main_window.h"
#include "modes/server.h"
#include "service_wiring.h"
#include "views/refused_view.h"
#include "views/send_view.h"

#include <algorithm>

#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>

namespace upin::ui {

// Copy as curl for a Listen row (its capture is read first) or for what Inspect opened (its parts are written to
// SOURCE.parts): on a pool thread, as either may be large; one at a time. The command is the one
// `upload-inspector-cli curl SOURCE --to THIS_LISTENER` prints.
void ServiceWiring::copyAsCurl(const QString& folder, const std::optional<app::InspectResult>& opened, int harEntry)
{
    if (m_curlBusy) {
        m_window.statusBar()->showMessage(tr("Still making the last curl command…"), 6000);
        return;
    }
    m_curlBusy = true;
    QPointer<MainWindow> window = &m_window;
    const core::Options limits = m_inspectLimits;
    const QString base = m_listenerBase;
    QPointer<ServiceWiring> self = this;
    QThreadPool::globalInstance()->start([window, self, folder, opened, limits, base, harEntry] {
        const app::InspectResult result = opened ? *opened : app::inspectSource(folder, {}, limits);
        QString why = result.error;
        // To this listener, on the port it has now (the one that stored a capture may be gone): a capture to its
        // own path, anything else to /file-part (a HAR's or a request file's path is its server's, not ours).
        std::optional<QString> command;
        if (why.isEmpty())
            command = app::resendCommandFor(result, result.capture ? base : base + QStringLiteral("/file-part"), {},
                                            &why, base, harEntry);
        const QString partsDir = !result.capture ? app::defaultPartsDir(result, harEntry) : QString();
        QMetaObject::invokeMethod(
            qApp,
            [window, self, command = command.value_or(QString()), why, partsDir] {
                if (self)
                    self->m_curlBusy = false;
                if (!window)
                    return;
                if (!command.isEmpty())
                    QApplication::clipboard()->setText(command);
                window->statusBar()->showMessage(
                    command.isEmpty()    ? tr("Copy as curl is unavailable: %1").arg(why)
                    : partsDir.isEmpty() ? tr("Copied a curl command that sends this capture again")
                                         : tr("Copied a curl command; the parts it sends are in %1").arg(partsDir),
                    6000);
            },
            Qt::QueuedConnection);
    });
}

void ServiceWiring::resend(const QString& folder)
{
    QPointer<MainWindow> window = &m_window;
    const core::Options limits = m_inspectLimits;
    const QString base = m_listenerBase;
    QThreadPool::globalInstance()->start([window, folder, limits, base] {
        const app::InspectResult result = app::inspectSource(folder, {}, limits);
        QString why = result.error;
        std::optional<app::UploadPlan> plan;
        // A forwarded exchange goes to the forwarder its client named, and on to the server; our own capture to
        // this listener as it is now (the one that stored it may have had another port).
        const bool forwarded = result.capture && result.capture->forward;
        if (why.isEmpty())
            plan = app::resendAsCaptured(result, forwarded ? QString() : base, &why, base);
        QMetaObject::invokeMethod(
            qApp,
            [window, plan, why] {
                if (!window)
                    return;
                if (plan) {
                    window->sendView()->replacePlan(*plan, tr("the capture's request"));
                    window->tabs()->setCurrentWidget(window->sendView());
                }
                window->statusBar()->showMessage(plan ? tr("The request is in the Send tab as it came: edit it and "
                                                           "press Send")
                                                      : tr("Resend is unavailable: %1").arg(why),
                                                 8000);
            },
            Qt::QueuedConnection);
    });
}

void ServiceWiring::exportHar(const QStringList& folders, const QString& path)
{
    QPointer<MainWindow> window = &m_window;
    const core::Options limits = m_inspectLimits;
    QThreadPool::globalInstance()->start([window, folders, path, limits] {
        const app::HarExport written = app::writeHar(folders, path, limits);
        QMetaObject::invokeMethod(
            qApp,
            [window, written, path, count = folders.size()] {
                if (!window)
                    return;
                const QString said = !written.error.isEmpty() ? tr("Could not export HAR: %1").arg(written.error)
                                     : written.notes.isEmpty()
                                         ? (count == 1 ? tr("Exported the capture to %1").arg(path)
                                                       : tr("Exported %1 captures to %2").arg(count).arg(path)) +
                                               tr(" (a browser's Network panel imports it)")
                                         : tr("Exported %1 of %2 captures to %3; %4 without their whole body "
                                              "(hover for which)")
                                               .arg(written.entries)
                                               .arg(count)
                                               .arg(path)
                                               .arg(written.notes.size());
                // Which, and why, in the status bar's tooltip: a line of reasons ran into the listener's status.
                window->statusBar()->setToolTip(written.notes.join(QLatin1Char('\n')));
                window->statusBar()->showMessage(said, 15000);
            },
            Qt::QueuedConnection);
    });
}

namespace {
// Its own window, not modal: the list stays usable beside it. None: what the list says of it, and why no more.
void showRefused(QWidget* window, quint64 id, const std::optional<app::RefusedRequest>& refused, const QString& inWords)
{
    // One window a refusal: opened again (a second double-click, Enter), the open one comes to the front.
    const QString name = QStringLiteral("refused-%1").arg(id);
    // A window closed a moment ago is still a child until its deferred delete: not the open one.
    const auto windows = window->findChildren<QWidget*>(name, Qt::FindDirectChildrenOnly);
    const auto open = std::find_if(windows.begin(), windows.end(), [](QWidget* w) { return w->isVisible(); });
    if (open != windows.end()) {
        (*open)->raise();
        (*open)->activateWindow();
        return;
    }
    QWidget* shown = refused ? static_cast<QWidget*>(new RefusedView(*refused, window))
                             : new QMessageBox(QMessageBox::Information, ServiceWiring::tr("Refused"),
                                               ServiceWiring::tr("%1\n\nThe request was turned away before its body "
                                                                 "was taken. Its head is not in refused.jsonl, which "
                                                                 "keeps the latest refusals only, or the file could "
                                                                 "not be read.")
                                                   .arg(inWords),
                                               QMessageBox::Ok, window);
    shown->setObjectName(name);
    shown->setAttribute(Qt::WA_DeleteOnClose);
    shown->setWindowModality(Qt::NonModal); // a message box is modal by default
    shown->show();
}
} // namespace

// A refused request's record in a window of its own: a recent one from the memory of the listener, forwarder or
// proxy that refused it (its line reaches the log later, on the store's thread), an older one from the rolling log,
// read on a pool thread.
void ServiceWiring::openRefused(quint64 id, const QString& inWords)
{
    for (const app::Server* listener : {m_listener, m_forwarder, m_proxy})
        if (const auto refused = listener->recentRefused(id)) {
            showRefused(&m_window, id, refused, inWords);
            return;
        }
    QPointer<MainWindow> window = &m_window;
    const QString root = m_listener->captureRoot();
    QThreadPool::globalInstance()->start([window, root, id, inWords] {
        const std::optional<app::RefusedRequest> refused = app::findRefused(root, id);
        QMetaObject::invokeMethod(
            qApp,
            [window, id, refused, inWords] {
                if (window)
                    showRefused(window, id, refused, inWords);
            },
            Qt::QueuedConnection);
    });
}

} // namespace upin::ui
