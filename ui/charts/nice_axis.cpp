#include "charts/nice_axis.h"

#include <QValueAxis>

#include <cmath>

namespace upin::ui {

void setNiceRange(QValueAxis* axis, double max, const QString& unit)
{
    if (!(max > 0)) {
        axis->setRange(0, 1);
        axis->setTickCount(2);
        axis->setLabelsVisible(false);
        axis->setTitleVisible(false); // Qt Charts elides a title beside hidden labels to a lone "⋮"
        return;
    }
    axis->setLabelsVisible(true);
    axis->setTitleVisible(true);
    // The smallest round step that covers max in at most 6 intervals.
    const double magnitude = std::pow(10.0, std::floor(std::log10(max / 6)));
    double step = magnitude * 10;
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (max / (factor * magnitude) <= 6) {
            step = factor * magnitude;
            break;
        }
    const int intervals = std::max(1, int(std::ceil(max / step - 1e-9)));
    axis->setRange(0, step * intervals);
    axis->setTickCount(intervals + 1);
    // As many decimals as the step has: 0.25 -> 2, 2.5 -> 1, 100 -> 0.
    int decimals = 0;
    while (decimals < 6 &&
           std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals) + unit);
}

} // namespace upin::ui
