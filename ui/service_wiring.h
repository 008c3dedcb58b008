#pragma once
// The one place where app services meet ui views: it owns the listener and the worker threads (sender, inspect,
// part reader, bench), connects their value signals to the views' slots and the views' intent signals to the services.
// Views never see a service; services never see a widget.

#include "capture/capture_event.h"
#include "inspect/inspect_types.h"
#include "server/server_config.h"
#include "upin/core/multipart_parser.h"

#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <memory>
#include <optional>

namespace upin::app {
class Server;
class Sender;
class InspectWorker;
class PartReader;
class BenchWorker;
} // namespace upin::app

namespace upin::ui {

class MainWindow;
class ProbeWiring;

class ServiceWiring final : public QObject {
    Q_OBJECT
public:
    // captureDir: where the listener stores captures; empty for the app data folder's default.
    ServiceWiring(MainWindow& window, QString captureDir);
    ~ServiceWiring() override; // stops the listener and waits for every worker thread

    // Starts the listener on port or, when it is taken, on one of the next 19; tells every view the port in use.
    bool startListener(quint16 port);
    static QString defaultCaptureRoot(); // where captures go unless the user chose a folder
    void setInspectLimits(const core::Options& limits) { m_inspectLimits = limits; }
    // Opens a body, HTTP request, HAR file or capture folder in the Inspect tab (parsed on the inspect thread).
    void open(const QString& path, const QString& contentType = {});
    // The Send tab's plan to a file, or a file's plan into the Send tab (the JSON send --plan reads), read and
    // written on a pool thread; the status bar says how it went.
    void savePlan(const QString& path);
    void openPlan(const QString& path);

private:
    void loadStoredCaptures(const QString& root, int limit);
    void openRefused(quint64 id, const QString& inWords);
    void copyAsCurl(const QString& folder, const std::optional<app::InspectResult>& opened = std::nullopt,
                    int harEntry = -1);
    // Resend: a capture read on a pool thread, its request (parts, method, header fields) put in the Send tab to be
    // edited and sent; to this listener, or through the forwarder again for a forwarded exchange.
    void resend(const QString& folder);
    // Export HAR: the captures written to path on a pool thread (inspect/har_export.h); the status bar says how it
    // went, and what the file holds of each capture that it could not hold whole.
    void exportHar(const QStringList& folders, const QString& path);
    void connectProxy(); // proxy_wiring.cpp
    // A relay's (the forwarder's, the proxy's): the listener's settings, plain http on port, no body limit of ours.
    app::ServerConfig relayConfig(quint16 port) const;
    void connectListener();
    void connectForwarder();
    void connectSender();
    void connectInspector();
    // The Send tab's chart follows our own listener receiving what it sends, as it arrives (issue 23, item 2).
    void followUpload(const QList<app::CaptureEvent>& batch);
    void connectBench();

    MainWindow& m_window;
    QString m_captureDir;
    core::Options m_inspectLimits;
    QString m_listenerBase = QStringLiteral("http://127.0.0.1:8080"); // where the listener is, as it started
    quint64 m_keepBytes = 0;   // the captures folder's size limit, as the listener started
    QTimer m_folderUsageTimer; // reads what the store measured (an atomic), for the Listen tab
    bool m_curlBusy = false;   // a Copy as curl is being made (set and cleared on the GUI thread)
    // A send to our own listener: the capture of its current run (the first to start on its path after the run
    // began), whose received bytes the Send chart draws while they come.
    struct FollowedUpload {
        bool armed = false; // a send to our listener is going on
        QString path;
        quint64 captureId = 0; // 0: the run's capture has not started yet
        int run = 0;           // the run it is, numbered through the session as the Send tab numbers them
    } m_followed;
    // Runs sent this session before the send under way: the window numbers runs through the session (its table,
    // Compare and their exports alike), where the sender numbers each send's from 0.
    int m_runsBefore = 0;
    app::Server* m_listener;
    app::Server* m_forwarder; // forward mode, started from the Listen tab's Forward panel
    app::Server* m_proxy;     // the forward proxy, started from its Proxy row
    QThread m_senderThread, m_inspectThread, m_benchThread, m_readerThread;
    app::Sender* m_sender;
    app::InspectWorker* m_inspector;
    app::PartReader* m_reader; // the bytes Inspect's previews show
    app::BenchWorker* m_bench;
    std::unique_ptr<ProbeWiring> m_probe;
};

} // namespace upin::ui
