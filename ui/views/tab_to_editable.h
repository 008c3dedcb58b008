#pragma once
// Tab and Shift+Tab in a table the user types into go to the next cell that takes typing, row by row, as a
// spreadsheet's do. Qt's own step lands on read-only cells (a part's Kind, a header's Send box), where the next
// keys typed are lost; and it starts from the view's current cell, so a caller that opens an editor on a new row
// must make that cell current too (editCell does both), or Tab carries on from wherever the current cell was.

#include <QAbstractItemView>

namespace upin::ui {

template <class Table>
class TabToEditable : public Table {
public:
    using Table::Table;

    void editCell(const QModelIndex& index)
    {
        this->setCurrentIndex(index);
        this->edit(index);
    }

protected:
    QModelIndex moveCursor(QAbstractItemView::CursorAction action, Qt::KeyboardModifiers modifiers) override
    {
        const QModelIndex from = this->currentIndex();
        const bool forward = action == QAbstractItemView::MoveNext;
        if ((!forward && action != QAbstractItemView::MovePrevious) || !from.isValid())
            return Table::moveCursor(action, modifiers);
        const QAbstractItemModel* model = this->model();
        const int columns = model->columnCount(this->rootIndex());
        const int cells = model->rowCount(this->rootIndex()) * columns;
        // No wrapping: Tab past the last cell ends the edit rather than reopening the first row.
        for (int at = from.row() * columns + from.column() + (forward ? 1 : -1); at >= 0 && at < cells;
             at += forward ? 1 : -1) {
            const QModelIndex cell = model->index(at / columns, at % columns, this->rootIndex());
            if ((cell.flags() & Qt::ItemIsEditable) && !this->isIndexHidden(cell))
                return cell;
        }
        return {};
    }
};

} // namespace upin::ui
