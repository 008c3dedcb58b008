#include "listener/listener.h"

#include "listener/connection.h"

#include <QThread>
#include <QTimer>

namespace upin::app {

namespace {
constexpr int kFlushIntervalMs = 30;
}

class Listener::Server final : public QTcpServer {
public:
    explicit Server(Listener* owner) : m_owner(owner) {}

protected:
    // Hand the raw descriptor to a worker: the socket object is created in the thread that will use it.
    void incomingConnection(qintptr descriptor) override { m_owner->dispatch(descriptor); }

private:
    Listener* m_owner;
};

Listener::Listener(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<QList<upin::app::ListenerEvent>>();
}

Listener::~Listener() { stop(); }

bool Listener::start(const ListenerConfig& config)
{
    stop();
    m_shared = std::make_shared<ListenerShared>(config);
    m_server = std::make_unique<Server>(this);
    if (!m_server->listen(config.bindAddress, config.port)) {
        m_error = m_server->errorString();
        m_server.reset();
        return false;
    }
    m_shared->port = m_server->serverPort();
    for (int i = 0; i < std::max(1, config.workerThreads); ++i) {
        auto* thread = new QThread;
        thread->setObjectName(QStringLiteral("listener-worker-%1").arg(i));
        auto* worker = new ListenerWorker(m_shared);
        worker->moveToThread(thread);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        connect(worker, &ListenerWorker::events, this, &Listener::events, Qt::QueuedConnection);
        thread->start();
        m_threads.push_back(thread);
        m_workers.push_back(worker);
    }
    return true;
}

void Listener::stop()
{
    if (m_server)
        m_server->close();
    m_server.reset();
    for (auto* thread : m_threads) {
        thread->quit();
        thread->wait();
        delete thread;
    }
    m_threads.clear();
    m_workers.clear();
}

bool Listener::isListening() const { return m_server && m_server->isListening(); }
QHostAddress Listener::address() const { return m_server ? m_server->serverAddress() : QHostAddress(); }
quint16 Listener::port() const { return m_server ? m_server->serverPort() : 0; }
QString Listener::captureRoot() const { return m_shared ? m_shared->store.root() : QString(); }

void Listener::dispatch(qintptr descriptor)
{
    ListenerWorker* worker = m_workers[m_next++ % m_workers.size()];
    QMetaObject::invokeMethod(worker, [worker, descriptor] { worker->adopt(descriptor); }, Qt::QueuedConnection);
}

ListenerWorker::ListenerWorker(std::shared_ptr<ListenerShared> shared) : m_shared(std::move(shared)) {}

void ListenerWorker::adopt(qintptr descriptor)
{
    if (!m_flushTimer) { // created here, in the worker thread
        m_flushTimer = new QTimer(this);
        m_flushTimer->setInterval(kFlushIntervalMs);
        connect(m_flushTimer, &QTimer::timeout, this, &ListenerWorker::flush);
        m_flushTimer->start();
    }
    new Connection(descriptor, m_shared, [this](ListenerEvent e) { publish(std::move(e)); }, this);
}

void ListenerWorker::publish(ListenerEvent event)
{
    // Fold consecutive progress events of one capture into one that carries all their samples.
    if (event.kind == ListenerEvent::Kind::Progress && !m_pending.isEmpty()) {
        ListenerEvent& last = m_pending.last();
        if (last.kind == ListenerEvent::Kind::Progress && last.captureId == event.captureId) {
            last.samples += event.samples;
            last.bytes = event.bytes;
            last.elapsedMs = event.elapsedMs;
            return;
        }
    }
    m_pending.append(std::move(event));
    if (event.kind == ListenerEvent::Kind::CaptureFinished)
        flush();
}

void ListenerWorker::flush()
{
    if (m_pending.isEmpty())
        return;
    emit events(m_pending);
    m_pending.clear();
}

} // namespace upin::app
