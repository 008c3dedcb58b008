#include "modes/server.h"

#include "forwarder/relay.h"
#include "listener/endpoints.h"
#include "proxy/proxy_clients.h"
#include "server/server_connection.h"

#include <QThread>
#include <QTimer>

namespace upin::app {

namespace {
constexpr int kFlushIntervalMs = 30;
// A publisher whose thread has not let the timer run for this long sends its batch itself.
constexpr qint64 kSelfFlushAfterMs = qint64{3} * kFlushIntervalMs;

// Up to 4 MiB of reads in flight while an upload's pipelines hash and store them: with fewer, the reader and the
// hashing thread wait on each other whenever the scheduler runs something else (measured here: 8 blocks took 10%
// longer for /part-event with SHA-256, 4 blocks 40%, and 64 were no faster than 16). Blocks are allocated when a
// pipeline falls behind, beyond the first only from the listener's shared budget (ServerShared::readBlocks),
// and all but one are given back when the upload ends.
ServerConnection::Mode listenerMode()
{
    ServerConnection::Mode mode;
    mode.name = "listener";
    mode.readChunk = qint64{256} * 1024;
    mode.readBlocks = 16;
    mode.http2 = true;
    return mode;
}

// Reads of up to 1 MiB: a quarter as many wakeups as the listener's 256 KiB, which measured 1.34x -> 1.16x curl
// straight to the upstream (200 MiB, no hash). 4 per connection, beyond the first from the shared budget (16).
// A relay reads strictly: a line that ends in LF alone, which the upstream may split differently, is refused.
// A forward proxy's the same, but for the words of its refusals and the requests it admits.
ServerConnection::Mode relayMode(bool proxy)
{
    ServerConnection::Mode mode;
    mode.name = proxy ? "proxy" : "forwarder";
    mode.proxy = proxy;
    mode.readChunk = qint64{1024} * 1024;
    mode.readBlocks = 4;
    mode.httpLimits.strictLineEnds = true;
    mode.jsonRefusals = true;
    return mode;
}

template <typename Handler>
std::unique_ptr<ExchangeHandler> make(Exchange& exchange)
{
    return std::make_unique<Handler>(exchange);
}
} // namespace

class Server::Acceptor final : public QTcpServer {
public:
    Acceptor(Server* owner, bool tls) : m_owner(owner), m_tls(tls) {}

protected:
    // Hand the raw descriptor to a worker: the socket object is created in the thread that will use it (a
    // QSslSocket for the TLS port, which does its handshake there too).
    void incomingConnection(qintptr descriptor) override { m_owner->dispatch(descriptor, m_tls); }

private:
    Server* m_owner;
    bool m_tls;
};

Server::Server(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<QList<upin::app::CaptureEvent>>();
}

Server::~Server()
{
    stop();
}

bool Server::start(const ServerConfig& config)
{
    stop();
    m_error.clear();
    m_shared = std::make_shared<ServerShared>(config);
    if (config.tls && !setUpTls())
        return false;
    if (config.forward && config.forward->proxy && !setUpProxy())
        return false;
    startWorkers(std::max(1, config.workerThreads));
    // Accepting runs on a thread of its own too, so a busy or blocked caller thread never delays a client.
    m_acceptThread = new QThread;
    m_acceptThread->setObjectName(QStringLiteral("listener-accept"));
    m_acceptContext = new QObject;
    m_acceptContext->moveToThread(m_acceptThread);
    connect(m_acceptThread, &QThread::finished, m_acceptContext, &QObject::deleteLater);
    m_acceptThread->start();
    bool ok = false;
    QMetaObject::invokeMethod(
        m_acceptContext,
        [this, &ok, config] {
            auto open = [&](std::unique_ptr<Acceptor>& server, bool tls, quint16 port, quint16& bound) {
                server = std::make_unique<Acceptor>(this, tls);
                // Qt's default queue of 50 handshaken connections overflows when a burst comes while this thread
                // waits for a core: Linux then drops the client's ACK, and that client, connected on its side,
                // is accepted only at a SYN-ACK resent a second later, after clients that came after it. nginx's
                // 511 (the kernel caps it at net.core.somaxconn).
                server->setListenBacklogSize(511);
                if (!server->listen(config.bindAddress, port)) {
                    m_error = QStringLiteral("%1 (port %2)").arg(server->errorString()).arg(port);
                    server.reset();
                    return false;
                }
                m_address = server->serverAddress();
                bound = server->serverPort();
                return true;
            };
            ok = (!config.plain || open(m_acceptor, false, config.port, m_shared->port)) &&
                 (!config.tls || open(m_tlsAcceptor, true, config.tlsPort, m_shared->tlsPort));
        },
        Qt::BlockingQueuedConnection);
    if (!ok)
        stop();
    return ok;
}

// A proxy's authority, made on first use, before a client needs it; and whom it serves.
bool Server::setUpProxy()
{
    const ServerConfig& config = m_shared->config;
    m_shared->proxyCa = LocalCa::open(config.tlsFolder.isEmpty() ? defaultTlsFolder() : config.tlsFolder, &m_error);
    if (!m_shared->proxyCa) {
        m_error = QStringLiteral("the proxy's certificate authority: ") + m_error;
        return false;
    }
    auto& clients = m_shared->config.forward->allowedClients;
    if (clients.isEmpty()) // never an open relay
        clients = localNetworks(config.bindAddress);
    return true;
}

void Server::startWorkers(int count)
{
    for (int i = 0; i < count; ++i) {
        auto* thread = new QThread;
        thread->setObjectName(QStringLiteral("listener-worker-%1").arg(i));
        auto* worker = new ServerWorker(m_shared);
        worker->moveToThread(thread);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        connect(worker, &ServerWorker::events, this, &Server::events, Qt::QueuedConnection);
        thread->start();
        m_threads.push_back(thread);
        m_workers.push_back(worker);
    }
}

void Server::stop()
{
    if (m_acceptThread) {
        QMetaObject::invokeMethod(
            m_acceptContext,
            [this] {
                m_acceptor.reset();
                m_tlsAcceptor.reset();
            },
            Qt::BlockingQueuedConnection);
        m_acceptThread->quit();
        m_acceptThread->wait();
        delete m_acceptThread;
        m_acceptThread = nullptr;
        m_acceptContext = nullptr; // deleted on the thread's finished()
    }
    for (auto* worker : m_workers)
        QMetaObject::invokeMethod(worker, &ServerWorker::shutdown, Qt::BlockingQueuedConnection);
    for (auto* thread : m_threads) {
        thread->quit();
        thread->wait();
        delete thread;
    }
    m_threads.clear();
    m_workers.clear();
}

bool Server::isListening() const
{
    return m_acceptThread != nullptr;
}
QHostAddress Server::address() const
{
    return isListening() ? m_address : QHostAddress();
}
quint16 Server::port() const
{
    return isListening() ? m_shared->port : 0;
}
std::optional<quint64> Server::capturesBytes() const
{
    return isListening() ? m_shared->store.keptBytes() : std::nullopt;
}
quint16 Server::tlsPort() const
{
    return isListening() ? m_shared->tlsPort : 0;
}
std::optional<TlsIdentity> Server::tlsIdentity() const
{
    return m_shared ? m_shared->tlsIdentity : std::nullopt;
}
int Server::tlsHandshakeFailures() const
{
    return m_shared ? m_shared->tlsHandshakeFailures.load() : 0;
}

// The certificate (the user's, or the local one, made on first use) and the server side of every TLS connection.
bool Server::setUpTls()
{
    const ServerConfig& config = m_shared->config;
    m_shared->tlsIdentity =
        config.certificateFile.isEmpty()
            ? localTlsIdentity(config.tlsFolder.isEmpty() ? defaultTlsFolder() : config.tlsFolder, &m_error)
            : tlsIdentityFromFiles(config.certificateFile, config.keyFile, &m_error);
    if (!m_shared->tlsIdentity) {
        m_error = QStringLiteral("TLS certificate: ") + m_error;
        return false;
    }
    m_shared->tlsConfiguration = serverTlsConfiguration(*m_shared->tlsIdentity);
    return true;
}

std::shared_ptr<LocalCa> Server::proxyCa() const
{
    return m_shared ? m_shared->proxyCa : nullptr;
}

QList<QPair<QHostAddress, int>> Server::proxyClients() const
{
    return m_shared && m_shared->config.forward ? m_shared->config.forward->allowedClients
                                                : QList<QPair<QHostAddress, int>>{};
}
QString Server::captureRoot() const
{
    return m_shared ? m_shared->store.root() : QString();
}

std::optional<RefusedRequest> Server::recentRefused(quint64 id) const
{
    return m_shared ? m_shared->store.recentRefused(id) : std::nullopt;
}

void Server::dispatch(qintptr descriptor, bool tls) // on the accept thread
{
    ServerWorker* worker = m_workers[m_next++ % m_workers.size()];
    const AcceptedSocket accepted{descriptor, tls, m_shared->takeSlot()}; // here, in the order clients came
    QMetaObject::invokeMethod(
        worker, [worker, accepted] { worker->adopt(accepted); }, Qt::QueuedConnection);
}

ServerWorker::ServerWorker(std::shared_ptr<ServerShared> shared) : m_shared(std::move(shared))
{
    m_sinceFlush.start();
}

void ServerWorker::adopt(AcceptedSocket accepted)
{
    if (!m_flushTimer) { // created here, in the worker thread
        m_flushTimer = new QTimer(this);
        m_flushTimer->setInterval(kFlushIntervalMs);
        connect(m_flushTimer, &QTimer::timeout, this, &ServerWorker::flush);
        m_flushTimer->start();
    }
    auto publisher = [this](CaptureEvent e) { publish(std::move(e)); };
    if (const auto& forward = m_shared->config.forward)
        new ServerConnection(accepted, m_shared, publisher, relayMode(forward->proxy), make<Relay>, this);
    else
        new ServerConnection(accepted, m_shared, publisher, listenerMode(), make<Endpoints>, this);
}

void ServerWorker::shutdown()
{
    for (auto* connection : findChildren<ServerConnection*>(Qt::FindDirectChildrenOnly))
        delete connection; // its destructor finishes an upload or an exchange in progress
    flush();
}

namespace {
constexpr qsizetype kMaxPendingEvents = 500;
} // namespace

void ServerWorker::publish(CaptureEvent event)
{
    std::unique_lock lock(m_pendingMutex);
    // Fold consecutive progress events of one capture into one that carries all their samples.
    bool folded = false;
    if (event.kind == CaptureEvent::Kind::Progress && !m_pending.isEmpty()) {
        CaptureEvent& last = m_pending.last();
        if (last.kind == CaptureEvent::Kind::Progress && last.capture.id == event.capture.id) {
            last.samples += event.samples;
            last.capture = event.capture;
            folded = true;
        }
    }
    const bool finished = event.kind == CaptureEvent::Kind::CaptureFinished;
    if (!folded)
        m_pending.append(std::move(event));
    // A finished capture is shown at once, not up to a batch interval later; and a body of many small parts,
    // parsed in one go, sends its events on in batches instead of holding them all until it ends. The timer's
    // batches need this thread's event loop, which a body that keeps arriving faster than it is read may not
    // give back for seconds (seen under sanitizers): past an interval the publisher sends them itself.
    if (finished || m_pending.size() >= kMaxPendingEvents || m_sinceFlush.hasExpired(kSelfFlushAfterMs)) {
        lock.unlock();
        flush();
    }
}

void ServerWorker::flush()
{
    // Emitted under the lock, so that batches from two threads arrive in the order they were taken (the signal is
    // queued to the Server's thread: nothing runs here that could publish again).
    std::lock_guard lock(m_pendingMutex);
    m_sinceFlush.start();
    if (m_pending.isEmpty())
        return;
    emit events(m_pending);
    m_pending.clear();
}

} // namespace upin::app
