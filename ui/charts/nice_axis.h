#pragma once
// Value axes with round ticks (0, 0.25, 0.5 ... or 0, 100, 200 ...) from zero to a little above the data, labels
// with just the decimals the step needs, and no invented labels on an empty chart. Every chart uses it.

#include <QString>

class QValueAxis;

namespace upin::ui {

// Sets the axis to [0, top] with 3-7 ticks at a step of 1, 2, 2.5 or 5 times a power of ten, top >= max.
// max <= 0 (no data): labels hidden, so the chart does not show 0 0 0 1 1. unit follows each label (" ms").
void setNiceRange(QValueAxis* axis, double max, const QString& unit = {});

} // namespace upin::ui
