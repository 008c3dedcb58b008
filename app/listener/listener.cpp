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

Listener::~Listener()
{
    stop();
}

bool Listener::start(const ListenerConfig& config)
{
    stop();
    m_shared = std::make_shared<ListenerShared>(config);
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
            m_server = std::make_unique<Server>(this);
            ok = m_server->listen(config.bindAddress, config.port);
            if (!ok) {
                m_error = m_server->errorString();
                m_server.reset();
            } else {
                m_address = m_server->serverAddress();
                m_shared->port = m_server->serverPort();
            }
        },
        Qt::BlockingQueuedConnection);
    if (!ok)
        stop();
    return ok;
}

void Listener::stop()
{
    if (m_acceptThread) {
        QMetaObject::invokeMethod(
            m_acceptContext, [this] { m_server.reset(); }, Qt::BlockingQueuedConnection);
        m_acceptThread->quit();
        m_acceptThread->wait();
        delete m_acceptThread;
        m_acceptThread = nullptr;
        m_acceptContext = nullptr; // deleted on the thread's finished()
    }
    for (auto* worker : m_workers)
        QMetaObject::invokeMethod(worker, &ListenerWorker::shutdown, Qt::BlockingQueuedConnection);
    for (auto* thread : m_threads) {
        thread->quit();
        thread->wait();
        delete thread;
    }
    m_threads.clear();
    m_workers.clear();
}

bool Listener::isListening() const
{
    return m_acceptThread != nullptr;
}
QHostAddress Listener::address() const
{
    return isListening() ? m_address : QHostAddress();
}
quint16 Listener::port() const
{
    return isListening() ? m_shared->port : 0;
}
QString Listener::captureRoot() const
{
    return m_shared ? m_shared->store.root() : QString();
}

void Listener::dispatch(qintptr descriptor) // on the accept thread
{
    ListenerWorker* worker = m_workers[m_next++ % m_workers.size()];
    QMetaObject::invokeMethod(
        worker, [worker, descriptor] { worker->adopt(descriptor); }, Qt::QueuedConnection);
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
    new Connection(
        descriptor, m_shared, [this](ListenerEvent e) { publish(std::move(e)); }, this);
}

void ListenerWorker::shutdown()
{
    for (auto* connection : findChildren<Connection*>(Qt::FindDirectChildrenOnly))
        delete connection; // its destructor finishes an upload in progress
    flush();
}

namespace {
constexpr qsizetype kMaxPendingEvents = 500;
} // namespace

void ListenerWorker::publish(ListenerEvent event)
{
    std::unique_lock lock(m_pendingMutex);
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
    const bool finished = event.kind == ListenerEvent::Kind::CaptureFinished;
    m_pending.append(std::move(event));
    // A finished capture is shown at once, not up to a batch interval later; and a body of many small parts,
    // parsed in one go, sends its events on in batches instead of holding them all until it ends.
    if (finished || m_pending.size() >= kMaxPendingEvents) {
        lock.unlock();
        flush();
    }
}

void ListenerWorker::flush()
{
    // Emitted under the lock, so that batches from two threads arrive in the order they were taken (the signal is
    // queued to the Listener's thread: nothing runs here that could publish again).
    std::lock_guard lock(m_pendingMutex);
    if (m_pending.isEmpty())
        return;
    emit events(m_pending);
    m_pending.clear();
}

} // namespace upin::app
