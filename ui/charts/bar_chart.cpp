#include "charts/bar_chart.h"
#include "status_colors.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

#include <utility>

namespace upin::ui {

BarChart::BarChart(const QString& title, const QString& unit, QWidget* parent)
    : QChartView(parent), m_series(new QBarSeries), m_set(new QBarSet(unit)), m_whiskerLegend(new QLineSeries),
      m_categories(new QBarCategoryAxis), m_axis(new QValueAxis), m_reference(new QLineSeries),
      m_referenceX(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    m_series->append(m_set);
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    m_series->setLabelsPrecision(4);
    m_series->setBarWidth(kBarWidth);
    // Above the bar, beside a whisker, never under it: inside, a short bar (kmp beside simd) had no room for it.
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    // The whiskers' one legend entry: a series with no points, drawn in their pen.
    m_whiskerLegend->setName(tr("min-max"));
    m_whiskerLegend->setPen(whiskerPen());
    chart->addSeries(m_series);
    chart->addSeries(m_whiskerLegend);
    m_set->setLabelColor(palette().color(QPalette::WindowText)); // after the theme's: its white was white on white
    // Labels whole: a long target cut to "…/with/mo..." lost its second line, a failure's reason, with it. The
    // labels are short already (distinctLabels); one that is still long overlaps rather than hides a failure.
    m_categories->setTruncateLabels(false);
    chart->addAxis(m_categories, Qt::AlignBottom);
    chart->addAxis(m_axis, Qt::AlignLeft);
    for (QAbstractSeries* s :
         {static_cast<QAbstractSeries*>(m_series), static_cast<QAbstractSeries*>(m_whiskerLegend)}) {
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
    for (QLineSeries* whisker : std::exchange(m_whiskers, {})) {
        chart()->removeSeries(whisker);
        delete whisker;
    }
    QStringList categories;
    double top = 0;
    for (qsizetype i = 0; i < bars.size(); ++i) {
        const Bar& bar = bars[i];
        categories << bar.category;
        *m_set << bar.value;
        top = std::max(top, showWhiskers ? bar.max : bar.value);
        if (showWhiskers)
            addWhisker(double(i), bar);
    }
    for (auto* marker : chart()->legend()->markers(m_whiskerLegend)) {
        marker->setShape(QLegend::MarkerShapeFromSeries); // a line, as the whiskers are drawn
        marker->setVisible(showWhiskers);
    }
    m_categories->setCategories(categories);
    m_top = top;
    setNiceRange(m_axis, top * 1.15); // room above the tallest bar or whisker, and its label
    m_referenceX->setRange(-0.5, std::max<double>(0.5, double(bars.size()) - 0.5));
}

QPen BarChart::whiskerPen()
{
    return {Qt::black, 1.5};
}

// From min to max with a cap at each end, on the bar's right edge: through the middle, as a box plot draws it, it
// crossed the bar's value label wherever a slow run put its min under the label (a review found it so).
void BarChart::addWhisker(double position, const Bar& bar)
{
    auto* whisker = new QLineSeries;
    whisker->setPen(whiskerPen());
    m_whiskers.append(whisker); // one per bar, by position: a bar not measured has one with no points
    chart()->addSeries(whisker);
    whisker->attachAxis(m_referenceX);
    whisker->attachAxis(m_axis);
    for (auto* marker : chart()->legend()->markers(whisker))
        marker->setVisible(false); // the one "min-max" entry stands for all
    if (!bar.measured)
        return;
    const double edge = position + kBarWidth / 2;
    const double cap = kBarWidth / 8;
    *whisker << QPointF(edge - cap, bar.min) << QPointF(edge + cap, bar.min) << QPointF(edge, bar.min)
             << QPointF(edge, bar.max) << QPointF(edge - cap, bar.max) << QPointF(edge + cap, bar.max);
}

void BarChart::setReferenceLine(double value, const QString& name)
{
    const double right = std::max<double>(0.5, double(m_categories->count()) - 0.5);
    m_reference->replace({{-0.5, value}, {right, value}});
    m_reference->setName(name);
    m_reference->setVisible(value > 0);
    for (auto* marker : chart()->legend()->markers(m_reference))
        marker->setShape(QLegend::MarkerShapeFromSeries);
    setNiceRange(m_axis, std::max(m_top, value) * 1.15);
}

} // namespace upin::ui
