#pragma once
// An HTTP/2 upload's flow-control window over time (capture.json's http2.flow.window): the bytes the client could
// still send, in KiB, against ms from the stream's start, as a band from its least to its most over each stretch
// of time, with each stall (the client had none, and waited for our WINDOW_UPDATE) marked where it began. A band
// that reaches down to zero at every mark is an upload held by flow control; one that stays high was not.

#include "capture/h2_record.h"

#include <QChartView>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace upin::ui {

class WindowChart final : public QChartView {
    Q_OBJECT
public:
    explicit WindowChart(QWidget* parent = nullptr);
    void setRecord(const app::Http2Record& record);
    QLineSeries* leastSeries() const { return m_least; }
    QLineSeries* mostSeries() const { return m_most; }
    QScatterSeries* stallSeries() const { return m_stalls; }

private:
    QLineSeries* m_least;
    QLineSeries* m_most;
    QAreaSeries* m_band;
    QScatterSeries* m_stalls;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

} // namespace upin::ui
