// InspectView's parts, built once by its constructor (inspect_view.cpp): the button row, the parts tree, the previews'
// tabs and the diagnostics list, each with what it does when used.

#include "views/fitted_columns.h"
#include "views/frames_view.h"
#include "views/hex_view.h"
#include "views/inspect_view.h"

#include "inspect/part_bytes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace upin::ui {

QHBoxLayout* InspectView::makeButtonRow()
{
    m_copyCurl->setEnabled(false);
    m_copyCurl->setToolTip(tr("Open a capture to copy a curl command that sends its parts again"));
    connect(m_copyCurl, &QPushButton::clicked, this, &InspectView::copyAsCurl);
    auto* open = new QPushButton(tr("&Open…"));
    open->setToolTip(tr("Open a request body, a whole HTTP request or a capture folder (Ctrl+O)"));
    connect(open, &QPushButton::clicked, this, &InspectView::openDialog);
    connect(m_cancel, &QPushButton::clicked, this, &InspectView::cancelRequested);
    connect(m_savePart, &QPushButton::clicked, this, &InspectView::savePart);
    connect(m_saveAll, &QPushButton::clicked, this, &InspectView::saveAllParts);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    // The buttons on a row of their own, the title under them across the whole width: a verdict with its cause
    // and limit, the parts and the boundary were cut beside the buttons at 1280 px.
    auto* top = new QHBoxLayout;
    top->addWidget(open);
    top->addStretch(1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    top->addWidget(m_copyCurl);
    top->addWidget(m_savePart);
    top->addWidget(m_saveAll);
    return top;
}

void InspectView::setUpTree()
{
    m_tree->setModel(m_model);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    // Numbers keep their width; the name, filename and type fit their longest text up to a quarter of the tree each
    // (the whole value in its tooltip), and the digest shows its start, as git shows a commit's: Size, the digest
    // and Sent stay in view at 1280 px.
    m_tree->header()->setStretchLastSection(false); // the spare width goes to a cut name (FittedColumns)
    m_tree->header()->setMinimumSectionSize(24);    // "#" as wide as its digits: 40 px cut a 33-letter filename
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->setColumnHidden(PartTreeModel::Sent, true); // until a capture of our own send is shown
    auto* fitted = new FittedColumns(m_tree, m_tree->header(),
                                     {PartTreeModel::Name, PartTreeModel::Filename, PartTreeModel::ContentType},
                                     {70, 70, 70}, 0.26);
    fitted->keepRoom(-1, 0); // every column in view: the names give up width before Size or the digest would

    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QTreeView::customContextMenuRequested, this, &InspectView::showPartMenu);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (m_model->isRequest(current))
            showRequest();
        else
            showPart(m_model->part(current));
    });
}

// Headers, Text (with its encoding), Hex, Image, Answer and Frames, and the decode box beside them.
void InspectView::setUpPreviews()
{
    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    // A field's name whole on one line ("Content-Disposition" wrapped); its value takes the rest and wraps.
    m_headers->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_headers->verticalHeader()->hide();
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a note or a long line reads whole, as in a browser
    for (const char* name : {"UTF-8", "ISO-8859-1", "UTF-16LE", "UTF-16BE"})
        m_encoding->addItem(QString::fromLatin1(name));
    m_encoding->setToolTip(tr("Text encoding; the part's charset parameter chooses it when present"));
    connect(m_encoding, &QComboBox::currentTextChanged, this, [this] {
        if (m_shownPart && !harEntryOf(*m_shownPart))
            requestText(*m_shownPart);
    });
    m_decode->setVisible(false);
    connect(m_decode, &QCheckBox::toggled, this, [this] {
        updateDecodeBox(m_shownPart);
        if (m_shownPart && !harEntryOf(*m_shownPart))
            requestText(*m_shownPart);
        if (m_shownPart)
            requestImage(*m_shownPart);
    });
    auto* textPage = new QWidget;
    auto* textLayout = new QVBoxLayout(textPage);
    textLayout->setContentsMargins(0, 0, 0, 0);
    auto* textOptions = new QHBoxLayout;
    textOptions->addWidget(m_encoding);
    textOptions->addStretch(1);
    textLayout->addLayout(textOptions);
    textLayout->addWidget(m_text, 1);
    m_image->setAlignment(Qt::AlignCenter);
    auto* imageScroll = new QScrollArea;
    imageScroll->setWidget(m_image);
    imageScroll->setWidgetResizable(true);
    m_tabs->addTab(m_headers, tr("Headers"));
    m_tabs->addTab(textPage, tr("Text"));
    m_tabs->addTab(m_hexPane, tr("Hex"));
    connect(m_hexPane, &HexPane::goToRequested, this, &InspectView::goToHex);
    connect(m_hexPane, &HexPane::findRequested, this, &InspectView::findInHex);
    m_tabs->addTab(imageScroll, tr("Image"));
    m_tabs->setCornerWidget(m_decode); // beside the tabs, not on one: it is for Text, Image and Save part alike
    m_answer->setReadOnly(true);
    m_answer->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a long JSON string reads whole
    m_answer->setFont(QFont(QStringLiteral("monospace")));
    m_tabs->addTab(m_answer, tr("Answer"));
    showAnswer({}); // nothing open: nothing answered
    m_tabs->addTab(m_frames, tr("Frames"));
    showFrames();
}

void InspectView::setUpDiagnostics()
{
    m_diagnostics->setWordWrap(true); // a diagnostic's words and what is missing read whole at any width
    m_diagnostics->setResizeMode(QListView::Adjust);
    connect(m_diagnostics, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && item->data(Qt::UserRole).isValid()) { // the byte it is about; none for a source's own error
            const quint64 offset = item->data(Qt::UserRole).toULongLong();
            // The tree follows: the part whose header block or body holds the byte is the one shown; a byte in no
            // part (the preamble, a delimiter) leaves no part or Request row selected over body bytes.
            if (const core::PartSummary* holder = app::partHolding(m_model->report().parts, offset, true))
                m_tree->setCurrentIndex(m_model->indexOf(holder));
            else if (m_model->isRequest(m_tree->currentIndex()))
                m_tree->setCurrentIndex({});
            showHexAt(offset);
        }
    });
}

} // namespace upin::ui
