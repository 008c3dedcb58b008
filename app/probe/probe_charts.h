#pragma once
// What the probe's charts show, as values: the HTML report draws them as SVG (probe_svg.h) and the Probe tab with
// Qt Charts, from the same specs, so the page a user attaches to a bug report shows what the window showed.

#include "probe/probe_report.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace upin::app {

struct ChartSeries {
    QString name;
    QString color;         // #rrggbb
    QList<QPointF> points; // bars: points[c].y() is category c's value
    bool dashed = false;
    bool operator==(const ChartSeries&) const = default;
};

struct ChartSpec {
    QString title;
    QString xLabel;
    QString yLabel;
    bool logX = false;
    bool logY = false;
    QStringList categories; // not empty: grouped bars, one group per category
    QList<ChartSeries> series;
    bool hasData() const;
    bool operator==(const ChartSpec&) const = default; // the window redraws a chart only when its spec changed
};

// MB/s per shape beside the baseline's; seconds against size (log-log, with each curve's k); throughput and p95
// against clients; the watched process's RSS over time. A chart without data is still listed (hasData() false).
QList<ChartSpec> probeCharts(const ProbeReport& report);
// A shape's name as the charts and tables show it: "near-miss (not run)" when the budgets left it out, "(failed)"
// when it had no time; a scaling row's "plain, k = 1.02", "not run", or "plain, k not judged". Never a bare 0.
QString shapeLabel(const ShapeRow& row);
QString scalingLabel(const ScalingRow& row);

} // namespace upin::app
