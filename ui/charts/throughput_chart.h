#pragma once
// Bytes over time for one run: the sender's bytes-sent curve and the listener's bytes-received curve (MB, or kB
// below 1 MB, left axis), and beside each its rate (MB/s or kB/s, right axis, dashed), so a stall or a slow phase
// shows as a dip.

#include "capture/capture_summary.h"

#include <QChartView>
#include <QPointF>

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
    QLineSeries* sentRateSeries() const { return m_sentRate; }
    QLineSeries* receivedRateSeries() const { return m_receivedRate; }

private:
    static QList<QPointF> points(const QList<app::ThroughputSample>& samples);
    void rescale();

    QList<app::ThroughputSample> m_receivedSamples; // as the listener timed them: shown moved to the sent curve
    QList<QPointF> m_sentMB;                        // seconds and MB: shown in kB below 1 MB
    QList<QPointF> m_receivedMB;
    QLineSeries* m_sent;
    QLineSeries* m_received;
    QLineSeries* m_sentRate;
    QLineSeries* m_receivedRate;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_rateAxis;
};

} // namespace upin::ui
