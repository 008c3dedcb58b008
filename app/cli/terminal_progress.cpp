#include "cli/terminal_progress.h"

#include "common/byte_size.h"

#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace upin::app::cli {

namespace {
constexpr qint64 kRedrawMs = 100;
constexpr qint64 kRateWindowMs = 3000; // a moving window: steady where a per-read rate jumps about

QString timeLeft(double seconds)
{
    const auto s = qint64(std::llround(seconds));
    return QStringLiteral("%1:%2 left").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}
} // namespace

TerminalProgress::TerminalProgress(bool silent) : m_enabled(!silent && ::isatty(STDERR_FILENO) == 1)
{
    m_clock.start();
    m_held.setSingleShot(true);
    QObject::connect(&m_held, &QTimer::timeout, [this] { draw(); });
}

void TerminalProgress::update(const QString& label, quint64 done, quint64 total)
{
    if (!m_enabled)
        return;
    const qint64 now = m_clock.elapsed();
    if (label != m_label) {
        m_label = label;
        m_samples.clear();
        m_drawnAtMs = -1;
    }
    m_samples.emplace_back(now, done);
    while (m_samples.size() > 2 && now - m_samples.front().first > kRateWindowMs)
        m_samples.pop_front();
    m_done = done;
    m_total = total;
    const bool finished = total > 0 && done >= total;
    // Held back, not dropped: drawn when the interval is up, so a transfer that pauses shows where it paused.
    const qint64 wait = m_drawnAtMs < 0 || finished ? 0 : kRedrawMs - (now - m_drawnAtMs);
    if (wait > 0) {
        if (!m_held.isActive())
            m_held.start(int(wait));
        return;
    }
    draw();
}

void TerminalProgress::draw()
{
    m_held.stop();
    m_drawnAtMs = m_clock.elapsed();
    const quint64 done = m_done, total = m_total;
    QString line = m_label;
    if (total > 0)
        line += QStringLiteral("  %1%").arg(done * 100 / total, 3);
    line += QStringLiteral("  %1").arg(formatBytes(done));
    if (total > 0)
        line += QStringLiteral(" of %1").arg(formatBytes(total));
    const double rate = bytesPerSecond();
    if (rate > 0) {
        line += QStringLiteral("  %1 MB/s").arg(rate / 1e6, 0, 'f', 1);
        if (total > done)
            line += QStringLiteral("  ") + timeLeft(double(total - done) / rate);
    }
    // \r and erase-to-end: the line rewrites itself whatever the length of the last one.
    std::fprintf(stderr, "\r%s\033[K", line.toLocal8Bit().constData());
    std::fflush(stderr);
    m_shown = true;
}

void TerminalProgress::clear()
{
    m_held.stop();
    if (!m_shown)
        return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    m_shown = false;
}

double TerminalProgress::bytesPerSecond() const
{
    if (m_samples.size() < 2)
        return 0;
    const auto& [fromMs, fromBytes] = m_samples.front();
    const auto& [toMs, toBytes] = m_samples.back();
    return toMs > fromMs ? double(toBytes - fromBytes) * 1000.0 / double(toMs - fromMs) : 0;
}

} // namespace upin::app::cli
