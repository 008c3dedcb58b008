#include "server/server_shared.h"

namespace upin::app {

void WaitingConnections::add(QObject* connection, std::function<void()> close)
{
    std::lock_guard lock(m_mutex);
    m_connections.push_back({connection, std::move(close)});
}

void WaitingConnections::remove(QObject* connection)
{
    std::lock_guard lock(m_mutex);
    m_connections.remove_if([connection](const Waiting& w) { return w.connection == connection; });
}

bool WaitingConnections::closeOldest()
{
    std::lock_guard lock(m_mutex);
    if (m_connections.empty())
        return false;
    // Posted under the lock: the listed object's destructor (a ClientSide's, a Relay's) takes the lock to leave the
    // list, so it cannot be destroyed before the call is queued, and a queued call to a destroyed context is
    // dropped.
    QMetaObject::invokeMethod(m_connections.front().connection, std::move(m_connections.front().close),
                              Qt::QueuedConnection);
    m_connections.pop_front();
    return true;
}

} // namespace upin::app
