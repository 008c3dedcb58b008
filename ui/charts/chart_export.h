#pragma once
#include <QChartView>

namespace upin::ui {
// Adds "Save chart as PNG…" to a chart view's context menu (right-click). One helper for every chart.
void addPngExport(QChartView* view);
} // namespace upin::ui
