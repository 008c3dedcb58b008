#pragma once
// A labelled bar chart of one value per category (GB/s per matcher strategy, median seconds per target), with
// optional min-max whiskers drawn on each bar's right edge.

#include <QChartView>

class QBarSeries;
class QBarSet;
class QLineSeries;
class QBarCategoryAxis;
class QValueAxis;

namespace upin::ui {

class BarChart final : public QChartView {
    Q_OBJECT
public:
    struct Bar {
        QString category;
        double value = 0;
        double min = 0; // whiskers, used when showWhiskers
        double max = 0;
        bool measured = true; // false: no value (every run failed), so no whisker is drawn
    };
    BarChart(const QString& title, const QString& unit, QWidget* parent = nullptr);
    void setBars(const QList<Bar>& bars, bool showWhiskers = false);
    // A dashed horizontal line across the bars (a ceiling to measure them against), named in the legend; a
    // value of 0 hides it. Call after setBars: it spans the bars there are.
    void setReferenceLine(double value, const QString& name);
    QLineSeries* referenceLine() const { return m_reference; }
    // What each bar means, shown when the mouse is over it (by category).
    void setBarToolTips(const QStringList& tips) { m_tips = tips; }
    QBarSet* values() const { return m_set; }
    const QList<QLineSeries*>& whiskers() const { return m_whiskers; } // one a bar, none without whiskers
    QBarCategoryAxis* categories() const { return m_categories; }

private:
    static constexpr double kBarWidth = 0.5; // of a category's width
    static QPen whiskerPen();
    void addWhisker(double position, const Bar& bar);

    QBarSeries* m_series;
    QBarSet* m_set;
    QList<QLineSeries*> m_whiskers;
    QLineSeries* m_whiskerLegend; // no points: only its legend entry, drawn like the whiskers
    QBarCategoryAxis* m_categories;
    QValueAxis* m_axis;
    QLineSeries* m_reference;
    QValueAxis* m_referenceX; // the bars' positions: category i spans i - 0.5 to i + 0.5
    QStringList m_tips;
    double m_top = 0; // the tallest bar or whisker
};

} // namespace upin::ui
