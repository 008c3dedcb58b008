#pragma once
// Compare: every run sent this session, grouped by target (the URL, so /file-part?matcher=kmp and ?matcher=simd
// are two groups): median MB/s bars with min-max whiskers, the statistics table, and exports.

#include "sender/run_types.h"

#include <QWidget>

class QTableWidget;

namespace upin::ui {

class BarChart;

// The part of each target that tells it from the others: "/part-event?matcher=kmp" and "…=simd" become
// "matcher=kmp" and "matcher=simd", so chart labels stay short enough to read at 1024 px.
QStringList distinctLabels(const QStringList& targets);

class CompareView final : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    BarChart* chart() const { return m_chart; }
    QTableWidget* table() const { return m_table; }
    const QList<app::RunResult>& runs() const { return m_runs; }

public slots:
    void addRuns(const QList<upin::app::RunResult>& runs);
    void clear();

private:
    void refresh();
    void exportCsv();
    void exportPng();

    QList<app::RunResult> m_runs;
    BarChart* m_chart;
    QTableWidget* m_table;
};

} // namespace upin::ui
