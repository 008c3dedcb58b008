#pragma once
// Columns of a table or tree that fit their longest text, up to a share of the table's width each, until the user drags
// one (then that one keeps the user's width, which the window remembers, and the others go on fitting). The other columns keep their own modes; the
// stretched one takes what is left. For the Listen list, where a forwarded row's endpoint and its upstream's
// answer are long, and a fixed width either cut them ("…/file-part (simd)", "200, server 0.6…") or left the
// cause in words, State, too little. One fit per turn of the event loop, however many rows came in it.

#include <QList>
#include <QObject>

class QAbstractItemView;
class QHeaderView;
class QTableView;

namespace upin::ui {

class FittedColumns final : public QObject {
    Q_OBJECT
public:
    // On the table's header: it has fitted columns (the window remembers their widths only once the user sized one).
    static constexpr const char* kFittedProperty = "upinFittedColumns";
    // The columns the user sized, by a drag or restored from an earlier session: each keeps its width.
    static QList<int> userSized(const QHeaderView& header);
    static void setUserSized(QHeaderView& header, const QList<int>& columns);

    // minimumWidths: one per column, the width each starts at and never goes under.
    FittedColumns(QTableView* table, const QList<int>& columns, const QList<int>& minimumWidths, double maxShare);
    // The same for a tree's columns (Inspect's parts).
    FittedColumns(QAbstractItemView* view, QHeaderView* header, const QList<int>& columns,
                  const QList<int>& minimumWidths, double maxShare);

    // Keeps share of the width for column (the stretched one, State; -1 for none, then every column fits the
    // width), or what its text needs where that is less: when the fitted columns and the others together leave it
    // less, the widest fitted ones give up width first, never under their minimums.
    void keepRoom(int column, double share);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitSoon();
    void fit();
    void makeRoom();                              // after fit(): the kept room, taken from the widest fitted columns
    void growIntoSpare(const QList<int>& wanted); // then width no column uses, or the stretched one's beyond its room
    int keptRoom() const;                         // what the room column keeps (keepRoom)
    bool isFitted(qsizetype i) const;             // m_columns[i] is ours to size: the user has not sized it

    static constexpr const char* kUserSizedProperty = "upinUserSizedColumns";

    QAbstractItemView* m_view;
    QHeaderView* m_header;
    QList<int> m_columns;
    QList<int> m_minimumWidths;
    double m_maxShare;
    bool m_keepRoom = false;
    int m_roomColumn = -1;
    double m_roomShare = 0;
    bool m_fitting = false; // our own resizing, not the user's
    bool m_queued = false;
};

} // namespace upin::ui
