#pragma once
// When each part of one capture started and ended: one horizontal bar per part over the capture's time.

#include "models/capture_list_model.h"

#include <QChartView>

class QGraphicsSimpleTextItem;
class QValueAxis;

namespace upin::ui {

class PartTimelineChart final : public QChartView {
    Q_OBJECT
public:
    explicit PartTimelineChart(QWidget* parent = nullptr);
    void setCapture(const CaptureListModel::Row& row);
    void clear(); // no capture to draw
    int barCount() const;
    // How many part rows keep their labels at the chart's height; the labels shown, top row first.
    int rowsThatFit() const;
    QStringList rowLabels() const;

private:
    void refitRows();
    void makeLabels(int count);
    void placeLabels();

    CaptureListModel::Row m_row;
    QFont m_labelFont;
    QList<QGraphicsSimpleTextItem*> m_labels; // children of the chart, which deletes them

    QValueAxis* m_time;
    QValueAxis* m_rows;
};

} // namespace upin::ui
