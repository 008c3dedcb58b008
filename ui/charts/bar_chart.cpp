#include "charts/bar_chart.h"

#include "charts/chart_export.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QLegendMarker>
#include <QValueAxis>

namespace upin::ui {

BarChart::BarChart(const QString& title, const QString& unit, QWidget* parent)
    : QChartView(parent), m_series(new QBarSeries), m_set(new QBarSet(unit)), m_whiskers(new QBoxPlotSeries),
      m_categories(new QBarCategoryAxis), m_axis(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    m_series->append(m_set);
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
    m_whiskers->setName(tr("min-max"));
    m_whiskers->setBoxWidth(0.15);
    chart->addSeries(m_series);
    chart->addSeries(m_whiskers);
    chart->addAxis(m_categories, Qt::AlignBottom);
    chart->addAxis(m_axis, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(m_series), static_cast<QAbstractSeries*>(m_whiskers)}) {
        s->attachAxis(m_categories);
        s->attachAxis(m_axis);
    }
    m_axis->setTitleText(unit);
    m_axis->setLabelFormat(QStringLiteral("%.2f"));
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(240);
}

void BarChart::setBars(const QList<Bar>& bars, bool showWhiskers)
{
    m_set->remove(0, m_set->count());
    m_whiskers->clear();
    QStringList categories;
    double top = 0;
    for (const auto& bar : bars) {
        categories << bar.category;
        *m_set << bar.value;
        top = std::max(top, showWhiskers ? bar.max : bar.value);
        if (showWhiskers) // a flat box at the median with whiskers from min to max
            m_whiskers->append(new QBoxSet(bar.min, bar.value, bar.value, bar.value, bar.max, bar.category));
    }
    m_whiskers->setVisible(showWhiskers);
    for (auto* marker : chart()->legend()->markers(m_whiskers))
        marker->setVisible(showWhiskers);
    m_categories->setCategories(categories);
    m_axis->setRange(0, top > 0 ? top * 1.15 : 1);
}

} // namespace upin::ui
