#include "charts/throughput_chart.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

namespace upin::ui {

ThroughputChart::ThroughputChart(QWidget* parent)
    : QChartView(parent), m_sent(new QLineSeries), m_received(new QLineSeries), m_x(new QValueAxis), m_y(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    m_sent->setName(tr("sent (sender)"));
    m_received->setName(tr("received (listener)"));
    chart->addSeries(m_sent);
    chart->addSeries(m_received);
    m_x->setTitleText(tr("seconds"));
    m_y->setTitleText(tr("MB"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    for (auto* s : {m_sent, m_received}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    chart->setTitle(tr("MB sent and received over time")); // cumulative: the slope is the rate
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(200);
    rescale(); // empty: no labels until there is data
}

void ThroughputChart::fill(QLineSeries* series, const QList<app::ThroughputSample>& samples)
{
    QList<QPointF> points{{0, 0}};
    for (const auto& s : samples)
        points.append({double(s.msSinceStart) / 1000.0, double(s.bytes) / 1e6});
    series->replace(points);
    rescale();
}

void ThroughputChart::setSent(const QList<app::ThroughputSample>& samples)
{
    fill(m_sent, samples);
}
void ThroughputChart::setReceived(const QList<app::ThroughputSample>& samples)
{
    fill(m_received, samples);
}

void ThroughputChart::rescale()
{
    double maxX = 0, maxY = 0;
    for (auto* s : {m_sent, m_received})
        for (const auto& p : s->points()) {
            maxX = std::max(maxX, p.x());
            maxY = std::max(maxY, p.y());
        }
    setNiceRange(m_x, maxX);
    setNiceRange(m_y, maxY);
}

} // namespace upin::ui
