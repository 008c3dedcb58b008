#include "charts/probe_chart.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace upin::ui {

namespace {

// The smallest and largest value above 0 of x or of y.
std::pair<double, double> span(const app::ChartSpec& spec, bool x)
{
    double low = 0, high = 0;
    for (const app::ChartSeries& s : spec.series)
        for (const QPointF& p : s.points)
            if (const double v = x ? p.x() : p.y(); v > 0) {
                low = low > 0 ? std::min(low, v) : v;
                high = std::max(high, v);
            }
    return {low, high};
}

bool wholeNumbers(const app::ChartSpec& spec)
{
    for (const app::ChartSeries& s : spec.series)
        for (const QPointF& p : s.points)
            if (p.x() != std::floor(p.x()))
                return false;
    return !spec.series.isEmpty() && !spec.series.first().points.isEmpty();
}

// Log axes in base 2 (sizes double, and seconds in base 10 would show one label over a tenfold range), with a
// margin around the data: Qt Charts does not fit a log axis to its series by itself.
QAbstractAxis* valueAxis(bool log, std::pair<double, double> range, const QString& title)
{
    if (log) {
        auto* axis = new QLogValueAxis;
        axis->setBase(2);
        axis->setLabelFormat(QStringLiteral("%.3g"));
        if (range.first > 0)
            axis->setRange(range.first / 1.25, range.second * 1.25);
        axis->setTitleText(title);
        axis->setTruncateLabels(false);
        return axis;
    }
    auto* axis = new QValueAxis;
    setNiceRange(axis, range.second);
    axis->setTitleText(title);
    axis->setTruncateLabels(false); // "0.0125", not "0.01..." on a narrow chart's right axis
    return axis;
}

} // namespace

ProbeChart::ProbeChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    addPngExport(this);
}

void ProbeChart::show(const app::ChartSpec& spec, const app::ChartSpec* right, const QString& empty)
{
    QChart* c = chart(); // the view's own: setChart() would release the old one, not delete it
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes())
        c->removeAxis(axis), delete axis;
    c->setTitle(spec.hasData() ? spec.title
                               : QStringLiteral("%1 (%2)").arg(spec.title, empty.isEmpty() ? tr("none yet") : empty));
    setToolTip(spec.title); // whole, where a narrow window cuts the title (a reason memory was not watched)
    if (!spec.categories.isEmpty()) {
        addBars(spec);
        return;
    }
    QAbstractAxis* x = valueAxis(spec.logX, span(spec, true), spec.xLabel);
    if (auto* counts = qobject_cast<QValueAxis*>(x); counts && wholeNumbers(spec)) { // clients: 1, 2, 4 …
        counts->setLabelFormat(QStringLiteral("%d"));
        counts->setTickType(QValueAxis::TicksDynamic);
        counts->setTickAnchor(0);
        counts->setTickInterval(counts->max() <= 8 ? 1 : 4);
    }
    c->addAxis(x, Qt::AlignBottom);
    addLines(spec, x, false);
    if (right)
        addLines(*right, x, true);
}

void ProbeChart::addLines(const app::ChartSpec& spec, QAbstractAxis* x, bool rightAxis)
{
    QAbstractAxis* y = valueAxis(spec.logY, span(spec, false), spec.yLabel);
    chart()->addAxis(y, rightAxis ? Qt::AlignRight : Qt::AlignLeft);
    for (const app::ChartSeries& s : spec.series) {
        auto* line = new QLineSeries;
        line->setName(s.name);
        QPen pen(QColor(s.color), 2, s.dashed ? Qt::DashLine : Qt::SolidLine);
        line->setPen(pen);
        line->setPointsVisible(s.points.size() <= 40); // a long series (RSS every 20 ms) reads as its line
        QList<QPointF> points; // one replace(), not an append() per point: each append redraws the series
        for (const QPointF& p : s.points)
            if ((!spec.logX || p.x() > 0) && (!spec.logY || p.y() > 0))
                points.append(p);
        line->replace(points);
        chart()->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
}

// Bars across, the categories down the left: ten shape names do not fit under bars in half a window. The first
// category on top, where Qt would put it at the bottom.
void ProbeChart::addBars(const app::ChartSpec& spec)
{
    auto* bars = new QHorizontalBarSeries;
    for (qsizetype i = spec.series.size() - 1; i >= 0; --i) { // the legend's order read from the top, too
        const app::ChartSeries& s = spec.series[i];
        auto* set = new QBarSet(s.name);
        set->setColor(QColor(s.color));
        for (qsizetype c = spec.categories.size() - 1; c >= 0; --c)
            set->append(s.points.value(c).y());
        bars->append(set);
    }
    chart()->addSeries(bars);
    auto* categories = new QBarCategoryAxis;
    QStringList names = spec.categories;
    std::reverse(names.begin(), names.end());
    categories->append(names);
    categories->setTruncateLabels(false);   // "prefix-dense", not "..."
    QFont small = categories->labelsFont(); // eleven names in a chart 180 px high, none hidden
    small.setPointSizeF(small.pointSizeF() * 0.75);
    categories->setLabelsFont(small);
    chart()->addAxis(categories, Qt::AlignLeft);
    QAbstractAxis* x = valueAxis(false, span(spec, false), spec.yLabel);
    x->setTitleVisible(false); // the chart's title says MB/s; the height goes to the names
    chart()->addAxis(x, Qt::AlignBottom);
    bars->attachAxis(categories);
    bars->attachAxis(x);
}

int ProbeChart::pointCount() const
{
    int count = 0;
    for (QAbstractSeries* s : chart()->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(s))
            for (const QPointF& p : line->points())
                count += p.y() > 0 ? 1 : 0;
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(s))
            for (QBarSet* set : bars->barSets())
                for (int i = 0; i < set->count(); ++i)
                    count += set->at(i) > 0 ? 1 : 0;
    }
    return count;
}

} // namespace upin::ui
