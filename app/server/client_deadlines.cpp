#include "server/client_deadlines.h"

namespace upin::app {

ClientDeadlines::ClientDeadlines(const ListenerGuards& guards, std::function<quint64()> bodyBytes,
                                 std::function<void(Missed, const QString&)> missed)
    : m_guards(guards), m_bodyBytes(std::move(bodyBytes)), m_missed(std::move(missed)), m_rate(guards)
{
    for (QTimer* timer : {&m_headTimer, &m_idleTimer})
        timer->setSingleShot(true);
    connect(&m_headTimer, &QTimer::timeout, this, [this] {
        m_idleTimer.stop();
        m_missed(Missed::Head,
                 QStringLiteral("the request head did not arrive within %1 ms").arg(m_guards.headTimeoutMs));
    });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        m_rateTimer.stop();
        m_missed(Missed::Idle, QStringLiteral("no byte from the client for %1 ms").arg(m_guards.idleTimeoutMs));
    });
    // Precise: a coarse timer may fire 5% early, and a window that ends just before the grace period's end would
    // be skipped, holding a too-slow client for a whole window more.
    m_rateTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_rateTimer, &QTimer::timeout, this, &ClientDeadlines::checkRate);
}

void ClientDeadlines::headDeadline()
{
    m_inBody = false;
    m_headTimer.start(m_guards.headTimeoutMs);
}

void ClientDeadlines::headArrives()
{
    m_headStartedAt = QDateTime::currentDateTimeUtc();
    m_headClock.start();
}

void ClientDeadlines::headDone()
{
    m_headTimer.stop();
}

void ClientDeadlines::bodyBegins()
{
    m_inBody = true;
    m_idleTimer.start(m_guards.idleTimeoutMs);
    m_rate.start();
    if (m_rate.enabled())
        m_rateTimer.start(m_rate.windowMs());
}

void ClientDeadlines::clientSent()
{
    if (m_inBody)
        m_idleTimer.start(m_guards.idleTimeoutMs);
}

void ClientDeadlines::waitingOnUs()
{
    m_idleTimer.stop();
    m_rate.heldBack();
}

void ClientDeadlines::clientsTurn()
{
    if (m_inBody && !m_idleTimer.isActive())
        m_idleTimer.start(m_guards.idleTimeoutMs);
}

void ClientDeadlines::stop()
{
    m_inBody = false;
    for (QTimer* timer : {&m_headTimer, &m_idleTimer, &m_rateTimer})
        timer->stop();
}

void ClientDeadlines::checkRate()
{
    if (!m_inBody) {
        m_rateTimer.stop();
        return;
    }
    if (m_heldBackNow && m_heldBackNow())
        m_rate.heldBack();
    if (auto why = m_rate.check(m_bodyBytes())) {
        stop();
        m_missed(Missed::BodyRate, *why);
    }
}

} // namespace upin::app
