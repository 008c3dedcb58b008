// upload-inspector: the desktop app. The only place where app services (listener, sender, inspect worker) are
// wired to ui widgets. Every service runs on its own thread; the GUI thread only applies value events.

#include "bench/shootout_worker.h"
#include "inspect/inspect_worker.h"
#include "listener/listener.h"
#include "main_window.h"
#include "sender/sender.h"
#include "views/compare_view.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"
#include "views/send_view.h"
#include "views/shootout_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTabWidget>
#include <QThread>
#include <QTimer>

#include <cstdio>

using namespace upin;

namespace {

// Starts the listener on the wanted port or, when it is taken, the next free one.
QString g_captureDir; // --capture-dir, else the app data folder

bool startListener(app::Listener& listener, ui::MainWindow& window, quint16 port)
{
    app::ListenerConfig config;
    config.captureDir = g_captureDir;
    bool ok = false;
    for (int attempt = 0; attempt < 20 && !ok; ++attempt) {
        config.port = port == 0 ? 0 : quint16(port + attempt);
        ok = listener.start(config);
    }
    const QString address = QStringLiteral("127.0.0.1");
    window.listenView()->setListening(ok, address, listener.port(), listener.captureRoot());
    if (ok) {
        window.sendView()->setListenerBase(QStringLiteral("http://%1:%2").arg(address).arg(listener.port()));
        window.inspectView()->setListenerBase(QStringLiteral("http://%1:%2").arg(address).arg(listener.port()));
        window.setListenerStatus(QObject::tr("Listening on http://%1:%2").arg(address).arg(listener.port()));
    } else {
        window.setListenerStatus(QObject::tr("Listener stopped: %1").arg(listener.errorString()));
    }
    return ok;
}

// Moves a worker object to a thread of its own that ends with the application.
template <typename Worker>
Worker* onThread(QThread& thread)
{
    auto* worker = new Worker;
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();
    return worker;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("UploadInspector"));
    QApplication::setApplicationName(QStringLiteral("upload-inspector"));
    QApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/upload-inspector.svg")));
    qRegisterMetaType<app::InspectResult>();

    QCommandLineParser cl;
    cl.setApplicationDescription(QStringLiteral("Send, receive and inspect HTTP file uploads."));
    cl.addHelpOption();
    cl.addVersionOption();
    QCommandLineOption port(QStringLiteral("port"), QStringLiteral("listener port (default: last used, else 8080; the next free one if taken)"),
                            QStringLiteral("N"));
    QCommandLineOption tab(QStringLiteral("tab"), QStringLiteral("start on this tab: send, listen, inspect, compare or shootout"), QStringLiteral("NAME"));
    QCommandLineOption stalls(QStringLiteral("measure-stalls"),
                              QStringLiteral("measure how long the GUI thread goes without running a 5 ms timer; print the worst stall at exit"));
    QCommandLineOption quitAfter(QStringLiteral("quit-after"), QStringLiteral("quit after N seconds (for scripted runs)"), QStringLiteral("N"));
    QCommandLineOption send(QStringLiteral("send"), QStringLiteral("add FILE to the Send tab's parts (repeat for more)"), QStringLiteral("FILE"));
    QCommandLineOption captureDir(QStringLiteral("capture-dir"), QStringLiteral("where the listener stores captures"), QStringLiteral("DIR"));
    cl.addOptions({port, tab, send, stalls, quitAfter, captureDir});
    cl.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("a body, HTTP request or capture folder to inspect"), QStringLiteral("[FILE]"));
    cl.process(application);

    g_captureDir = cl.isSet(captureDir) ? cl.value(captureDir) : QSettings().value(QStringLiteral("listen/captureDir")).toString();
    ui::MainWindow window;
    app::Listener listener;
    QThread senderThread, inspectThread, benchThread;
    auto* sender = onThread<app::Sender>(senderThread);
    auto* inspector = onThread<app::InspectWorker>(inspectThread);
    auto* bench = onThread<app::ShootoutWorker>(benchThread);
    qRegisterMetaType<app::ShootoutResult>();

    // Listener <-> Listen view
    QObject::connect(&listener, &app::Listener::events, window.listenView(), &ui::ListenView::applyEvents);
    QObject::connect(window.listenView(), &ui::ListenView::startRequested, &window,
                     [&](quint16 p) {
                         QSettings().setValue(QStringLiteral("listen/port"), p); // the user's choice is remembered
                         startListener(listener, window, p);
                     });
    QObject::connect(window.listenView(), &ui::ListenView::captureFolderChosen, &window, [&](const QString& folder) {
        g_captureDir = folder;
        QSettings().setValue(QStringLiteral("listen/captureDir"), folder);
        startListener(listener, window, listener.isListening() ? listener.port() : quint16(8080));
    });
    QObject::connect(window.listenView(), &ui::ListenView::stopRequested, &window, [&] {
        listener.stop();
        window.listenView()->setListening(false, {}, 0, {});
        window.setListenerStatus(QObject::tr("Listener stopped"));
    });

    // Send view <-> sender thread
    QObject::connect(window.sendView(), &ui::SendView::sendRequested, sender,
                     [sender](const app::UploadPlan& plan) { sender->start(plan); });
    QObject::connect(window.sendView(), &ui::SendView::cancelRequested, sender, [sender] { sender->cancel(); });
    QObject::connect(sender, &app::Sender::progress, window.sendView(), &ui::SendView::onProgress);
    QObject::connect(sender, &app::Sender::runFinished, window.sendView(), [&](const app::RunResult& result) {
        window.sendView()->onRunFinished(result);
        // Our own listener's answer names its capture: show what it received beside what was sent.
        const QString id = QJsonDocument::fromJson(result.response).object()[QStringLiteral("capture_id")].toString();
        QStringList sent;
        for (const auto& part : result.parts)
            sent << part.sentSha256;
        if (!id.isEmpty())
            window.inspectView()->rememberSentHashes(id, sent);
        auto* captures = window.listenView()->model();
        for (int row = 0; row < captures->rowCount(); ++row)
            if (QString::number(captures->row(row).id) == id)
                window.sendView()->setReceivedSamples(captures->row(row).samples);
    });
    QObject::connect(sender, &app::Sender::finished, window.sendView(), &ui::SendView::onFinished);
    QObject::connect(sender, &app::Sender::finished, window.compareView(), &ui::CompareView::addRuns);

    // Matcher shoot-out <-> bench thread; an inspected capture's raw body is offered as a source
    QObject::connect(window.shootoutView(), &ui::ShootoutView::runRequested, bench,
                     [bench](const app::ShootoutRequest& request) { bench->run(request); });
    QObject::connect(bench, &app::ShootoutWorker::finished, window.shootoutView(), &ui::ShootoutView::showResult);
    QObject::connect(inspector, &app::InspectWorker::finished, window.shootoutView(), [&](const app::InspectResult& result) {
        if (!result.bodyFile.isEmpty() && result.bodyFileOffset == 0)
            window.shootoutView()->setStoredBody(result.bodyFile, result.capture[QStringLiteral("request")].toObject()[QStringLiteral("content_type")].toString());
    });

    // Inspect view <-> inspect thread
    auto open = [&](const QString& path, const QString& contentType = {}) {
        window.tabs()->setCurrentWidget(window.inspectView());
        QMetaObject::invokeMethod(inspector, [inspector, path, contentType] { inspector->open(path, contentType); }, Qt::QueuedConnection);
    };
    QObject::connect(window.inspectView(), &ui::InspectView::openRequested, &window, open);
    QObject::connect(window.listenView(), &ui::ListenView::captureActivated, &window, [&](const QString& folder) { open(folder); });
    QObject::connect(window.inspectView(), &ui::InspectView::cancelRequested, &window, [inspector] { inspector->cancel(); });
    QObject::connect(inspector, &app::InspectWorker::progress, window.inspectView(), &ui::InspectView::setProgress);
    QObject::connect(inspector, &app::InspectWorker::finished, window.inspectView(), &ui::InspectView::showResult);

    window.restoreSettings();
    quint16 listenPort = quint16(cl.isSet(port) ? cl.value(port).toUInt() : QSettings().value(QStringLiteral("listen/port"), 8080).toUInt());
    startListener(listener, window, listenPort);
    const QStringList tabs{QStringLiteral("send"), QStringLiteral("listen"), QStringLiteral("inspect"), QStringLiteral("compare"),
                           QStringLiteral("shootout")};
    if (cl.isSet(tab) && tabs.contains(cl.value(tab)))
        window.tabs()->setCurrentIndex(int(tabs.indexOf(cl.value(tab))));
    if (!cl.positionalArguments().isEmpty())
        open(cl.positionalArguments().first());
    if (cl.isSet(send)) {
        window.sendView()->partsModel()->addFiles(cl.values(send));
        window.tabs()->setCurrentWidget(window.sendView());
    }
    window.resize(window.size().expandedTo(QSize(1200, 760)));
    window.show();

    // Stall meter: a 5 ms timer on the GUI thread; the longest gap between its ticks, less 5 ms, is the worst stall.
    QElapsedTimer sinceTick;
    qint64 worstStallMs = 0;
    QTimer stallTimer;
    if (cl.isSet(stalls)) {
        stallTimer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&stallTimer, &QTimer::timeout, [&] {
            worstStallMs = std::max(worstStallMs, sinceTick.elapsed() - 5);
            sinceTick.restart();
        });
        sinceTick.start();
        stallTimer.start(5);
    }
    if (cl.isSet(quitAfter))
        QTimer::singleShot(cl.value(quitAfter).toInt() * 1000, &application, &QApplication::quit);
    int rc = QApplication::exec();
    if (cl.isSet(stalls))
        std::fprintf(stderr, "worst GUI thread stall: %lld ms\n", static_cast<long long>(worstStallMs));
    listener.stop();
    inspector->cancel();
    for (QThread* thread : {&senderThread, &inspectThread, &benchThread}) {
        thread->quit();
        thread->wait(); // a running shoot-out finishes first
    }
    return rc;
}
