#include "service_wiring.h"
#include "server/listener_guards.h"

#include "bench/bench_worker.h"
#include "charts/chart_export.h"
#include "common/qt_text.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "inspect/part_reader.h"
#include "inspect/resend.h"
#include "main_window.h"
#include "modes/server.h"
#include "probe_wiring.h"
#include "sender/sender.h"
#include "views/bench_view.h"
#include "views/compare_view.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"
#include "views/probe_view.h"
#include "views/refused_view.h"
#include "views/send_view.h"
#include "views/tls_trust.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>

namespace upin::ui {

namespace {

// A worker object on a thread of its own; the object is deleted when the thread finishes.
template <typename Worker>
Worker* onThread(QThread& thread)
{
    auto* worker = new Worker;
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();
    return worker;
}

// The listener settings the user chose in earlier sessions, or the defaults.
ListenerSettings loadListenerSettings()
{
    QSettings stored;
    ListenerSettings settings;
    settings.hash = core::kHashNames.find(stored.value(QStringLiteral("listen/hash")).toString().toStdString())
                        .value_or(settings.hash);
    settings.tls = stored.value(QStringLiteral("listen/tls"), settings.tls).toBool();
    settings.tlsPort = quint16(stored.value(QStringLiteral("listen/tlsPort"), settings.tlsPort).toUInt());
    settings.retention.keepCaptures =
        stored.value(QStringLiteral("listen/keep"), settings.retention.keepCaptures).toInt();
    // The size limit is kept under a key of its own since the default became 5 GiB: under the old key a 0 was the
    // old default (no limit), not a choice, so only a limit the user set there is taken from it.
    const quint64 oldKeepBytes = stored.value(QStringLiteral("listen/keepBytes"), 0).toULongLong();
    settings.retention.keepBytes =
        stored.value(QStringLiteral("listen/sizeLimit"), oldKeepBytes > 0 ? oldKeepBytes : settings.retention.keepBytes)
            .toULongLong();
    settings.captureBodyOnly = stored.value(QStringLiteral("listen/captureBodyOnly"), false).toBool();
    for (const auto& guard : app::kGuardSettings) {
        const QString key = QStringLiteral("listen/%1").arg(QString::fromLatin1(guard.option));
        if (stored.contains(key))
            guard.set(settings.guards, stored.value(key).toString());
    }
    for (const auto& limit : app::kUserLimits) {
        const QString key = QStringLiteral("limits/%1").arg(QString::fromLatin1(limit.option));
        if (stored.contains(key))
            app::setLimit(limit, settings.limits, stored.value(key).toString());
    }
    return settings;
}

// The listener's configuration from the remembered settings: the listener's own, and forward mode's (same hash,
// limits, retention, guards and captures folder).
app::ServerConfig configFromSettings(const ListenerSettings& settings, const QString& captureDir)
{
    app::ServerConfig config;
    config.captureDir = captureDir;
    config.hash = settings.hash;
    config.tls = settings.tls;
    config.retention = settings.retention;
    config.captureBodyOnly = settings.captureBodyOnly;
    config.parser = settings.limits;
    config.maxBodyBytes = settings.limits.maxBodySize;
    config.guards = settings.guards;
    return config;
}

void saveListenerSettings(const ListenerSettings& settings)
{
    QSettings stored;
    stored.setValue(QStringLiteral("listen/hash"), app::toQString(core::kHashNames.name(settings.hash)));
    stored.setValue(QStringLiteral("listen/tls"), settings.tls);
    stored.setValue(QStringLiteral("listen/tlsPort"), settings.tlsPort);
    stored.setValue(QStringLiteral("listen/keep"), settings.retention.keepCaptures);
    stored.setValue(QStringLiteral("listen/sizeLimit"), settings.retention.keepBytes); // 0 here: the user's choice
    stored.remove(QStringLiteral("listen/keepBytes"));
    stored.setValue(QStringLiteral("listen/captureBodyOnly"), settings.captureBodyOnly);
    for (const auto& guard : app::kGuardSettings)
        stored.setValue(QStringLiteral("listen/%1").arg(QString::fromLatin1(guard.option)), guard.get(settings.guards));
    for (const auto& limit : app::kUserLimits)
        stored.setValue(QStringLiteral("limits/%1").arg(QString::fromLatin1(limit.option)),
                        app::limitText(limit, limit.get(settings.limits)));
}

} // namespace

ServiceWiring::ServiceWiring(MainWindow& window, QString captureDir)
    : m_window(window), m_captureDir(std::move(captureDir)), m_inspectLimits(app::inspectLimits()),
      m_listener(new app::Server(this)), m_forwarder(new app::Server(this)), m_proxy(new app::Server(this)),
      m_sender(onThread<app::Sender>(m_senderThread)), m_inspector(onThread<app::InspectWorker>(m_inspectThread)),
      m_reader(onThread<app::PartReader>(m_readerThread)), m_bench(onThread<app::BenchWorker>(m_benchThread))
{
    qRegisterMetaType<app::InspectResult>();
    qRegisterMetaType<QList<app::PartCopy>>();
    qRegisterMetaType<app::BenchResult>();
    m_window.listenView()->setSettings(loadListenerSettings());
    connectListener();
    connectProxy();
    connectSender();
    connect(&m_window, &MainWindow::planSaveRequested, this, &ServiceWiring::savePlan);
    connect(&m_window, &MainWindow::planOpenRequested, this, &ServiceWiring::openPlan);
    connectInspector();
    connectBench();
    m_probe = std::make_unique<ProbeWiring>(*m_window.probeView());
}

app::ServerConfig ServiceWiring::relayConfig(quint16 port) const
{
    app::ServerConfig config = configFromSettings(loadListenerSettings(), m_captureDir);
    config.tls = false;                                       // clients send plain http to a relay
    config.maxBodyBytes = std::numeric_limits<qint64>::max(); // the upstream's to limit, not ours
    config.port = port;
    return config;
}

ServiceWiring::~ServiceWiring()
{
    m_proxy->stop();
    m_forwarder->stop();
    m_listener->stop();
    m_inspector->cancel();
    for (QThread* thread : {&m_senderThread, &m_inspectThread, &m_benchThread, &m_readerThread}) {
        thread->quit();
        thread->wait(); // a running bench finishes first
    }
}

QString ServiceWiring::defaultCaptureRoot()
{
    return app::CaptureStore::defaultRoot();
}

bool ServiceWiring::startListener(quint16 port)
{
    const ListenerSettings settings = loadListenerSettings();
    app::ServerConfig config = configFromSettings(settings, m_captureDir);
    // A port taken (another instance, another server): the next ones, but never the forwarder's or the proxy's,
    // which a second instance would otherwise take from its own Forward and Proxy rows.
    const QList<quint16> relayPorts{quint16(QSettings().value(QStringLiteral("forward/port"), 8081).toUInt()),
                                    quint16(QSettings().value(QStringLiteral("proxy/port"), 8082).toUInt())};
    bool ok = false;
    for (int attempt = 0, step = 0; attempt < 20 && !ok; ++attempt, ++step) {
        while (port != 0 && relayPorts.contains(quint16(port + step)))
            ++step;
        config.port = port == 0 ? 0 : quint16(port + step);
        config.tlsPort = quint16(settings.tlsPort + attempt); // both move on when one is taken
        ok = m_listener->start(config);
    }
    const QString address = QStringLiteral("127.0.0.1");
    m_window.listenView()->setListening(ok, address, m_listener->port(), m_listener->captureRoot());
    if (ok) {
        const QString base = QStringLiteral("http://%1:%2").arg(address).arg(m_listener->port());
        m_window.sendView()->setListenerBase(base);
        m_listenerBase = base;
        m_window.setListenerBase(base);
        // The parser alone: a probe sends gigabytes, which /file-part would store as captures (a disk's pace, and the
        // Listen list flooded).
        m_window.probeView()->setTarget(base + QStringLiteral("/part-event?hash=none"));
        m_window.setListenerStatus(port != 0 && m_listener->port() != port
                                       ? tr("Port %1 was in use: listening on %2").arg(port).arg(base)
                                       : tr("Listening on %1").arg(base));
        const auto tls = m_listener->tlsIdentity();
        const QString tlsBase =
            tls ? QStringLiteral("https://localhost:%1").arg(m_listener->tlsPort()) : QString(); // the name it has
        m_window.sendView()->setTlsListener(tlsBase, tls ? tls->certificatePath : QString());
        if (tls) {
            m_window.listenView()->setTls(tlsBase, tls->certificatePath, tls->fingerprint);
            m_window.setListenerStatus(
                port != 0 && m_listener->port() != port
                    ? tr("Port %1 was in use: listening on %2 and %3").arg(port).arg(base, tlsBase)
                    : tr("Listening on %1 and %2").arg(base, tlsBase));
        }
        m_window.setCapturesRoot(m_listener->captureRoot());
        m_keepBytes = settings.retention.keepBytes;
        loadStoredCaptures(m_listener->captureRoot(), settings.retention.keepCaptures);
    } else {
        m_window.setListenerStatus(tr("Listener stopped: %1").arg(m_listener->errorString()));
    }
    return ok;
}

// The captures earlier sessions stored are listed too, read on a pool thread (capture.json files can be large),
// newest first, a batch at a time.
void ServiceWiring::loadStoredCaptures(const QString& root, int limit)
{
    QPointer<ListenView> view = m_window.listenView();
    QThreadPool::globalInstance()->start([view, root, limit] {
        app::storedCaptures(root, limit, [view](const QList<app::CaptureSummary>& batch) {
            QMetaObject::invokeMethod(
                qApp,
                [view, batch] {
                    if (view)
                        view->addStored(batch);
                },
                Qt::QueuedConnection);
        });
    });
}

void ServiceWiring::open(const QString& path, const QString& contentType)
{
    m_window.tabs()->setCurrentWidget(m_window.inspectView());
    QMetaObject::invokeMethod(
        m_inspector,
        [inspector = m_inspector, path, contentType, limits = m_inspectLimits] {
            inspector->open(path, contentType, limits);
        },
        Qt::QueuedConnection);
}

void ServiceWiring::connectListener()
{
    ListenView* view = m_window.listenView();
    connect(m_listener, &app::Server::events, view, &ListenView::applyEvents);
    connect(m_listener, &app::Server::events, this, &ServiceWiring::followUpload);
    connect(&m_folderUsageTimer, &QTimer::timeout, this, [this] {
        if (const auto bytes = m_listener->capturesBytes())
            m_window.listenView()->setFolderUsage(*bytes, m_keepBytes);
    });
    m_folderUsageTimer.start(1000);
    connect(view, &ListenView::startRequested, this, [this](quint16 port) {
        QSettings().setValue(QStringLiteral("listen/port"), port); // the user's choice is remembered
        startListener(port);
    });
    connect(view, &ListenView::captureFolderChosen, this, [this](const QString& folder) {
        m_captureDir = folder;
        QSettings().setValue(QStringLiteral("listen/captureDir"), folder);
        startListener(m_listener->isListening() ? m_listener->port() : quint16(8080));
    });
    connect(view, &ListenView::settingsChosen, this, [this](const ListenerSettings& settings) {
        saveListenerSettings(settings);
        if (m_listener->isListening())
            startListener(m_listener->port());
    });
    connect(view, &ListenView::stopRequested, this, [this] {
        m_listener->stop();
        m_window.listenView()->setListening(false, {}, 0, {});
        m_window.setListenerStatus(tr("Listener stopped"));
    });
    connectForwarder();
    connect(view, &ListenView::captureActivated, this, [this](const QString& folder) { open(folder); });
    connect(view, &ListenView::unstoredCaptureActivated, this, [this](const app::CaptureRecord& record) {
        m_window.tabs()->setCurrentWidget(m_window.inspectView());
        m_window.inspectView()->showResult(app::inspectRecord(record));
    });
    connect(view, &ListenView::refusedActivated, this, &ServiceWiring::openRefused);
    connect(view, &ListenView::curlRequested, this, [this](const QString& folder) { copyAsCurl(folder); });
    connect(view, &ListenView::resendRequested, this, &ServiceWiring::resend);
    connect(view, &ListenView::harExportRequested, this, &ServiceWiring::exportHar);
    connect(view, &ListenView::deleteRequested, this, [](const QString& folder) {
        // A large capture takes a while to delete: not on the GUI thread.
        QThreadPool::globalInstance()->start([folder] { QDir(folder).removeRecursively(); });
    });
}

// Forward mode: its exchanges are listed with the listener's captures, in the same folder, with the same settings
// (hash, limits, retention); the upstream, port and the CA file it trusts are remembered.
void ServiceWiring::connectForwarder()
{
    ListenView* view = m_window.listenView();
    connect(m_forwarder, &app::Server::events, view, &ListenView::applyEvents);
    view->setForwardDefaults(QSettings().value(QStringLiteral("forward/upstream")).toString(),
                             quint16(QSettings().value(QStringLiteral("forward/port"), 8081).toUInt()),
                             rememberedCaFile(QStringLiteral("forward/caFile")));
    connect(view, &ListenView::forwardRequested, this,
            [this](const app::ForwardSettings& forward, quint16 port, bool keepWholeRequests) {
                QSettings().setValue(QStringLiteral("forward/upstream"), forward.upstream.toString());
                QSettings().setValue(QStringLiteral("forward/port"), port);
                QSettings().setValue(QStringLiteral("forward/caFile"), forward.caCertificates);
                app::ServerConfig config = relayConfig(port);
                config.forward = forward;
                config.keepRaw = keepWholeRequests;
                if (!m_forwarder->start(config)) {
                    m_window.listenView()->setForwarding(false, {}, {}, m_forwarder->errorString());
                    return;
                }
                const QString base = QStringLiteral("http://127.0.0.1:%1").arg(m_forwarder->port());
                m_window.listenView()->setForwarding(true, base, forward.upstream.toString());
                m_window.sendView()->setForwarderBase(base); // a target to compare with sending directly
            });
    connect(view, &ListenView::forwardStopRequested, this, [this] {
        m_forwarder->stop();
        m_window.listenView()->setForwarding(false, {}, {});
        m_window.sendView()->setForwarderBase({});
    });
}

void ServiceWiring::connectSender()
{
    SendView* view = m_window.sendView();
    connect(view, &SendView::sendRequested, m_sender,
            [sender = m_sender](const app::UploadPlan& plan) { sender->start(plan); });
    connect(view, &SendView::sendRequested, this, [this](const app::UploadPlan& plan) {
        const QUrl listener(m_listenerBase);
        const QUrl target = plan.targets.value(0);
        m_followed = {};
        m_followed.armed = target.port(80) == listener.port() &&
                           (target.host() == listener.host() || target.host() == QLatin1String("localhost"));
        m_followed.path = target.path();
        m_followed.run = m_runsBefore;
    });
    connect(m_sender, &app::Sender::finished, this, [this] { m_followed = {}; });
    connect(view, &SendView::cancelRequested, m_sender, [sender = m_sender] { sender->cancel(); });
    connect(m_sender, &app::Sender::progress, view, [this, view](int target, int run, quint64 sent, quint64 total) {
        view->onProgress(target, m_runsBefore + run, sent, total);
    });
    connect(m_sender, &app::Sender::runFinished, view, [this](app::RunResult result) {
        result.run += m_runsBefore;
        const auto* followed = m_window.listenView()->model()->find(m_followed.captureId); // as it ran
        m_followed.captureId = 0; // the next run is a capture of its own
        m_followed.run = result.run + 1;
        m_window.sendView()->onRunFinished(result);
        // Our own listener's answer names its capture: show what it received beside what was sent. A run without
        // one (cancelled, refused) keeps what was followed while it went.
        const quint64 id = app::CaptureRecord::idInAnswer(result.response);
        if (id == 0) {
            if (followed && !followed->samples.isEmpty())
                m_window.sendView()->setReceivedSamples(followed->samples, result.run);
            return;
        }
        QStringList sent;
        for (const auto& part : result.parts) // a digest the listener did not report (another hash) is not compared
            sent << (part.receivedDigest.isEmpty() ? QString() : part.sentDigest);
        m_window.inspectView()->rememberSentHashes(id, sent);
        if (const auto* received = m_window.listenView()->model()->find(id))
            m_window.sendView()->setReceivedSamples(received->samples, result.run);
    });
    connect(m_sender, &app::Sender::finished, view, [this, view](QList<app::RunResult> results) {
        for (app::RunResult& r : results)
            r.run += m_runsBefore;
        m_runsBefore += int(results.size());
        view->onFinished(results);
        m_window.compareView()->addRuns(results);
    });
}

void ServiceWiring::savePlan(const QString& path)
{
    QJsonObject plan = m_window.sendView()->plan().toJson();
    plan.remove(QStringLiteral("insecure")); // the user's choice each time, as in the settings
    saveExports(&m_window, {{path, QJsonDocument(plan).toJson()}},
                tr("Saved the plan to %1 (upload-inspector-cli send --plan reads it)").arg(path));
}

void ServiceWiring::openPlan(const QString& path)
{
    QPointer<MainWindow> window(&m_window);
    QThreadPool::globalInstance()->start([window, path] {
        QFile file(path);
        QString why;
        std::optional<app::UploadPlan> plan;
        if (!file.open(QIODevice::ReadOnly)) {
            why = file.errorString();
        } else {
            QJsonParseError error{};
            const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &error);
            if (!json.isObject())
                why = QObject::tr("not JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset);
            else
                plan = app::UploadPlan::fromJson(json.object(), &why);
        }
        QMetaObject::invokeMethod(window, [window, path, plan, why] {
            if (!window)
                return;
            if (plan) {
                window->sendView()->setPlan(*plan);
                window->tabs()->setCurrentWidget(window->sendView());
            }
            window->statusBar()->showMessage(plan ? QObject::tr("Opened the plan %1").arg(path)
                                                  : QObject::tr("Could not open the plan %1: %2").arg(path, why),
                                             8000);
        });
    });
}

void ServiceWiring::followUpload(const QList<app::CaptureEvent>& batch)
{
    if (!m_followed.armed)
        return;
    // The samples are the captures list's row's (ListenView::applyEvents, connected first, has added them).
    bool grew = false;
    for (const app::CaptureEvent& e : batch) {
        if (m_followed.captureId == 0 && e.kind == app::CaptureEvent::Kind::CaptureStarted &&
            e.capture.endpoint == m_followed.path)
            m_followed.captureId = e.capture.id;
        grew = grew || (e.capture.id == m_followed.captureId && !e.samples.isEmpty());
    }
    if (const auto* row = m_window.listenView()->model()->find(m_followed.captureId); grew && row)
        m_window.sendView()->setReceivedSamples(row->samples, m_followed.run);
}

void ServiceWiring::connectInspector()
{
    InspectView* view = m_window.inspectView();
    connect(view, &InspectView::openRequested, this,
            [this](const QString& path, const QString& type) { open(path, type); });
    connect(view, &InspectView::cancelRequested, this, [inspector = m_inspector] { inspector->cancel(); });
    connect(view, &InspectView::savePartsRequested, m_inspector, &app::InspectWorker::saveParts);
    connect(view, &InspectView::copyCurlRequested, this,
            [this](const app::InspectResult& source, int harEntry) { copyAsCurl({}, source, harEntry); });
    connect(m_inspector, &app::InspectWorker::partsSaved, view, &InspectView::onPartsSaved);
    connect(m_inspector, &app::InspectWorker::progress, view, &InspectView::setProgress);
    connect(m_inspector, &app::InspectWorker::finished, view, &InspectView::showResult);
    connect(view, &InspectView::bytesRequested, m_reader, &app::PartReader::read);
    connect(m_reader, &app::PartReader::bytesRead, view, &InspectView::onBytesRead);
}

void ServiceWiring::connectBench()
{
    BenchView* view = m_window.benchView();
    connect(view, &BenchView::runRequested, m_bench,
            [bench = m_bench](const app::BenchRequest& request) { bench->run(request); });
    connect(m_bench, &app::BenchWorker::finished, view, &BenchView::showResult);
    // An inspected capture's raw body is offered as a source to time.
    connect(m_inspector, &app::InspectWorker::finished, view, &BenchView::offerInspected);
}

} // namespace upin::ui
