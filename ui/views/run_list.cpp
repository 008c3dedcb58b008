#include "views/run_list.h"

#include "common/byte_size.h"
#include "status_colors.h"
#include "views/answer_text.h"

#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace upin::ui {

namespace {
constexpr int kRowsInView = 5; // the splitter never squeezes the list below this many rows

// How a run went, at a glance: refused, failed or a part that differed in red, cancelled in grey.
QColor runColour(const app::RunResult& r)
{
    const bool differed = std::any_of(r.parts.begin(), r.parts.end(), [](const app::PartCheck& p) {
        return p.state == app::PartCheck::State::Mismatch;
    });
    if (r.cancelled)
        return status::muted();
    return !r.accepted() || differed ? status::failure() : QColor();
}
} // namespace

RunList::RunList(QWidget* parent) : QWidget(parent), m_table(new QTableWidget(0, 6)), m_answer(new QPlainTextEdit)
{
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Target"), tr("Status"), tr("Time"), tr("MB/s"), tr("Parts")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->setMinimumWidth(420);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() +
                              kRowsInView * m_table->verticalHeader()->defaultSectionSize());
    m_answer->setReadOnly(true);
    m_answer->setPlaceholderText(tr("Select a run to see the server's answer: status line, headers and body"));
    m_answer->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a long error line reads whole
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        showAnswer(row);
        if (row >= 0 && row < m_runs.size())
            emit runChosen(row);
    });
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("sendRunsSplitter")); // its sizes are remembered
    split->addWidget(m_table);
    split->addWidget(m_answer);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2); // the answer has the room: it is what users read
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void RunList::sendBegins()
{
    m_sendFirstRow = m_table->rowCount();
    m_table->setCurrentCell(-1, -1);
    m_answer->clear();
}

void RunList::runProgress(int run, const QString& target, quint64 sent, quint64 total, double seconds)
{
    const bool starts = !m_running;
    if (starts) {
        m_table->insertRow(m_table->rowCount());
        m_running = true;
    }
    const int row = m_table->rowCount() - 1;
    const QStringList cells{QString::number(run + 1), // through the session: the window numbers them so
                            target,
                            total > 0 ? tr("sending… %1 %").arg(sent * 100 / total) : tr("sending…"),
                            app::formatSeconds(seconds),
                            seconds > 0 ? QString::number(double(sent) / 1e6 / seconds, 'f', 1) : QStringLiteral("—"),
                            QString()};
    for (int c = 0; c < cells.size(); ++c) {
        if (!m_table->item(row, c))
            m_table->setItem(row, c, new QTableWidgetItem);
        m_table->item(row, c)->setText(cells[c]);
    }
    if (starts)
        showRow(row); // the run under way is the one to watch
}

void RunList::dropUnfinished()
{
    if (m_running)
        m_table->removeRow(m_table->rowCount() - 1);
    m_running = false;
}

void RunList::clear()
{
    m_running = false;
    m_table->setRowCount(0);
    m_runs.clear();
    m_answer->clear();
    m_sendFirstRow = 0;
}

void RunList::addRun(const app::RunResult& r)
{
    if (!m_running) // a run that ended before its first progress report
        m_table->insertRow(m_table->rowCount());
    m_running = false;
    const int row = m_table->rowCount() - 1;
    // No listener report to check against: no answer, or an answer that is not a success (an early 404).
    const bool answered = r.httpStatus >= 200 && r.httpStatus < 300;
    QString checks = answered ? QString() : QStringLiteral("—");
    for (const auto& p : answered ? r.parts : QList<app::PartCheck>{})
        checks += p.state == app::PartCheck::State::Match      ? QStringLiteral("✓")
                  : p.state == app::PartCheck::State::Mismatch ? QStringLiteral("✗")
                                                               : QStringLiteral("?");
    // "404 Not Found" as the server said it; MB/s only for a body that was sent whole.
    const QString status = !r.error.isEmpty() ? r.error
                           : r.statusLine.isEmpty()
                               ? QString::number(r.httpStatus)
                               : QString::fromUtf8(r.statusLine.mid(r.statusLine.indexOf(' ') + 1));
    const QString shownStatus = r.answeredEarly ? tr("%1 (early)").arg(status) : status;
    const QStringList cells{QString::number(r.run + 1),
                            r.method == QLatin1String("POST") ? r.target.toString()
                                                              : r.method + QLatin1Char(' ') + r.target.toString(),
                            r.insecure ? QStringLiteral("⚠ ") + shownStatus : shownStatus,
                            app::formatSeconds(r.totalSeconds),
                            r.mbPerSecond() > 0 ? QString::number(r.mbPerSecond(), 'f', 1) : QStringLiteral("—"),
                            checks};
    const QColor colour = runColour(r);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (colour.isValid())
            item->setForeground(colour);
        m_table->setItem(row, c, item);
    }
    m_table->item(row, 5)->setToolTip(
        r.integrityOk() ? tr("every part's SHA-256 matched what the listener received")
                        : tr("✓ matched, ✗ differed, ? not checked (answer was not the listener's JSON)"));
    QStringList statusTips;
    if (!r.protocol.isEmpty())
        statusTips << (r.tls.isEmpty() ? r.protocol : tr("%1 over %2").arg(r.protocol, r.tls));
    if (r.insecure)
        statusTips << tr("The server's certificate was NOT checked (Don't check https certificates)");
    if (r.answeredEarly)
        statusTips
            << tr("The server answered after %1 of %2 bytes; sending stopped there").arg(r.bytesSent).arg(r.bodyBytes);
    m_table->item(row, 2)->setToolTip(statusTips.join(QLatin1Char('\n')));
    m_runs.append(r);
    if (row == m_sendFirstRow || r.httpStatus >= 300 || !r.error.isEmpty())
        m_table->setCurrentCell(row, 2);
    showRow(row); // the newest run, in sight
}

void RunList::showRow(int row)
{
    m_table->doItemsLayout(); // the scroll range counts the new row now, not at the next layout
    m_table->scrollToItem(m_table->item(row, 0));
}

void RunList::showAnswer(int row)
{
    if (row < 0 || row >= m_runs.size()) {
        m_answer->clear();
        return;
    }
    const app::RunResult& r = m_runs[row];
    if (r.statusLine.isEmpty()) {
        m_answer->setPlainText(r.error.isEmpty() ? tr("No answer.") : tr("No answer: %1").arg(r.error));
        return;
    }
    // How it came: the status line says the HTTP version, not the TLS one.
    const QString over = r.tls.isEmpty()
                             ? QString()
                             : tr("over %1%2").arg(r.tls, r.insecure ? tr(", certificate NOT checked") : QString());
    m_answer->setPlainText(answerText(r.statusLine, over, r.responseHeaders, r.response));
}

} // namespace upin::ui
