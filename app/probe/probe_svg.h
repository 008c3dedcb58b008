#pragma once
// Charts as inline SVG, for the probe's HTML report: a page a user attaches to a bug report must open anywhere,
// offline, with nothing beside it, so it carries its charts as markup rather than as scripts or linked images.
// Qt Charts draws only into a QGraphicsScene (the window's charts; the CLI has no window), hence these lines.

#include "probe/probe_charts.h"

namespace upin::app {

// Grouped bars when the spec has categories, else lines through the points with a dot at each.
QString svgChart(const ChartSpec& spec);

} // namespace upin::app
