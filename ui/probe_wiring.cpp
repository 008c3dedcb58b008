#include "probe_wiring.h"

#include "probe/probe_runner.h"
#include "views/probe_view.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace upin::ui {

ProbeWiring::ProbeWiring(ProbeView& view, QObject* parent)
    : QObject(parent), m_view(view), m_runner(new app::ProbeRunner)
{
    qRegisterMetaType<app::ProbeSettings>();
    qRegisterMetaType<app::ProbeReport>();
    m_runner->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_runner, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("probe"));
    m_thread.start();
    connect(m_runner, &app::ProbeRunner::progress, &m_view, &ProbeView::showProgress);
    connect(m_runner, &app::ProbeRunner::updated, &m_view, &ProbeView::showPartial);
    connect(m_runner, &app::ProbeRunner::finished, &m_view, &ProbeView::showReport);
    connect(&m_view, &ProbeView::cancelRequested, m_runner, &app::ProbeRunner::cancel);
    connect(&m_view, &ProbeView::processesRequested, this, &ProbeWiring::listProcesses);
    connect(&m_view, &ProbeView::startRequested, this, [this](app::ProbeSettings settings) {
        QString error;
        if (settings.baseline.isEmpty())
            settings.baseline = m_baseline.start(&error);
        if (settings.baseline.isEmpty()) {
            m_view.showError(error);
            return;
        }
        QMetaObject::invokeMethod(m_runner, [runner = m_runner, settings] { runner->start(settings); });
    });
    listProcesses();
}

ProbeWiring::~ProbeWiring()
{
    QMetaObject::invokeMethod(m_runner, &app::ProbeRunner::cancel);
    m_thread.quit();
    m_thread.wait();
}

// Reading every process's descriptors takes a while on a busy machine: on a pool thread, the answer queued back.
void ProbeWiring::listProcesses()
{
    QPointer<ProbeView> view(&m_view);
    QThreadPool::globalInstance()->start([view] {
        const QList<app::ListeningProcess> processes = app::listeningProcesses();
        // Queued to the application, which outlives the view: the view may go between any check made here and the
        // call, so it is looked at only on its own thread.
        QMetaObject::invokeMethod(qApp, [view, processes] {
            if (view) // the window closed meanwhile
                view->setProcesses(processes);
        });
    });
}

} // namespace upin::ui
