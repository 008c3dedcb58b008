// SendView's parts: the table, its buttons, files dropped or added, and a plan put in the tab (the last session's, or
// a capture sent again), which can be taken back.

#include "views/send_view.h"

#include "models/plan_parts_model.h"
#include "views/fitted_columns.h"
#include "views/status_line.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QMimeData>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

namespace upin::ui {

QWidget* SendView::makePartsPage()
{
    m_table->setModel(m_parts);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setDragDropMode(QAbstractItemView::DragDrop);
    m_table->setDefaultDropAction(Qt::MoveAction);
    m_table->setDropIndicatorShown(true);
    m_table->setObjectName(QStringLiteral("sendParts")); // its widths, once the user sets one, are remembered
    m_table->horizontalHeader()->setSectionResizeMode(PlanPartsModel::Source, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    // Every column but Source fits its text (a resent capture's "application/octet-stream" wrapped and its filename
    // was cut at the default width); Source, a path or a field's value, keeps a quarter and ends in "…" mid-path.
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    const int least = fontMetrics().horizontalAdvance(QLatin1String("Filename  "));
    (new FittedColumns(m_table,
                       {PlanPartsModel::Name, PlanPartsModel::Kind, PlanPartsModel::ContentType,
                        PlanPartsModel::Filename, PlanPartsModel::Size},
                       {least, least, least, least, least}, 1.0 / 3))
        ->keepRoom(PlanPartsModel::Source, 0.25);

    auto* addFiles = new QPushButton(tr("&Add files…"));
    auto* addField = new QPushButton(tr("Add fiel&d"));
    auto* addSynthetic = new QPushButton(tr("Add s&ynthetic…"));
    auto* remove = new QPushButton(tr("Remove"));
    addFiles->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+A")));
    remove->setShortcut(QKeySequence::Delete);
    connect(addFiles, &QPushButton::clicked, this, &SendView::addFilesDialog);
    connect(addField, &QPushButton::clicked, this, &SendView::addField);
    connect(addSynthetic, &QPushButton::clicked, this, &SendView::addSynthetic);
    connect(remove, &QPushButton::clicked, this, [this] { m_parts->removePart(m_table->currentIndex().row()); });
    // Shown after a capture's request replaced the user's plan: one click takes the plan back (it went silently).
    m_putBack = new QPushButton(tr("Put back the earlier plan"));
    m_putBack->setObjectName(QStringLiteral("sendPutBack"));
    m_putBack->hide();
    connect(m_putBack, &QPushButton::clicked, this, [this] {
        m_putBack->hide();
        setPlan(std::exchange(m_planBefore, {}));
        showStatus(this, tr("The earlier plan is back"));
    });
    auto* buttons = new QHBoxLayout;
    for (auto* b : {addFiles, addField, addSynthetic, remove})
        buttons->addWidget(b);
    buttons->addStretch();
    buttons->addWidget(m_putBack);

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    return page;
}

void SendView::replacePlan(const app::UploadPlan& plan, const QString& what)
{
    app::UploadPlan before = this->plan();
    const bool worthKeeping = !before.parts.isEmpty() || !before.headers.isEmpty();
    setPlan(plan);
    m_putBack->setVisible(worthKeeping);
    m_putBack->setToolTip(tr("The plan before %1 went in: its %2 and %3")
                              .arg(what, countOf(before.parts.size(), tr("part"), tr("parts")),
                                   countOf(before.headers.size(), tr("header"), tr("headers"))));
    if (worthKeeping)
        m_planBefore = std::move(before);
}

void SendView::setPlan(const app::UploadPlan& plan)
{
    m_parts->setParts(plan.parts);
    m_method->setCurrentText(plan.method);
    m_headers->setHeaders(plan.headers);
    m_runs->setValue(plan.runs);
    m_chunked->setChecked(plan.chunked);
    m_expect->setChecked(plan.expectContinue);
    m_hash->setCurrentIndex(std::max(0, m_hash->findData(int(plan.hash))));
    if (!plan.targets.isEmpty())
        setTargets({plan.targets.first().toString()});
}

void SendView::addFilesDialog()
{
    addFiles(QFileDialog::getOpenFileNames(this, tr("Add files to upload")));
}

void SendView::addFiles(const QStringList& paths)
{
    const QStringList skipped = m_parts->addFiles(paths);
    if (!skipped.isEmpty())
        showStatus(this, tr("Not added: %1: not a file").arg(skipped.join(QStringLiteral(", "))));
}

void SendView::addField()
{
    app::PlanPart part;
    part.name = QStringLiteral("field%1").arg(m_parts->rowCount() + 1);
    part.value = QStringLiteral("value");
    m_parts->addPart(part);
    m_table->editCell(m_parts->index(m_parts->rowCount() - 1, PlanPartsModel::Name)); // name, Tab, value, Enter
}

void SendView::addSynthetic()
{
    bool ok = false;
    int mib = QInputDialog::getInt(this, tr("Synthetic part"),
                                   tr("Size in MiB (random bytes, generated while sending):"), 100, 1, 1 << 20, 1, &ok);
    if (!ok)
        return;
    app::PlanPart part;
    part.kind = app::PlanPart::Kind::Synthetic;
    part.name = QStringLiteral("synthetic%1").arg(m_parts->rowCount() + 1);
    part.size = quint64(mib) << 20;
    m_parts->addPart(part);
}

void SendView::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void SendView::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    addFiles(paths);
    event->acceptProposedAction();
}

} // namespace upin::ui
