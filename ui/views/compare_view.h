#pragma once
// Compare: every run sent this session, grouped by target (the URL, so /file-part?matcher=kmp and ?matcher=simd
// are two groups) and body size (a 2 KB and a 20 MB run to one URL are two): median MB/s bars with min-max
// whiskers, the statistics table, a warning when the groups' bodies differ, and exports.

#include "charts/bar_chart.h"
#include "sender/run_report.h"
#include "sender/run_types.h"

#include <QImage>
#include <QUrl>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace upin::ui {

// The part of each target that tells it from the others: "/part-event?matcher=kmp" and "…=simd" become
// "matcher=kmp" and "matcher=simd", so chart labels stay short enough to read at 1024 px.
QStringList distinctLabels(const QStringList& targets);

class CompareView final : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    BarChart* chart() const { return m_chart; }
    QTableWidget* table() const { return m_table; }
    QLabel* bodiesDiffer() const { return m_bodiesDiffer; } // shown when the groups sent bodies of different sizes
    const QList<app::RunResult>& runs() const { return m_runs; }
    // The exports, to a path (the buttons ask for one first). The PNG is the chart drawn at 1600 px, where its
    // labels fit whatever the window's size, with the statistics table under it.
    void exportCsvTo(const QString& path);
    void exportPngTo(const QString& path);
    QImage picture() const; // what exportPngTo writes
    // Its runs leave the comparison (a failed group, a mistaken target).
    void removeTarget(const QUrl& target, const QString& method = QStringLiteral("POST"));

public slots:
    void addRuns(const QList<upin::app::RunResult>& runs);
    void clear();

private:
    void setUpTable();
    QHBoxLayout* makeButtonRow();
    QWidget* makeChartPane();
    void refresh();
    void exportCsv();
    void exportPng();

    void showTableMenu(const QPoint& at);
    void showBodiesDiffer(const QList<app::TargetStats>& stats);

    QList<app::RunResult> m_runs;
    QList<QList<QString>> m_statsRows;   // the table's cells, for the picture
    QList<app::TargetStats> m_rowGroups; // each table row's group
    QList<BarChart::Bar> m_bars;         // what the chart draws, for the picture
    BarChart* m_chart;
    QTableWidget* m_table;
    QLabel* m_bodiesDiffer;
    QList<QPushButton*> m_needRuns; // Export CSV, Export PNG and Clear
};

} // namespace upin::ui
