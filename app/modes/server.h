#pragma once
// The server that runs every mode: `listen` (listener/), `forward` and `proxy` (forwarder/, with proxy/'s CA), as
// its ServerConfig says. It is the one place that knows the modes: server/ holds what they share (the connection,
// its guards, deadlines, slots and TLS) and knows none of them. Lives on the thread that creates it (the GUI or
// CLI main thread) but does no socket I/O there: a QTcpServer on an accept thread hands each descriptor to one of N
// worker threads, where the mode's connection is made, read, parsed and answered. Workers publish owned
// CaptureEvent values in batches (every ~30 ms), delivered to this object's thread as the events() signal.

#include "capture/capture_event.h"
#include "server/server_shared.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QTimer>

#include <memory>
#include <mutex>
#include <vector>

class QThread;

namespace upin::app {

class ServerWorker;

class Server final : public QObject {
    Q_OBJECT
public:
    explicit Server(QObject* parent = nullptr);
    ~Server() override;

    // Binds and starts accepting; false with errorString() on failure (e.g. port in use).
    bool start(const ServerConfig& config);
    void stop();
    bool isListening() const;
    QHostAddress address() const;
    quint16 port() const; // plain HTTP's; 0 when it is off
    // The finished captures' size on disk (CaptureStore::keptBytes); nullopt when not listening or not measured yet.
    std::optional<quint64> capturesBytes() const;
    quint16 tlsPort() const; // with TLS on
    std::optional<TlsIdentity> tlsIdentity() const;
    std::shared_ptr<LocalCa> proxyCa() const;             // a proxy's, which clients are to trust; null for other modes
    QList<QPair<QHostAddress, int>> proxyClients() const; // the networks a proxy serves (proxy_clients.h)
    int tlsHandshakeFailures() const;
    QString errorString() const { return m_error; }
    QString captureRoot() const;
    // A request this listener refused lately (CaptureStore::recentRefused): at once, before its line reaches the log.
    std::optional<RefusedRequest> recentRefused(quint64 id) const;

signals:
    void events(const QList<upin::app::CaptureEvent>& batch);

private:
    class Acceptor;
    void dispatch(qintptr descriptor, bool tls);
    bool setUpTls();
    bool setUpProxy();
    void startWorkers(int count);

    std::unique_ptr<Acceptor> m_acceptor;    // created, used and destroyed on m_acceptThread
    std::unique_ptr<Acceptor> m_tlsAcceptor; // the same, for the TLS port
    QThread* m_acceptThread = nullptr;
    QObject* m_acceptContext = nullptr; // lives on m_acceptThread: the target of calls made there
    QHostAddress m_address;
    std::shared_ptr<ServerShared> m_shared;
    std::vector<QThread*> m_threads;
    std::vector<ServerWorker*> m_workers;
    size_t m_next = 0;
    QString m_error;
};

// Owns the connections of one worker thread and batches their events.
class ServerWorker final : public QObject {
    Q_OBJECT
public:
    explicit ServerWorker(std::shared_ptr<ServerShared> shared);
    void adopt(AcceptedSocket accepted);
    // Closes every connection, ending uploads in progress as incomplete (their capture.json says so), and sends
    // the last events. In the worker's thread, before it stops.
    void shutdown();
    // From the worker's thread and from its uploads' pipeline threads (part events).
    void publish(CaptureEvent event);

signals:
    void events(const QList<upin::app::CaptureEvent>& batch);

private:
    void flush();

    std::shared_ptr<ServerShared> m_shared;
    std::mutex m_pendingMutex;
    QList<CaptureEvent> m_pending;
    QElapsedTimer m_sinceFlush; // under m_pendingMutex
    QTimer* m_flushTimer = nullptr;
};

} // namespace upin::app
