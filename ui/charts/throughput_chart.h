#pragma once
// Bytes over time for one run: the sender's bytes-sent curve and the listener's bytes-received curve.

#include "listener/listener_types.h"

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace upin::ui {

class ThroughputChart final : public QChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    void setSent(const QList<app::ThroughputSample>& samples);
    void setReceived(const QList<app::ThroughputSample>& samples);
    QLineSeries* sentSeries() const { return m_sent; }
    QLineSeries* receivedSeries() const { return m_received; }

private:
    void fill(QLineSeries* series, const QList<app::ThroughputSample>& samples);
    void rescale();

    QLineSeries* m_sent;
    QLineSeries* m_received;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

} // namespace upin::ui
