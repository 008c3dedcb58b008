#include "charts/throughput_chart.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace upin::ui {

namespace {
// A rate point at most every 100 ms (samples come about that often: closer ones turn scheduling jitter into
// spikes), each the average over the half second before it (a moving window: a per-step rate jumps about with
// socket buffers), or over the run so far in its first half second.
constexpr double kRateStepSeconds = 0.1;
constexpr double kRateWindowSeconds = 0.5;

// The cumulative curve's value at time t, between its points (t within it).
double valueAt(const QList<QPointF>& cumulative, double t)
{
    for (qsizetype i = 1; i < cumulative.size(); ++i)
        if (cumulative[i].x() >= t) {
            const QPointF a = cumulative[i - 1], b = cumulative[i];
            return b.x() > a.x() ? a.y() + (b.y() - a.y()) * (t - a.x()) / (b.x() - a.x()) : b.y();
        }
    return cumulative.isEmpty() ? 0 : cumulative.last().y();
}

// When the cumulative curve first reached y (y within it).
double timeToReach(const QList<QPointF>& cumulative, double y)
{
    for (qsizetype i = 1; i < cumulative.size(); ++i)
        if (cumulative[i].y() >= y) {
            const QPointF a = cumulative[i - 1], b = cumulative[i];
            return b.y() > a.y() ? a.x() + (b.x() - a.x()) * (y - a.y()) / (b.y() - a.y()) : a.x();
        }
    return cumulative.isEmpty() ? 0 : cumulative.last().x();
}

// How far to move the received curve right so that no byte shows as received before it was sent. The two clocks
// start at different moments: the sender's when the run starts (before it connects and writes the head), the
// listener's once it has read the head. This is the least shift that makes them agree; the true one is no less.
double receivedLag(const QList<QPointF>& sent, const QList<QPointF>& received)
{
    double lag = 0;
    for (const QPointF& r : received) {
        if (sent.size() < 2)
            break;
        // Bytes past the sent line's last point (it takes a point per 100 ms) went after that point's moment: a
        // received point there before it read as more received than sent.
        lag = std::max(lag, r.y() <= sent.last().y() ? timeToReach(sent, r.y()) - r.x()
                                                     : sent.last().x() + 0.001 - r.x()); // a millisecond after
    }
    return lag;
}

QList<QPointF> ratePoints(const QList<QPointF>& cumulative)
{
    QList<QPointF> rates;
    if (cumulative.isEmpty())
        return rates;
    const double start = cumulative.first().x();
    double lastStep = start;
    for (const QPointF& p : cumulative)
        if (p.x() - lastStep >= kRateStepSeconds - 1e-9) { // 0.3 - 0.2 is a hair under 0.1 in floating point
            const double from = std::max(start, p.x() - kRateWindowSeconds);
            rates.append({p.x(), (p.y() - valueAt(cumulative, from)) / (p.x() - from)});
            lastStep = p.x();
        }
    // The last stretch, shorter than a step, still ends the line where the run ends (a run of 0.19 s had one rate
    // point, and one point draws no line).
    const QPointF end = cumulative.last();
    if (!rates.isEmpty() && end.x() > lastStep + 1e-9) {
        const double from = std::max(start, end.x() - kRateWindowSeconds);
        rates.append({end.x(), (end.y() - valueAt(cumulative, from)) / (end.x() - from)});
    }
    // A run shorter than a step: its average rate over the time its bytes took, drawn flat across that. Up to the
    // run's end, the wait for the answer counted too: a 9 ms run whose 300 kB went in 2 ms read 33 MB/s sent
    // against 100 MB/s received. Bytes all handed over within the first millisecond took no time to measure: over
    // the run then.
    const double reached = timeToReach(cumulative, cumulative.last().y());
    const double done = reached > start ? reached : cumulative.last().x();
    if (rates.isEmpty() && cumulative.size() >= 2 && done > start) {
        const double rate = (cumulative.last().y() - cumulative.first().y()) / (done - start);
        rates = {{start, rate}, {done, rate}};
    }
    return rates;
}
} // namespace

ThroughputChart::ThroughputChart(QWidget* parent)
    : QChartView(parent), m_sent(new QLineSeries), m_received(new QLineSeries), m_sentRate(new QLineSeries),
      m_receivedRate(new QLineSeries), m_x(new QValueAxis), m_y(new QValueAxis), m_rateAxis(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    for (auto* s : {m_sent, m_received, m_sentRate, m_receivedRate})
        chart->addSeries(s);
    // Each rate in its total's colour, dashed.
    for (auto [total, rate] : {std::pair{m_sent, m_sentRate}, std::pair{m_received, m_receivedRate}}) {
        QPen pen(total->color(), 1.5, Qt::DashLine);
        rate->setPen(pen);
    }
    m_x->setTitleText(tr("seconds"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    chart->addAxis(m_rateAxis, Qt::AlignRight);
    for (auto* s : {m_sent, m_received}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    for (auto* s : {m_sentRate, m_receivedRate}) {
        s->attachAxis(m_x);
        s->attachAxis(m_rateAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // solid and dashed lines, as drawn
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(200);
    rescale(); // empty: no labels until there is data; the names and titles in MB
}

QList<QPointF> ThroughputChart::points(const QList<app::ThroughputSample>& samples)
{
    QList<QPointF> points{{0, 0}};
    for (const auto& s : samples)
        points.append({double(s.msSinceStart) / 1000.0, double(s.bytes) / 1e6});
    return points;
}

void ThroughputChart::setSent(const QList<app::ThroughputSample>& samples)
{
    m_sentMB = points(samples);
    setReceived(m_receivedSamples); // moved to the new sent curve's time
}

void ThroughputChart::setReceived(const QList<app::ThroughputSample>& samples)
{
    m_receivedSamples = samples;
    QList<QPointF> received = points(samples);
    const double lag = receivedLag(m_sentMB, received);
    // Samples are timed to the millisecond: a smaller lag is rounding. The origin stays where it is.
    if (lag > 1e-6) {
        for (qsizetype i = 1; i < received.size(); ++i)
            received[i].rx() += lag;
        received.insert(1, {lag, 0}); // nothing had arrived until then: the line starts flat
    }
    m_receivedMB = received;
    rescale();
}

namespace {
double maxY(const QList<QPointF>& a, const QList<QPointF>& b)
{
    double most = 0;
    for (const auto* points : {&a, &b})
        for (const QPointF& p : *points)
            most = std::max(most, p.y());
    return most;
}

// kB below 1 MB: a 5 KiB run's axis read 0.000 to 0.005 MB.
double kBFactor(double maxMB)
{
    return maxMB > 0 && maxMB < 1 ? 1000 : 1;
}

QList<QPointF> scaled(QList<QPointF> points, double factor)
{
    for (QPointF& p : points)
        p.ry() *= factor;
    return points;
}
} // namespace

void ThroughputChart::rescale()
{
    const QList<QPointF> sentRate = ratePoints(m_sentMB), receivedRate = ratePoints(m_receivedMB);
    double maxX = 0;
    for (const auto* points : {&m_sentMB, &m_receivedMB})
        for (const QPointF& p : *points)
            maxX = std::max(maxX, p.x());
    const double mostMB = maxY(m_sentMB, m_receivedMB), mostRate = maxY(sentRate, receivedRate);
    const double bytes = kBFactor(mostMB), rate = kBFactor(mostRate);
    const QString unit = bytes > 1 ? QStringLiteral("kB") : QStringLiteral("MB");
    const QString rateUnit = rate > 1 ? QStringLiteral("kB/s") : QStringLiteral("MB/s");
    m_sent->replace(scaled(m_sentMB, bytes));
    m_received->replace(scaled(m_receivedMB, bytes));
    m_sentRate->replace(scaled(sentRate, rate));
    m_receivedRate->replace(scaled(receivedRate, rate));
    m_sent->setName(tr("%1 sent").arg(unit));
    m_received->setName(tr("%1 received").arg(unit));
    // The window the rates average over is said once, in the title: at 1200 px a legend entry each cut it off.
    m_sentRate->setName(tr("%1 sent").arg(rateUnit));
    m_receivedRate->setName(tr("%1 received").arg(rateUnit));
    m_y->setTitleText(tr("%1 (solid)").arg(unit));
    m_rateAxis->setTitleText(tr("%1 (dashed)").arg(rateUnit));
    chart()->setTitle(tr("%1 sent and received over time, and the rate (a 0.5 s moving average)").arg(unit));
    // Bytes at time 0 only (a run answered within its first sample): still a time axis, a millisecond long.
    setNiceRange(m_x, mostMB > 0 ? std::max(maxX, 0.001) : maxX);
    setNiceRange(m_y, mostMB * bytes);
    setNiceRange(m_rateAxis, mostRate * rate);
}

} // namespace upin::ui
