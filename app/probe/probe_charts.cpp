#include "probe/probe_charts.h"

#include <algorithm>
#include <array>

namespace upin::app {

QString shapeLabel(const ShapeRow& row)
{
    return row.seconds > 0       ? row.shape
           : row.error.isEmpty() ? QStringLiteral("%1 (not run)").arg(row.shape)
                                 : QStringLiteral("%1 (failed)").arg(row.shape);
}

QString scalingLabel(const ScalingRow& row)
{
    if (row.sizes.size() < 2)
        return QStringLiteral("%1, not run").arg(row.shape);
    // Too few sizes, or too fast, to fit: its k is noise, not shown (the legend is narrow: "(not judged)" after a
    // k was cut at 1280 px).
    return row.judgeable() ? QStringLiteral("%1, k = %2").arg(row.shape).arg(row.exponent, 0, 'f', 2)
                           : QStringLiteral("%1, k not judged").arg(row.shape);
}

namespace {

const QString kServer = QStringLiteral("#1f77b4");
const QString kWire = QStringLiteral("#aaaaaa");
const QString kSecond = QStringLiteral("#d62728");
constexpr double kMiB = 1024.0 * 1024.0;
constexpr qsizetype kMemoryPoints = 600; // at most, in the RSS chart

ChartSpec shapeRates(const ProbeReport& report)
{
    ChartSpec spec{QStringLiteral("MB/s per body shape"),
                   QStringLiteral("body shape"),
                   QStringLiteral("MB/s"),
                   false,
                   false,
                   {},
                   {}};
    ChartSeries server{QStringLiteral("server"), kServer, {}, false};
    ChartSeries wire{QStringLiteral("baseline"), kWire, {}, false};
    for (const ShapeRow& row : report.shapes) {
        const double c = double(spec.categories.size());
        spec.categories << shapeLabel(row); // a shape with no time is not drawn as 0 MB/s without a word
        server.points << QPointF(c, row.mbPerSecond());
        wire.points << QPointF(c, row.baselineSeconds > 0 ? double(row.bytes) / 1e6 / row.baselineSeconds : 0);
    }
    spec.series = {server, wire};
    return spec;
}

ChartSpec scaling(const ProbeReport& report)
{
    ChartSpec spec{QStringLiteral("Seconds against size (log-log)"),
                   QStringLiteral("MiB"),
                   QStringLiteral("seconds"),
                   true,
                   true,
                   {},
                   {}};
    const QStringList colors{kServer, kSecond, QStringLiteral("#2ca02c")};
    for (const ScalingRow& row : report.scaling) {
        ChartSeries s{scalingLabel(row), colors.value(spec.series.size(), kServer), {}, false};
        for (qsizetype i = 0; i < std::min(row.sizes.size(), row.seconds.size()); ++i)
            s.points << QPointF(double(row.sizes[i]) / kMiB, row.seconds[i]);
        spec.series << s;
    }
    return spec;
}

// One figure of each parallel round against its number of clients.
ChartSeries perClients(const ProbeReport& report, ChartSeries series, double ConcurrencyRow::*figure)
{
    for (const ConcurrencyRow& row : report.concurrency)
        series.points << QPointF(row.clients, row.*figure);
    return series;
}

ChartSpec clientsRate(const ProbeReport& report)
{
    return {QStringLiteral("Parallel uploads: MB/s in all, p95"),
            QStringLiteral("clients"),
            QStringLiteral("MB/s"),
            false,
            false,
            {},
            {perClients(report, {QStringLiteral("server"), kServer, {}, false}, &ConcurrencyRow::mbPerSecond),
             perClients(report, {QStringLiteral("baseline"), kWire, {}, true}, &ConcurrencyRow::baselineMBps)}};
}

ChartSpec clientsLatency(const ProbeReport& report)
{
    return {QStringLiteral("Seconds per upload against parallel uploads"),
            QStringLiteral("clients"),
            QStringLiteral("seconds"),
            false,
            false,
            {},
            {perClients(report, {QStringLiteral("p95"), kSecond, {}, false}, &ConcurrencyRow::p95),
             perClients(report, {QStringLiteral("p50"), QStringLiteral("#ff7f0e"), {}, true}, &ConcurrencyRow::p50)}};
}

ChartSpec memory(const ProbeReport& report)
{
    ChartSpec spec{report.pid > 0             ? QStringLiteral("RSS of %1").arg(report.watched())
                   : report.pidNote.isEmpty() ? QStringLiteral("RSS of the server")
                                              : QStringLiteral("RSS (not watched: %1)").arg(report.pidNote),
                   QStringLiteral("seconds since the probe began"),
                   QStringLiteral("MiB"),
                   false,
                   false,
                   {},
                   {}};
    ChartSeries rss{report.pid > 0 ? QStringLiteral("RSS of process %1").arg(report.pid) : QStringLiteral("RSS"),
                    kServer,
                    {},
                    false};
    // A sample every 20 ms is thousands in a long probe, more than a chart's width shows and slow to draw: each
    // stretch of samples keeps its lowest and its highest, in their order, so that no peak is lost.
    const qsizetype stretch = std::max<qsizetype>(1, (report.rss.size() + kMemoryPoints / 2 - 1) / (kMemoryPoints / 2));
    for (qsizetype from = 0; from < report.rss.size(); from += stretch) {
        const auto begin = report.rss.cbegin() + from;
        const auto end = report.rss.cbegin() + std::min(report.rss.size(), from + stretch);
        const auto [low, high] =
            std::minmax_element(begin, end, [](const MemorySample& a, const MemorySample& b) { return a.rss < b.rss; });
        for (const auto& s : low < high ? std::array{low, high} : std::array{high, low})
            if (rss.points.isEmpty() || rss.points.last().x() != s->seconds)
                rss.points << QPointF(s->seconds, double(s->rss) / kMiB);
    }
    spec.series = {rss};
    return spec;
}

} // namespace

bool ChartSpec::hasData() const
{
    return std::any_of(series.cbegin(), series.cend(), [](const ChartSeries& s) {
        return std::any_of(s.points.cbegin(), s.points.cend(), [](const QPointF& p) { return p.y() > 0; });
    });
}

QList<ChartSpec> probeCharts(const ProbeReport& report)
{
    return {shapeRates(report), scaling(report), clientsRate(report), clientsLatency(report), memory(report)};
}

} // namespace upin::app
