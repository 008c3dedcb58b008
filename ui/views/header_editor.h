#pragma once
// The Send tab's request headers: a table of name, value and whether it is sent (a row can be switched off and
// kept), with Basic and Bearer helpers that fill Authorization. A header that cannot be sent as typed (a line
// break in its value, a name the sender sets itself) is marked red and named, and the plan is not sent.

#include "sender/upload_plan.h"
#include "views/tab_to_editable.h"

#include <QTableWidget>
#include <QWidget>

class QLabel;

namespace upin::ui {

class HeaderEditor final : public QWidget {
    Q_OBJECT
public:
    explicit HeaderEditor(QWidget* parent = nullptr);
    QList<app::PlanHeader> headers() const; // every row with a name, ticked or not
    void setHeaders(const QList<app::PlanHeader>& headers);
    QString problem() const; // the first row that cannot be sent, in words; empty when all can
    // Replaces the Authorization row's value (ticked), or adds one.
    void setAuthorization(const QString& value);
    static QString bearerAuthorization(const QString& token) { return QStringLiteral("Bearer ") + token.trimmed(); }
    QTableWidget* table() const { return m_table; }

signals:
    void changed();

private:
    void addRow(const app::PlanHeader& header);
    void check(); // marks rows that cannot be sent and says why
    void askForAuthorization(bool bearer);

    TabToEditable<QTableWidget>* m_table;
    QLabel* m_problem;
};

} // namespace upin::ui
