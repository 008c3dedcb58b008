// ListenView's parts, built once by its constructor (listen_view.cpp): the top row, the curl examples, the filter,
// the captures table and the panes that hold them, each with what it does when used.

#include "charts/part_timeline_chart.h"
#include "models/capture_filter.h"
#include "views/elided_label.h"
#include "views/filter_completion.h"
#include "views/fitted_columns.h"
#include "views/listen_view.h"
#include "views/listener_settings_dialog.h"
#include "views/status_line.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace upin::ui {

namespace {
// Cuts a cell's text in its middle, on one line: a forwarded row says what it is at its start ("proxy →") and which
// path at its end. The table wraps (for State), and a wrapped URL broke at its "/" and "-" and lost its end.
class ElideMiddleDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideMiddle;
        option->features &= ~QStyleOptionViewItem::WrapText;
    }
};
} // namespace

// The port, Start/Stop, the status, and the buttons for the folder, the settings, the examples and the list.
QHBoxLayout* ListenView::makeTopRow()
{
    m_port->setRange(0, 65535);
    m_port->setValue(8080);
    m_port->setToolTip(tr("TCP port on 127.0.0.1 (0 picks a free one)"));
    auto* folder = new QPushButton(tr("Captures f&older…"));
    folder->setToolTip(tr("Where stored captures go; the listener restarts there"));
    connect(folder, &QPushButton::clicked, this, [this] {
        QString dir = QFileDialog::getExistingDirectory(this, tr("Store captures in"));
        if (!dir.isEmpty())
            emit captureFolderChosen(dir);
    });
    auto* settings = new QPushButton(tr("Setti&ngs…"));
    settings->setToolTip(tr("The hash of each part, how many captures are kept, the limits for uploads, and the "
                            "guards against slow and cross-site clients"));
    connect(settings, &QPushButton::clicked, this, [this] {
        ListenerSettingsDialog dialog(m_settings, this);
        if (dialog.exec() == QDialog::Accepted) {
            m_settings = dialog.settings();
            emit settingsChosen(m_settings);
        }
    });
    auto* copy = new QPushButton(tr("Cop&y examples"));
    copy->setToolTip(tr("Copy the curl commands below"));
    connect(copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_examples->toPlainText());
        showStatus(this, tr("Copied the curl examples"));
    });
    connect(m_toggle, &QPushButton::clicked, this, [this] {
        if (m_listening)
            emit stopRequested();
        else
            emit startRequested(quint16(m_port->value()));
    });
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Port")));
    top->addWidget(m_port);
    top->addWidget(m_toggle);
    top->addWidget(m_status, 1);
    top->addWidget(folder);
    top->addWidget(settings);
    top->addWidget(copy);
    auto* clear = new QPushButton(tr("Clea&r list"));
    clear->setToolTip(tr("Take the finished captures off this list; their folders stay on disk"));
    connect(clear, &QPushButton::clicked, this, [this] {
        if (QMessageBox::question(this, tr("Clear the list?"),
                                  tr("Take the finished captures off this list? Their folders stay in the "
                                     "captures folder (Delete in a row's menu removes one).")) == QMessageBox::Yes)
            m_model->clearFinished();
    });
    top->addWidget(clear);
    return top;
}

void ListenView::setUpExamples()
{
    m_examples->setReadOnly(true);
    // A long line (the proxy's, with its CA file) wraps: read whole, without a sideways scroll; Copy copies lines.
    m_examples->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_examples->setFont(QFont(QStringLiteral("monospace")));
    // In the splitter with the list and the timeline, which sizes it: three lines at first (the rest scroll, or
    // drag it taller), none when dragged shut; the list and the timeline keep the room on a small screen.
    m_examples->setMinimumHeight(2 * m_examples->fontMetrics().lineSpacing() + 8);
}

void ListenView::setUpFilter()
{
    // The table shows the captures through a filter of terms (status>=400 method:PUT size>10M host:… is:probe, or
    // any text), completed as they are typed. Rows are always taken back to the model's own with sourceRow().
    m_filter->setPlaceholderText(tr("Filter: status>=400  method:PUT  size>10M  host:example  state:refused  "
                                    "is:probe  or any text"));
    m_filter->setToolTip(tr("Terms that must all hold (-term: must not): method:PUT, status:404, status>=400, "
                            "status:4xx, size>10M, host:NAME, state:, endpoint:, client:, is:probe (a probe's "
                            "uploads, hidden unless asked for), or any text a column holds"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("captureFilter"));
    m_filterNote->setObjectName(QStringLiteral("captureFilterNote"));
    m_filterNote->setVisible(false); // until there is something to say: the filter takes the row
    connect(m_filter, &QLineEdit::textChanged, this, &ListenView::applyFilter);
    completeFilterWords(m_filter, CaptureFilter::suggestions());
}

void ListenView::setUpTable()
{
    m_table->setModel(m_filtered);
    m_table->setObjectName(QStringLiteral("capturesTable")); // its column widths are remembered
    // The newest capture stays in sight as rows arrive, unless the user scrolled up to read older ones.
    connect(m_filtered, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] {
        const QScrollBar* bar = m_table->verticalScrollBar();
        m_followNewest = bar->value() == bar->maximum();
    });
    connect(m_filtered, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_followNewest)
            QTimer::singleShot(0, m_table, &QTableView::scrollToBottom); // after the view has laid the row out
    });
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(CaptureListModel::State, QHeaderView::Stretch);
    // A forwarded row's endpoint and its upstream's answer, a paired row's client and a client's own method can be
    // long: they fit their text up to a third of the list each (dragged at will, the whole text in the tooltip),
    // and give up width, the widest first, so that State, the cause in words, keeps a fifth of the list (and goes on
    // to more lines of its row where that is not enough: fitRowHeights).
    const auto atLeast = [this](const char* text) { return fontMetrics().horizontalAdvance(QLatin1String(text)); };
    auto* fitted = new FittedColumns(m_table,
                                     {CaptureListModel::Time, CaptureListModel::Client, CaptureListModel::Method,
                                      CaptureListModel::Endpoint, CaptureListModel::Upstream},
                                     {atLeast("00:00:00  "), atLeast("127.0.0.1:50000  "), atLeast("DELETE  "),
                                      atLeast("/part-event (simd)  "), atLeast("Upstream  ")},
                                     1.0 / 3);
    fitted->keepRoom(CaptureListModel::State, 0.2);
    // The endpoint keeps its start and its end ("proxy → http://…/file-part (simd)"), the rest theirs.
    m_table->setItemDelegateForColumn(CaptureListModel::Endpoint, new ElideMiddleDelegate(m_table));
    m_table->setWordWrap(true); // a long State on a second line of its row (fitRowHeights)
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, &ListenView::fitRowHeightsSoon);
    connect(m_filtered, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex&, int first, int last) { fitRowHeights(first, last); });
    connect(m_filtered, &QAbstractItemModel::rowsRemoved, this, &ListenView::fitRowHeightsSoon);
    connect(m_filtered, &QAbstractItemModel::layoutChanged, this, &ListenView::fitRowHeightsSoon);
    connect(m_filtered, &QAbstractItemModel::modelReset, this, &ListenView::fitRowHeightsSoon);
    connect(m_filtered, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& from, const QModelIndex& to) { fitRowHeights(from.row(), to.row()); });
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setAlternatingRowColors(true);
    m_table->setToolTip(tr("Double-click a stored capture to inspect it"));
    // Enter, or a double-click: the row is opened, as a file manager opens a file.
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) { openRow(sourceRow(index)); });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, &ListenView::showRowMenu);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    m_timeline->setCapture(m_model->row(sourceRow(current)));
            });
}

// The examples, the filtered list and the timeline, one above the other.
QSplitter* ListenView::makePanes()
{
    auto* list = new QWidget;
    auto* listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 3);
    filterRow->addWidget(m_filterNote, 2); // elided, the whole in its tooltip: a long term never widens the window
    listLayout->addLayout(filterRow);
    listLayout->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("listenPanes")); // examples, list, timeline (was two panes: a new name)
    split->addWidget(m_examples);
    split->addWidget(list);
    split->addWidget(m_timeline);
    split->setCollapsible(1, false);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    // The timeline keeps room for its labels at 1024x700 (forwarded rows add three); the list takes the rest.
    split->setSizes({60, 290, 200}); // scaled to the room there is; showEvent gives the examples three lines
    return split;
}

} // namespace upin::ui
