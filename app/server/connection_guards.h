#pragma once
// The deadlines every mode's connection keeps, as small value objects, so that the listener and the forwarder
// count them the same way (a guard written once holds for both).

#include "server/server_config.h"

#include <QElapsedTimer>
#include <QString>

#include <optional>

namespace upin::app {

// Lingering close, as nginx's lingering_timeout and lingering_time: after an early answer the rest of a body is
// read and dropped while it keeps coming (a pause of kQuietMs ends it), for kMaxMs and kMaxBytes at most, so the
// client reads the answer instead of a reset, and cannot keep the connection for ever.
class Linger {
public:
    static constexpr int kQuietMs = 5'000;
    static constexpr qint64 kMaxMs = 30'000;
    static constexpr quint64 kMaxBytes = quint64{256} << 20;
    // Lingering connections give up their slot (a refused client must not keep a new one out for 30 s), so they
    // have a cap of their own, this many per slot: past it, a connection closes right after its answer.
    static constexpr int kMaxPerSlot = 2;

    void start() { m_clock.start(); } // the answer is out: the time counts from here
    bool started() const { return m_clock.isValid(); }
    // Counts dropped bytes; false once a cap is reached: close now.
    bool dropped(quint64 bytes)
    {
        m_bytes += bytes;
        return m_bytes <= kMaxBytes && !(m_clock.isValid() && m_clock.elapsed() > kMaxMs);
    }

private:
    QElapsedTimer m_clock;
    quint64 m_bytes = 0;
};

// The slowest body accepted, as Kestrel's MinRequestBodyDataRate: after the grace period, each window must bring
// its share of the minimum rate. A window in which we held the client back (our pipeline or the upstream was
// behind) does not count against it.
class BodyRate {
public:
    explicit BodyRate(const ListenerGuards& guards) : m_guards(guards) {}
    bool enabled() const { return m_guards.minBodyBytesPerSecond > 0; }
    int windowMs() const { return m_guards.bodyRateWindowMs; }
    void start()
    {
        m_clock.start();
        m_atLastCheck = 0;
        m_heldBack = false;
    }
    void heldBack() { m_heldBack = true; }
    // At the end of each window, with the body bytes so far: why the body is too slow, or nothing.
    std::optional<QString> check(quint64 received)
    {
        const quint64 inWindow = received - m_atLastCheck;
        m_atLastCheck = received;
        const bool held = std::exchange(m_heldBack, false);
        if (held ||
            m_clock.elapsed() + m_guards.bodyRateWindowMs / 10 < m_guards.bodyGraceMs + m_guards.bodyRateWindowMs)
            return std::nullopt; // the window that just ended began inside the grace period, or we were behind
        const quint64 needed = m_guards.minBodyBytesPerSecond * quint64(m_guards.bodyRateWindowMs) / 1000;
        if (inWindow >= needed)
            return std::nullopt;
        return QStringLiteral("the body arrived at %1 bytes/s, under the minimum of %2 (--min-body-rate)")
            .arg(inWindow * 1000 / quint64(std::max(1, m_guards.bodyRateWindowMs)))
            .arg(m_guards.minBodyBytesPerSecond);
    }

private:
    const ListenerGuards& m_guards;
    QElapsedTimer m_clock;
    quint64 m_atLastCheck = 0;
    bool m_heldBack = false;
};

} // namespace upin::app
