#include "charts/bar_chart.h"
#include "status_colors.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

namespace upin::ui {

BarChart::BarChart(const QString& title, const QString& unit, QWidget* parent)
    : QChartView(parent), m_series(new QBarSeries), m_set(new QBarSet(unit)), m_whiskers(new QBoxPlotSeries),
      m_whiskerLegend(new QLineSeries), m_categories(new QBarCategoryAxis), m_axis(new QValueAxis),
      m_reference(new QLineSeries), m_referenceX(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    m_series->append(m_set);
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    m_series->setLabelsPrecision(4);
    m_whiskers->setBoxWidth(0.15);
    m_whiskers->setPen(QPen(Qt::black, 1.5));
    m_whiskers->setBrush(Qt::NoBrush);
    // The box plot's own legend marker is a filled box; a line in the whiskers' pen is what the chart shows.
    m_whiskerLegend->setName(tr("min-max"));
    m_whiskerLegend->setPen(m_whiskers->pen());
    chart->addSeries(m_series);
    chart->addSeries(m_whiskers);
    chart->addSeries(m_whiskerLegend);
    // Labels whole: a long target cut to "…/with/mo..." lost its second line, a failure's reason, with it. The
    // labels are short already (distinctLabels); one that is still long overlaps rather than hides a failure.
    m_categories->setTruncateLabels(false);
    chart->addAxis(m_categories, Qt::AlignBottom);
    chart->addAxis(m_axis, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(m_series), static_cast<QAbstractSeries*>(m_whiskers),
                               static_cast<QAbstractSeries*>(m_whiskerLegend)}) {
        s->attachAxis(m_categories);
        s->attachAxis(m_axis);
    }
    // The reference line on an x axis of its own, hidden, lined up with the categories' positions.
    chart->addSeries(m_reference);
    chart->addAxis(m_referenceX, Qt::AlignTop);
    m_referenceX->setVisible(false);
    m_reference->attachAxis(m_referenceX);
    m_reference->attachAxis(m_axis);
    m_reference->setPen(QPen(status::failure(), 2, Qt::DashLine));
    m_reference->setVisible(false);
    connect(m_series, &QBarSeries::hovered, this, [this](bool on, int index) {
        if (on && index >= 0 && index < m_tips.size())
            QToolTip::showText(QCursor::pos(), m_tips[index], this);
        else
            QToolTip::hideText();
    });
    m_axis->setTitleText(unit);
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(240);
    setBars({});
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
        if (showWhiskers) { // a flat box at the median with whiskers from min to max
            auto* box = new QBoxSet(bar.min, bar.value, bar.value, bar.value, bar.max, bar.category);
            // Boxes line up with the categories by position: an invisible one keeps its place. Qt Charts reads
            // Qt::NoPen on a box as "use the series' pen", so the pen is a transparent one.
            if (!bar.measured)
                box->setPen(QPen(Qt::transparent));
            m_whiskers->append(box);
        }
    }
    m_whiskers->setVisible(showWhiskers);
    for (auto* marker : chart()->legend()->markers(m_whiskers)) // one per box, created as boxes are added
        marker->setVisible(false);
    for (auto* marker : chart()->legend()->markers(m_whiskerLegend)) {
        marker->setShape(QLegend::MarkerShapeFromSeries); // a line, as the whiskers are drawn
        marker->setVisible(showWhiskers);
    }
    // Value labels sit at the top of a bar, where the whiskers' median line is drawn: with whiskers, at its base.
    m_series->setLabelsPosition(showWhiskers ? QAbstractBarSeries::LabelsInsideBase
                                             : QAbstractBarSeries::LabelsInsideEnd);
    m_categories->setCategories(categories);
    m_top = top;
    setNiceRange(m_axis, top * 1.05); // room above the tallest bar or whisker
    m_referenceX->setRange(-0.5, std::max<double>(0.5, double(bars.size()) - 0.5));
}

void BarChart::setReferenceLine(double value, const QString& name)
{
    const double right = std::max<double>(0.5, double(m_categories->count()) - 0.5);
    m_reference->replace({{-0.5, value}, {right, value}});
    m_reference->setName(name);
    m_reference->setVisible(value > 0);
    for (auto* marker : chart()->legend()->markers(m_reference))
        marker->setShape(QLegend::MarkerShapeFromSeries);
    setNiceRange(m_axis, std::max(m_top, value) * 1.05);
}

} // namespace upin::ui
