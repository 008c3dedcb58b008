#pragma once
// The Send tab's runs of this session, one row each (kept across sends until Clear runs), and the selected run's
// answer in a pane of its own below them: status line, header fields, body (JSON indented), wrapped, in a splitter
// the user sizes.

#include "sender/run_types.h"

#include <QList>
#include <QWidget>

class QPlainTextEdit;
class QTableWidget;

namespace upin::ui {

class RunList final : public QWidget {
    Q_OBJECT
public:
    explicit RunList(QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }
    QPlainTextEdit* answer() const { return m_answer; }
    const QList<app::RunResult>& runs() const { return m_runs; }

    void sendBegins(); // a new send: the runs stay, the selection and its answer go
    // A run's row from its first byte: "sending… 40 %", the seconds and MB/s so far; addRun fills it at its end.
    void runProgress(int run, const QString& target, quint64 sent, quint64 total, double seconds);
    // A finished run's row; the send's first run, and any failure, is selected (its answer is what users look for).
    void addRun(const app::RunResult& run);
    void dropUnfinished(); // a send that ended without finishing its run (cancelled before an answer)
    void clear();

signals:
    void runChosen(int index); // a finished run's row became the current one (its answer shows)

private:
    void showAnswer(int row);
    void showRow(int row);

    QTableWidget* m_table;
    QPlainTextEdit* m_answer;
    QList<app::RunResult> m_runs; // one per row
    int m_sendFirstRow = 0;
    bool m_running = false; // the last row is a run still going (not in m_runs yet)
};

} // namespace upin::ui
