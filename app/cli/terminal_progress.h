#pragma once
// One line of progress on a terminal, as curl's meter: rewritten in place on stderr (what, percent, bytes, the
// rate over the last few seconds, time left), at most ten times a second (an update held back is drawn when its
// tenth of a second is up), and wiped before anything else is printed and when the work ends. Nothing when stderr
// is not a terminal (a pipe, a file, CI) or when the user asks (--silent): it never writes to stdout, so --json and
// --csv output stays clean.

#include <QElapsedTimer>
#include <QString>
#include <QTimer>

#include <deque>
#include <utility>

namespace upin::app::cli {

class TerminalProgress {
public:
    explicit TerminalProgress(bool silent);
    ~TerminalProgress() { clear(); }
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    // label: what is under way ("run 2/5"); total 0: unknown. A new label starts a new rate.
    void update(const QString& label, quint64 done, quint64 total);
    void clear(); // wipes the line, if one is shown

private:
    void draw(); // the line for the latest update
    double bytesPerSecond() const;

    bool m_enabled;
    QElapsedTimer m_clock;
    qint64 m_drawnAtMs = -1;
    bool m_shown = false;
    QString m_label;
    quint64 m_done = 0, m_total = 0;                  // the latest update's
    QTimer m_held;                                    // an update held back by the redraw interval
    std::deque<std::pair<qint64, quint64>> m_samples; // (ms, done) over the rate's window
};

} // namespace upin::app::cli
