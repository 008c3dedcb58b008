#pragma once
// One of the Probe tab's charts, drawn from the spec the HTML report draws too (probe_charts.h): grouped bars per
// category, or lines with a dot at each point on linear or log axes. A second spec's series may share the x axis
// with a value axis of their own on the right (throughput and p95 against clients in one chart).

#include "probe/probe_charts.h"

#include <QChartView>

namespace upin::ui {

class ProbeChart final : public QChartView {
    Q_OBJECT
public:
    explicit ProbeChart(QWidget* parent = nullptr);
    // empty: said after the title of a chart without data ("none yet" while a probe runs, "not run" after it).
    void show(const app::ChartSpec& spec, const app::ChartSpec* right = nullptr, const QString& empty = {});
    int pointCount() const; // every drawn point or bar with a value above 0, for tests and "(no data)"

private:
    void addLines(const app::ChartSpec& spec, QAbstractAxis* x, bool rightAxis);
    void addBars(const app::ChartSpec& spec);
};

} // namespace upin::ui
