#include "views/header_editor.h"
#include "status_colors.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace upin::ui {

namespace {
enum Column { Send, Name, Value };
} // namespace

HeaderEditor::HeaderEditor(QWidget* parent)
    : QWidget(parent), m_table(new TabToEditable<QTableWidget>(0, 3)), m_problem(new QLabel)
{
    m_table->setHorizontalHeaderLabels({tr("Send"), tr("Header"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(Send, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(Value, QHeaderView::Stretch);
    m_table->setColumnWidth(Name, 180);
    m_table->verticalHeader()->hide();
    m_table->setToolTip(tr("Extra request headers: cookies, CSRF tokens, Authorization. Untick a row to keep it "
                           "without sending it."));
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        check();
        emit changed();
    });
    auto* add = new QPushButton(tr("Add header"));
    connect(add, &QPushButton::clicked, this, [this] {
        addRow({QStringLiteral("X-Header"), QString(), true});
        // Current as well as edited: Tab steps on from the current cell (tab_to_editable.h).
        m_table->editCell(m_table->model()->index(m_table->rowCount() - 1, Name));
    });
    auto* remove = new QPushButton(tr("Remove header"));
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0) {
            m_table->removeRow(m_table->currentRow());
            check();
            emit changed();
        }
    });
    auto* auth = new QPushButton(tr("Authorization…"));
    auto* authMenu = new QMenu(auth);
    authMenu->addAction(tr("Basic (user and password)…"), this, [this] { askForAuthorization(false); });
    authMenu->addAction(tr("Bearer token…"), this, [this] { askForAuthorization(true); });
    auth->setMenu(authMenu);
    m_problem->setStyleSheet(status::textStyle(status::failure()));
    m_problem->setWordWrap(true);
    m_problem->hide();
    auto* buttons = new QHBoxLayout;
    for (auto* b : {add, remove, auth})
        buttons->addWidget(b);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
}

void HeaderEditor::addRow(const app::PlanHeader& header)
{
    QSignalBlocker quiet(m_table); // one changed() for the row, not one per cell
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* send = new QTableWidgetItem;
    send->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    send->setCheckState(header.enabled ? Qt::Checked : Qt::Unchecked);
    m_table->setItem(row, Send, send);
    m_table->setItem(row, Name, new QTableWidgetItem(header.name));
    m_table->setItem(row, Value, new QTableWidgetItem(header.value));
    quiet.unblock();
    check();
    emit changed();
}

QList<app::PlanHeader> HeaderEditor::headers() const
{
    QList<app::PlanHeader> out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString name = m_table->item(row, Name)->text().trimmed();
        if (!name.isEmpty())
            out.append(
                {name, m_table->item(row, Value)->text(), m_table->item(row, Send)->checkState() == Qt::Checked});
    }
    return out;
}

void HeaderEditor::setHeaders(const QList<app::PlanHeader>& headers)
{
    m_table->setRowCount(0);
    for (const auto& h : headers)
        addRow(h);
    check();
    emit changed(); // what shows them (the Headers tab's count) follows a plan put in, as it follows an edit
}

QString HeaderEditor::problem() const
{
    return m_problem->isHidden() ? QString() : m_problem->text();
}

void HeaderEditor::check()
{
    QSignalBlocker quiet(m_table); // colouring a cell is no edit
    QString first;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString name = m_table->item(row, Name)->text().trimmed();
        const bool sent = m_table->item(row, Send)->checkState() == Qt::Checked;
        const QString problem =
            name.isEmpty() || !sent ? QString() : app::headerProblem(name, m_table->item(row, Value)->text());
        for (int column : {Name, Value}) {
            m_table->item(row, column)->setForeground(problem.isEmpty() ? palette().text() : QBrush(status::failure()));
            m_table->item(row, column)->setToolTip(problem);
        }
        if (first.isEmpty() && !problem.isEmpty())
            first = problem;
    }
    m_problem->setText(first);
    m_problem->setVisible(!first.isEmpty());
}

void HeaderEditor::setAuthorization(const QString& value)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, Name)->text().trimmed().compare(QLatin1String("Authorization"), Qt::CaseInsensitive) ==
            0) {
            m_table->item(row, Value)->setText(value);
            m_table->item(row, Send)->setCheckState(Qt::Checked);
            return;
        }
    addRow({QStringLiteral("Authorization"), value, true});
}

void HeaderEditor::askForAuthorization(bool bearer)
{
    QDialog dialog(this);
    dialog.setWindowTitle(bearer ? tr("Bearer token") : tr("Basic authorization"));
    auto* form = new QFormLayout(&dialog);
    auto* first = new QLineEdit;
    auto* second = new QLineEdit;
    second->setEchoMode(QLineEdit::Password);
    if (bearer) {
        first->setEchoMode(QLineEdit::Password);
        form->addRow(tr("Token"), first);
    } else {
        form->addRow(tr("User"), first);
        form->addRow(tr("Password"), second);
    }
    auto* note = new QLabel(tr("Sent as an Authorization header. It is kept in plain text in the plan and in the "
                               "window's settings (as a curl command in a shell history would hold it): remove the "
                               "row when you are done. Plain http shows it to anyone on the path."));
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    setAuthorization(bearer ? bearerAuthorization(first->text())
                            : app::basicAuthorization(first->text(), second->text()));
}

} // namespace upin::ui
