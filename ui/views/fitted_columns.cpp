#include "views/fitted_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace upin::ui {

FittedColumns::FittedColumns(QTableView* table, const QList<int>& columns, const QList<int>& minimumWidths,
                             double maxShare)
    : FittedColumns(table, table->horizontalHeader(), columns, minimumWidths, maxShare)
{}

FittedColumns::FittedColumns(QAbstractItemView* view, QHeaderView* header, const QList<int>& columns,
                             const QList<int>& minimumWidths, double maxShare)
    : QObject(view), m_view(view), m_header(header), m_columns(columns), m_minimumWidths(minimumWidths),
      m_maxShare(maxShare)
{
    m_fitting = true;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        header->setSectionResizeMode(columns[i], QHeaderView::Interactive);
        header->resizeSection(columns[i], minimumWidths[i]);
    }
    m_fitting = false;
    // A width set by anyone but us (a drag) is the user's from then on, that column's alone: the others go on
    // fitting their text. The window keeps a header's widths across sessions only once the user set one: widths
    // fitted to one session's rows would cut the next session's longer ones.
    header->setProperty(kFittedProperty, true);
    connect(header, &QHeaderView::sectionResized, this, [this, header](int column) {
        QList<int> sized = userSized(*header);
        if (!m_fitting && m_columns.contains(column) && !sized.contains(column)) {
            sized.append(column);
            setUserSized(*header, sized);
        }
    });
    QAbstractItemModel* model = view->model();
    connect(model, &QAbstractItemModel::rowsInserted, this, &FittedColumns::fitSoon);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &FittedColumns::fitSoon); // a filter that hid them all
    connect(model, &QAbstractItemModel::dataChanged, this, &FittedColumns::fitSoon);
    connect(model, &QAbstractItemModel::modelReset, this, &FittedColumns::fitSoon);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FittedColumns::fitSoon);
    view->viewport()->installEventFilter(this); // a wider window gives the columns more room
}

QList<int> FittedColumns::userSized(const QHeaderView& header)
{
    return header.property(kUserSizedProperty).value<QList<int>>();
}

void FittedColumns::setUserSized(QHeaderView& header, const QList<int>& columns)
{
    header.setProperty(kUserSizedProperty, QVariant::fromValue(columns));
}

bool FittedColumns::isFitted(qsizetype i) const
{
    return !userSized(*m_header).contains(m_columns[i]);
}

void FittedColumns::keepRoom(int column, double share)
{
    m_keepRoom = true;
    m_roomColumn = column;
    m_roomShare = share;
    fitSoon();
}

bool FittedColumns::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize)
        fitSoon();
    return QObject::eventFilter(watched, event);
}

void FittedColumns::fitSoon()
{
    if (std::exchange(m_queued, true))
        return;
    QTimer::singleShot(0, this, [this] {
        m_queued = false;
        fit();
    });
}

void FittedColumns::fit()
{
    const int most = int(m_view->viewport()->width() * m_maxShare);
    m_fitting = true;
    QList<int> wanted;
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        const int column = m_columns[i];
        // The view's own measure: the rows' texts as drawn, margins included (public on the base class).
        wanted.append(std::max(m_view->sizeHintForColumn(column), m_header->sectionSizeHint(column)));
        if (isFitted(i)) // else the user's width, dragged in this session or restored from an earlier one
            m_header->resizeSection(column,
                                    std::clamp(wanted[i], m_minimumWidths[i], std::max(most, m_minimumWidths[i])));
    }
    makeRoom();
    growIntoSpare(wanted);
    m_fitting = false;
}

void FittedColumns::growIntoSpare(const QList<int>& wanted)
{
    if (!m_keepRoom)
        return;
    int used = 0;
    for (int column = 0; column < m_header->count(); ++column)
        if (column != m_roomColumn && !m_header->isSectionHidden(column))
            used += m_header->sectionSize(column);
    // Width no column uses (a third of the tree stood empty beside a cut filename), or that the stretched column
    // has beyond its kept room (Send's path took half the table beside a cut content type): to the cut ones, in
    // order, past their share.
    int spare = m_view->viewport()->width() - used - keptRoom();
    for (qsizetype i = 0; i < m_columns.size() && spare > 0; ++i) {
        if (!isFitted(i))
            continue;
        const int width = m_header->sectionSize(m_columns[i]);
        const int more = std::min(spare, wanted[i] - width);
        if (more > 0) {
            m_header->resizeSection(m_columns[i], width + more);
            spare -= more;
        }
    }
}

// The room is the share, or less where the column's own text needs less: a quarter kept for a State of "complete"
// cut the endpoints beside it. None without a room column.
int FittedColumns::keptRoom() const
{
    if (m_roomColumn < 0)
        return 0;
    const int share = int(m_view->viewport()->width() * m_roomShare);
    return std::min(share, std::max(m_view->sizeHintForColumn(m_roomColumn), m_header->sectionSizeHint(m_roomColumn)));
}

void FittedColumns::makeRoom()
{
    if (!m_keepRoom)
        return;
    const int viewport = m_view->viewport()->width();
    int used = 0;
    for (int column = 0; column < m_header->count(); ++column)
        if (column != m_roomColumn && !m_header->isSectionHidden(column))
            used += m_header->sectionSize(column);
    int excess = used + keptRoom() - viewport;
    // The widest first, each down to the next widest (or its minimum), until the room is there or none can give.
    while (excess > 0) {
        qsizetype widest = -1;
        for (qsizetype i = 0; i < m_columns.size(); ++i)
            if (isFitted(i) && m_header->sectionSize(m_columns[i]) > m_minimumWidths[i] &&
                (widest < 0 || m_header->sectionSize(m_columns[i]) > m_header->sectionSize(m_columns[widest])))
                widest = i;
        if (widest < 0)
            return;
        int next = m_minimumWidths[widest];
        for (qsizetype i = 0; i < m_columns.size(); ++i)
            if (i != widest && m_header->sectionSize(m_columns[i]) < m_header->sectionSize(m_columns[widest]))
                next = std::max(next, m_header->sectionSize(m_columns[i]));
        const int width = m_header->sectionSize(m_columns[widest]);
        const int give = std::max(1, std::min(excess, width - next));
        m_header->resizeSection(m_columns[widest], width - give);
        excess -= give;
    }
}

} // namespace upin::ui
