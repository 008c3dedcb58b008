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

private:
    QValueAxis* m_time;
    QCategoryAxis* m_parts;
};

} // namespace upin::ui
