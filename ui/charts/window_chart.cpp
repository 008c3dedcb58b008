#include "charts/window_chart.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

namespace upin::ui {

WindowChart::WindowChart(QWidget* parent)
    : QChartView(parent), m_least(new QLineSeries), m_most(new QLineSeries), m_band(new QAreaSeries(m_most, m_least)),
      m_stalls(new QScatterSeries), m_x(new QValueAxis), m_y(new QValueAxis)
{
    QChart* chart = this->chart(); // the view's own: setChart() would release the default one, not delete it
    m_least->setParent(m_band);    // the band draws them and does not own them: deleted with it
    m_most->setParent(m_band);
    m_band->setName(tr("window left, least to most (KiB)"));
    m_band->setColor(QColor(0x64, 0xb5, 0xf6));
    m_band->setBorderColor(QColor(0x1e, 0x88, 0xe5));
    m_stalls->setName(tr("stall"));
    m_stalls->setColor(QColor(0xc6, 0x28, 0x28));
    m_stalls->setBorderColor(QColor(0xc6, 0x28, 0x28));
    m_stalls->setMarkerSize(7);
    chart->addSeries(m_band);
    chart->addSeries(m_stalls);
    m_x->setTitleText(tr("ms from the stream's start"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    for (auto* s : {static_cast<QAbstractSeries*>(m_band), static_cast<QAbstractSeries*>(m_stalls)}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(180);
    setNiceRange(m_x, 0);
    setNiceRange(m_y, 0);
}

void WindowChart::setRecord(const app::Http2Record& record)
{
    QList<QPointF> least, mostPoints, stalls;
    double lastMs = 0, most = 0;
    qint64 largest = 0;
    for (const auto& w : record.window)
        largest = std::max(largest, w.most);
    // KiB, or bytes for a window under 8 KiB (a server's 1,000 bytes read "0.98" in KiB, its labels cut).
    const bool inBytes = largest < qint64{8} * 1024;
    m_band->setName(inBytes ? tr("window left, least to most (bytes)") : tr("window left, least to most (KiB)"));
    auto kib = [inBytes](qint64 bytes) { return double(std::max<qint64>(bytes, 0)) / (inBytes ? 1.0 : 1024.0); };
    for (const auto& w : record.window) {
        least.append({w.ms, kib(w.least)});
        mostPoints.append({w.ms, kib(w.most)});
        lastMs = std::max(lastMs, w.ms);
        most = std::max(most, kib(w.most));
    }
    for (const auto& s : record.stallList) {
        stalls.append({s.atMs, 0});
        lastMs = std::max(lastMs, s.atMs + s.ms);
    }
    m_least->replace(least);
    m_most->replace(mostPoints);
    m_stalls->replace(stalls);
    m_stalls->setName(record.stallList.size() < qsizetype(record.stalls)
                          ? tr("stall (%1 of %2 marked)").arg(record.stallList.size()).arg(record.stalls)
                          : tr("stall"));
    setNiceRange(m_x, lastMs);
    setNiceRange(m_y, most);
}

} // namespace upin::ui
