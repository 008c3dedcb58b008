#pragma once
// Matcher bench: the parser timed with each matcher strategy beside the memchr ceiling, on a generated body
// or a stored one: the before and after of the Spring fix, as a chart.

#include "bench/bench_types.h"
#include "inspect/inspect_types.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace upin::ui {

class BarChart;

class BenchView final : public QWidget {
    Q_OBJECT
public:
    static QString strategyToolTip(const QString& strategy); // what each matcher does, for its bar
    explicit BenchView(QWidget* parent = nullptr);
    BarChart* chart() const { return m_chart; }
    // Offered as a source, and chosen (the user picked it with Body file…).
    void setStoredBody(const QString& path, const QString& contentType);
    // What Inspect opened is offered too, when it is a body that parsed (a boundary and parts), without
    // changing the chosen source: a file with no boundary would only fail to time.
    void offerInspected(const app::InspectResult& result);
    QComboBox* source() const { return m_source; }

public slots:
    void showResult(const upin::app::BenchResult& result);

signals:
    void runRequested(const upin::app::BenchRequest& request);

private:
    QComboBox* m_source;
    QSpinBox* m_sizeMiB;
    QSpinBox* m_runs;
    QPushButton* m_run;
    QLabel* m_summary;
    BarChart* m_chart;
    QString m_storedPath;
    QString m_storedType;
};

} // namespace upin::ui
