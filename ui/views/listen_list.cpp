// The Listen list's rows: the listener's events and the stored captures as they come, the filter and what it
// says, and the capture the timeline draws.

#include "views/listen_view.h"

#include "charts/part_timeline_chart.h"
#include "models/capture_filter.h"
#include "models/capture_list_model.h"
#include "status_colors.h"
#include "views/elided_label.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace upin::ui {

// The selected capture, or the newest one listed that was not refused (a refused request has no parts to draw;
// one the filter hides, a probe's, is not in the list) when none is selected; -1 for none. A source model row.
int ListenView::timelineRow() const
{
    const QModelIndex current = m_table->currentIndex();
    int listed = current.isValid() ? current.row() : m_filtered->rowCount() - 1;
    while (!current.isValid() && listed >= 0 &&
           m_model->row(sourceRow(m_filtered->index(listed, 0))).state == app::CaptureState::Refused)
        --listed;
    return listed < 0 ? -1 : sourceRow(m_filtered->index(listed, 0));
}

void ListenView::fitRowHeightsSoon()
{
    if (std::exchange(m_rowHeightsQueued, true))
        return;
    QTimer::singleShot(0, this, [this] {
        m_rowHeightsQueued = false;
        fitRowHeights(0, m_filtered->rowCount() - 1);
    });
}

// A State longer than its column goes on to more lines of its row, rather than ending in "…" mid-word beside
// other rows' long endpoints and answers at 1280 px; one that three lines cannot hold ends in "…" there, whole in
// its tooltip. A row at a time: one measure each, as the view's own column fitting does; rows that changed alone
// when a capture's figures move (a capture under way changes its row several times a second).
void ListenView::fitRowHeights(int first, int last)
{
    QHeaderView* rows = m_table->verticalHeader();
    const int one = rows->defaultSectionSize();
    const QFontMetrics metrics(m_table->font());
    const int margin = 2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
    const int room = m_table->horizontalHeader()->sectionSize(CaptureListModel::State) - margin;
    for (int row = std::max(first, 0); row <= std::min(last, m_filtered->rowCount() - 1); ++row) {
        const QString state = m_filtered->index(row, CaptureListModel::State).data().toString();
        const int lines = metrics.horizontalAdvance(state) <= room
                              ? 1
                              : metrics.boundingRect(QRect(0, 0, room, 4096), Qt::TextWordWrap, state).height() /
                                    metrics.lineSpacing();
        const int height = one + (std::clamp(lines, 1, 3) - 1) * metrics.lineSpacing();
        if (rows->sectionSize(row) != height)
            rows->resizeSection(row, height);
    }
}

void ListenView::applyEvents(const QList<app::CaptureEvent>& batch)
{
    for (const auto& e : batch)
        if (e.kind == app::CaptureEvent::Kind::TlsHandshakeFailed) {
            ++m_failedHandshakes;
            m_lastHandshakeFailure = e.capture;
            showListeningStatus();
        }
    m_model->apply(batch);
    showFilterNote(); // a probe's uploads, hidden as they come
    // The timeline is redrawn only when its capture's parts change, not on every throughput sample.
    const int row = timelineRow();
    if (row < 0)
        return;
    const quint64 shown = m_model->row(row).id;
    for (const auto& e : batch)
        if (e.capture.id == shown && e.kind != app::CaptureEvent::Kind::Progress) {
            m_timeline->setCapture(m_model->row(row));
            break;
        }
    for (const auto& e : batch)
        if (e.kind == app::CaptureEvent::Kind::CaptureStarted)
            m_table->scrollToBottom();
}

void ListenView::addStored(const QList<app::CaptureSummary>& batch)
{
    QScrollBar* bar = m_table->verticalScrollBar();
    const bool atBottom = bar->value() == bar->maximum();
    m_model->addStored(batch);
    if (atBottom)
        m_table->scrollToBottom();
}

void ListenView::applyFilter(const QString& text)
{
    m_filtered->setText(text);
    showFilterNote();
    // The capture it drew may be filtered out now: the timeline names only a listed one.
    const int row = timelineRow();
    if (row >= 0)
        m_timeline->setCapture(m_model->row(row));
    else
        m_timeline->clear();
    if (text.isEmpty()) // back to every capture: the newest, at the bottom, in sight
        m_table->scrollToBottom();
}

void ListenView::showFilterNote()
{
    const int hidden = m_filtered->hiddenProbeUploads();
    const QString problem = m_filtered->problem();
    m_filterNote->setFullText(!problem.isEmpty()              ? problem
                              : !m_filtered->hint().isEmpty() ? m_filtered->hint()
                              : hidden == 1                   ? tr("1 probe upload hidden (is:probe shows it)")
                              : hidden > 1 ? tr("%1 probe uploads hidden (is:probe shows them)").arg(hidden)
                                           : QString());
    m_filterNote->setStyleSheet(problem.isEmpty() ? QString() : status::textStyle(status::failure()));
    m_filterNote->setVisible(!m_filterNote->fullText().isEmpty());
}

} // namespace upin::ui
