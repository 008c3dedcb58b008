#include "probe/probe_charts.h"

#include <algorithm>

namespace upin::app {

namespace {

const QString kServer = QStringLiteral("#1f77b4");
const QString kWire = QStringLiteral("#aaaaaa");
const QString kSecond = QStringLiteral("#d62728");
constexpr double kMiB = 1024.0 * 1024.0;

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
        spec.categories << row.shape;
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
        ChartSeries s{QStringLiteral("%1, k = %2").arg(row.shape).arg(row.exponent, 0, 'f', 2),
                      colors.value(spec.series.size(), kServer),
                      {},
                      false};
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
    return {QStringLiteral("MB/s in all, and p95, against parallel uploads"),
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
    ChartSpec spec{report.pid > 0             ? QStringLiteral("RSS of process %1 during the uploads").arg(report.pid)
                   : report.pidNote.isEmpty() ? QStringLiteral("RSS of the server during the uploads")
                                              : QStringLiteral("RSS (not watched: %1)").arg(report.pidNote),
                   QStringLiteral("seconds since the probe began"),
                   QStringLiteral("MiB"),
                   false,
                   false,
                   {},
                   {}};
    ChartSeries rss{QStringLiteral("RSS"), kServer, {}, false};
    for (const MemorySample& s : report.rss)
        rss.points << QPointF(s.seconds, double(s.rss) / kMiB);
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
