#pragma once
// The client's deadlines for each request, kept the same way in every mode: its whole head within headTimeoutMs
// (of its first byte, or of the connection's start), no pause longer than idleTimeoutMs until its body's end, and
// after the grace period each window's share of the minimum body rate (BodyRate). A pause we caused (our hashing
// pipeline holds every block, the upstream has not taken what it has) is not the client's: waitingOnUs() stops
// the idle deadline and spares the rate window. What a missed deadline means is the connection's (missed()).

#include "server/connection_guards.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace upin::app {

class ClientDeadlines final : public QObject {
    Q_OBJECT
public:
    enum class Missed : uint8_t { Head, Idle, BodyRate };
    // bodyBytes: the body bytes so far, for the rate. missed: a deadline passed, with why in words.
    ClientDeadlines(const ListenerGuards& guards, std::function<quint64()> bodyBytes,
                    std::function<void(Missed, const QString& why)> missed);

    void headDeadline(); // the head's deadline starts (a new connection, or a kept-alive one's next request)
    void headArrives();  // its first byte: received_at and the head's time count from here
    void headDone();
    void bodyBegins();  // the idle deadline and the rate windows
    void clientSent();  // bytes came: the idle deadline starts again
    void waitingOnUs(); // we hold the client back: its idle deadline waits, the rate window is spared
    void clientsTurn(); // we take bytes again: the idle deadline runs, unless it already does
    void stop();        // the body is whole, or the connection ends
    // Asked at each rate window's end: are we holding the client back right now? (No read comes meanwhile to say
    // so, so a window spent wholly waiting on us would otherwise count against the client.)
    void setHeldBackNow(std::function<bool()> heldBackNow) { m_heldBackNow = std::move(heldBackNow); }

    double headMs() const { return double(m_headClock.nsecsElapsed()) / 1e6; }
    const QDateTime& headStartedAt() const { return m_headStartedAt; }

private:
    void checkRate();

    const ListenerGuards& m_guards;
    std::function<quint64()> m_bodyBytes;
    std::function<void(Missed, const QString&)> m_missed;
    std::function<bool()> m_heldBackNow;
    QTimer m_headTimer;
    QTimer m_idleTimer;
    QTimer m_rateTimer; // every bodyRateWindowMs while a body arrives
    BodyRate m_rate;
    bool m_inBody = false;
    QElapsedTimer m_headClock;
    QDateTime m_headStartedAt;
};

} // namespace upin::app
