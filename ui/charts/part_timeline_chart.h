#pragma once
// When each part of one capture started and ended: one horizontal bar per part over the capture's time.

#include "models/capture_list_model.h"

#include <QChartView>

class QCategoryAxis;
class QValueAxis;

namespace upin::ui {

class PartTimelineChart final : public QChartView {
    Q_OBJECT
public:
    explicit PartTimelineChart(QWidget* parent = nullptr);
    void setCapture(const CaptureListModel::Row& row);
    int barCount() const;
    // The part labels' height in pixels: small enough that every row keeps its label (Qt drops labels that would
    // overlap), down to a size still read.
    int labelPixels() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitLabels();

    QValueAxis* m_time;
    QCategoryAxis* m_parts;
};

} // namespace upin::ui
