#include "views/inspect_view.h"
#include "common/byte_size.h"
#include "common/qt_text.h"
#include "views/elided_label.h"
#include "views/request_text.h"

#include "capture/outcome.h"
#include "views/status_line.h"

#include "inspect/part_bytes.h"
#include "sender/upload_plan.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStringDecoder>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QTreeView>
#include <QVBoxLayout>

namespace upin::ui {

namespace {
constexpr qint64 kPreviewBytes = qint64{64} * 1024; // text preview: the first 64 KiB of a part
constexpr qint64 kHexBytes = 4096;                  // hex view window
constexpr quint64 kMaxImageBytes = 4u << 20; // decoded on the GUI thread: keep it to what decodes in milliseconds

// The innermost part whose body holds offset (its end included: an error may point just past the last byte);
// withHeaders: or whose header block does.
const core::PartSummary* partHolding(const std::vector<core::PartSummary>& parts, quint64 offset,
                                     bool withHeaders = false)
{
    for (const auto& part : parts)
        if (offset >= (withHeaders ? part.offset : part.bodyOffset) && offset <= part.bodyOffset + part.size) {
            const core::PartSummary* inner = partHolding(part.children, offset, withHeaders);
            return inner ? inner : &part;
        }
    return nullptr;
}

QString hexDump(const QByteArray& bytes, quint64 startOffset, quint64 mark)
{
    QString out;
    for (qsizetype line = 0; line < bytes.size(); line += 16) {
        const quint64 at = startOffset + quint64(line);
        QString hex, ascii;
        for (qsizetype i = line; i < line + 16; ++i) {
            if (i < bytes.size()) {
                unsigned char c = static_cast<unsigned char>(bytes[i]);
                hex += QStringLiteral("%1 ").arg(c, 2, 16, QLatin1Char('0'));
                ascii += (c >= 32 && c < 127) ? QChar(c) : QChar(u'.');
            } else {
                hex += QStringLiteral("   ");
            }
        }
        const bool marked = mark >= at && mark < at + 16;
        out += QStringLiteral("%1%2  %3 %4\n")
                   .arg(marked ? QStringLiteral("▶") : QStringLiteral(" "))
                   .arg(at, 10, 10, QLatin1Char('0'))
                   .arg(hex, ascii);
    }
    return out;
}
} // namespace

InspectView::InspectView(QWidget* parent)
    : QWidget(parent), m_model(new PartTreeModel(this)), m_tree(new QTreeView),
      m_title(new ElidedLabel(tr("Nothing open"))), m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel"))), m_savePart(new QPushButton(tr("Save &part…"))),
      m_saveAll(new QPushButton(tr("Save &all parts…"))), m_tabs(new QTabWidget), m_headers(new QTableWidget(0, 2)),
      m_text(new QPlainTextEdit), m_hex(new QPlainTextEdit), m_diagnostics(new QListWidget), m_encoding(new QComboBox),
      m_image(new QLabel), m_copyCurl(new QPushButton(tr("Copy as c&url")))
{
    setAcceptDrops(true);
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
    auto* top = new QHBoxLayout;
    top->addWidget(open);
    top->addWidget(m_title, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    top->addWidget(m_copyCurl);
    top->addWidget(m_savePart);
    top->addWidget(m_saveAll);

    m_tree->setModel(m_model);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(true);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (m_model->isRequest(current))
            showRequest();
        else
            showPart(m_model->part(current));
    });

    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (auto* view : {m_text, m_hex}) {
        view->setReadOnly(true);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
    }
    m_hex->setFont(QFont(QStringLiteral("monospace")));
    for (const char* name : {"UTF-8", "ISO-8859-1", "UTF-16LE", "UTF-16BE"})
        m_encoding->addItem(QString::fromLatin1(name));
    m_encoding->setToolTip(tr("Text encoding; the part's charset parameter chooses it when present"));
    connect(m_encoding, &QComboBox::currentTextChanged, this, [this] {
        if (const auto* part = m_model->part(m_tree->currentIndex()))
            showText(*part);
    });
    auto* textPage = new QWidget;
    auto* textLayout = new QVBoxLayout(textPage);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addWidget(m_encoding, 0, Qt::AlignLeft);
    textLayout->addWidget(m_text, 1);
    m_image->setAlignment(Qt::AlignCenter);
    auto* imageScroll = new QScrollArea;
    imageScroll->setWidget(m_image);
    imageScroll->setWidgetResizable(true);
    m_tabs->addTab(m_headers, tr("Headers"));
    m_tabs->addTab(textPage, tr("Text"));
    m_tabs->addTab(m_hex, tr("Hex"));
    m_tabs->addTab(imageScroll, tr("Image"));
    connect(m_diagnostics, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < int(m_result.report.diagnostics.size() + (m_result.report.error ? 1 : 0))) {
            quint64 offset = row < int(m_result.report.diagnostics.size())
                                 ? m_result.report.diagnostics[size_t(row)].offset
                                 : m_result.report.error->offset;
            // The tree follows: the part whose header block or body holds the byte is the one shown; a byte in no
            // part (the preamble, a delimiter) leaves no part or Request row selected over body bytes.
            if (const core::PartSummary* holder = partHolding(m_model->report().parts, offset, true))
                m_tree->setCurrentIndex(m_model->indexOf(holder));
            else if (m_model->isRequest(m_tree->currentIndex()))
                m_tree->setCurrentIndex({});
            showHexAt(offset);
        }
    });

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_tabs);
    right->addWidget(m_diagnostics);
    right->setStretchFactor(0, 3);
    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("inspectSplitter"));
    split->addWidget(m_tree);
    split->addWidget(right);
    // Two fifths for the tree (it scrolls sideways), three for the previews: at 1024 px the hex view's 78
    // columns, ASCII included, fit.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 600});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    m_savePart->setEnabled(false);
    m_saveAll->setEnabled(false);
}

void InspectView::openDialog()
{
    QString path = QFileDialog::getOpenFileName(
        this, tr("Open a request body, an HTTP request, a HAR file, or a capture's capture.json"));
    if (QFileInfo(path).fileName() == QLatin1String("capture.json")) // a file dialog picks files: open its capture
        path = QFileInfo(path).path();
    if (!path.isEmpty())
        emit openRequested(path, {});
}

void InspectView::openCaptureDialog(const QString& capturesRoot)
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open a capture folder (capture-…)"), capturesRoot);
    if (!folder.isEmpty())
        emit openRequested(folder, {});
}

QString InspectView::title() const
{
    return m_title->fullText();
}

void InspectView::setProgress(qint64 done, qint64 total)
{
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_progress->setMaximum(1000);
    m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
    m_title->setFullText(
        tr("Parsing… %1 of %2").arg(app::formatBytes(quint64(done)), app::formatBytes(quint64(total))));
}

void InspectView::showResult(const app::InspectResult& result)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_result = result;
    m_model->setReport(result.report, result.request);
    m_model->setSentHashes(m_sentHashes.value(result.capture ? result.capture->id : QString()));
    m_tree->expandAll();
    for (int c = 0; c < PartTreeModel::Digest; ++c)
        m_tree->resizeColumnToContents(c);
    const auto& r = result.report;
    // The verdict before the details (when the window is narrow, the end of the line is what is cut), the cause
    // first: a capture's own state and why, else what the parse found.
    const QString state =
        result.cancelled          ? tr("cancelled")
        : !result.error.isEmpty() ? result.error
        : result.capture && !result.capture->ok()
            ? app::outcomeInWords(result.capture->state, result.capture->error, result.capture->errorInWords())
            : app::parseOutcomeInWords(r, result.request.contentLength);
    // A HAR file's nodes are its requests, each with its own boundary: say what it holds instead.
    const QString contents = !result.harEntries.isEmpty()
                                 ? tr("%1, %2").arg(app::harSummary(result.harEntries, r), app::formatBytes(r.bytes))
                                 : tr("%1, %2, boundary \"%3\"")
                                       .arg(countOf(qsizetype(r.parts.size()), tr("part"), tr("parts")),
                                            app::formatBytes(r.bytes), QString::fromStdString(r.boundary));
    m_title->setFullText(tr("%1 — %2 — %3").arg(result.title, state, contents), result.path);
    m_diagnostics->clear();
    for (const auto& d : r.diagnostics)
        m_diagnostics->addItem(
            tr("@%1  %2 — %3")
                .arg(d.offset)
                .arg(app::toQString(core::codeName(d.code)), app::toQString(core::describe(d.code))));
    if (r.error) {
        const QString ioDetail = result.capture && result.capture->writeFailure
                                     ? tr(" (%1)").arg(result.capture->errorInWords())
                                     : QString();
        m_diagnostics->addItem(tr("@%1  ERROR %2 — %3%4")
                                   .arg(r.error->offset)
                                   .arg(app::toQString(core::codeName(r.error->code)),
                                        app::toQString(core::describe(r.error->code)), ioDetail));
        m_diagnostics->item(m_diagnostics->count() - 1)->setForeground(QColor(0xc0, 0x1c, 0x28));
    }
    if (m_diagnostics->count() == 0 && result.error.isEmpty() && !result.cancelled) { // an empty list says why
        auto* none = new QListWidgetItem(tr("No diagnostics: the body parsed without a remark"));
        none->setFlags(Qt::NoItemFlags);
        m_diagnostics->addItem(none);
    }
    m_wholeBody = {};
    if (!result.bodyFile.isEmpty() && result.bodyFileOffset >= 0) {
        m_wholeBody.file = result.bodyFile;
        m_wholeBody.fileOffset = result.bodyFileOffset;
        m_wholeBody.available = r.bytes;
    }
    const QString blocker = curlBlocker();
    m_copyCurl->setEnabled(blocker.isEmpty());
    m_copyCurl->setToolTip(blocker.isEmpty() ? tr("Copy a curl command that sends this capture's parts again, "
                                                  "with their names, file names and types")
                                             : tr("Copy as curl is unavailable: %1").arg(blocker));
    if (r.error && r.error->code == core::Errc::MissingBoundary && r.parts.empty() && isVisible())
        QMetaObject::invokeMethod(this, &InspectView::askForBoundary, Qt::QueuedConnection);
    bool anyBytes = false;
    for (const auto& part : r.parts)
        anyBytes = anyBytes || app::locatePart(result, part).missing.isEmpty();
    m_saveAll->setEnabled(anyBytes);
    m_savePart->setEnabled(false);                     // until a part with bytes is selected
    if (!r.parts.empty() || !result.request.isEmpty()) // the first part, else the request that has none
        m_tree->setCurrentIndex(m_model->index(r.parts.empty() ? 0 : m_model->firstPartRow(), 0));
    else
        showPart(nullptr); // nothing of an earlier file's part stays on show
}

void InspectView::showPart(const core::PartSummary* part)
{
    m_headers->setRowCount(0);
    m_headers->clearSpans();
    m_text->setFont(font());
    m_encoding->setVisible(true);
    m_text->clear();
    m_partBytes = {};
    if (!part) { // nothing selected (or nothing opened): no preview of an earlier part stays behind
        m_savePart->setEnabled(false);
        m_hex->clear();
        m_image->setPixmap({});
        m_image->setText({});
        return;
    }
    m_partBytes = app::locatePart(m_result, m_model->report(), *part);
    m_savePart->setEnabled(m_partBytes.missing.isEmpty());
    m_savePart->setToolTip(m_partBytes.missing.isEmpty() ? tr("Save this part's bytes to a file")
                                                         : tr("Nothing to save: %1").arg(m_partBytes.missing));
    for (const auto& [name, value] : part->headers) {
        int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(name)));
        m_headers->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
    if (part->headersNotKept > 0) { // the report's header budget ran out before this part
        int row = m_headers->rowCount();
        m_headers->insertRow(row);
        auto* note = new QTableWidgetItem(tr("%1 more not kept").arg(part->headersNotKept));
        note->setForeground(palette().color(QPalette::PlaceholderText));
        m_headers->setItem(row, 0, note);
        m_headers->setItem(row, 1,
                           new QTableWidgetItem(tr("counted, not kept: the report's header budget ran out "
                                                   "(Settings… or --max-recorded-headers)")));
    }
    addUnparsedHeaderLines(*part);
    // The part's charset chooses the text encoding when it names one we offer.
    const QString type = QString::fromStdString(part->contentType.value_or("")).toLower();
    qsizetype charset = type.indexOf(QLatin1String("charset="));
    if (charset >= 0) {
        int index = m_encoding->findText(
            type.mid(charset + 8).section(QLatin1Char(';'), 0, 0).remove(QLatin1Char('"')).trimmed(),
            Qt::MatchFixedString);
        if (index >= 0)
            m_encoding->setCurrentIndex(index);
    }
    const app::HarEntry* entry = harEntryOf(*part);
    if (entry && part->headers.empty()) { // an empty table would look like a fault of ours
        m_headers->insertRow(0);
        auto* none = new QTableWidgetItem(tr("(none: the HAR file has no request header fields for it)"));
        none->setForeground(palette().color(QPalette::PlaceholderText));
        m_headers->setItem(0, 0, none);
        m_headers->setSpan(0, 0, 1, 2); // across both columns: the Header column is narrow
    }
    if (entry) { // a HAR request: its line, body and response
        m_text->setFont(QFont(QStringLiteral("monospace")));
        m_encoding->setVisible(false);
        m_text->setPlainText(describeHarEntry(*entry, *part));
    } else {
        showText(*part);
    }
    QImage image;
    if (type.startsWith(QLatin1String("image/")) && part->size <= kMaxImageBytes)
        image = QImage::fromData(app::readPartBytes(m_partBytes, 0, qint64(part->size)));
    if (image.isNull()) {
        m_image->setPixmap({});
        m_image->setToolTip({});
        m_image->setText(!m_partBytes.missing.isEmpty() ? tr("(%1)").arg(m_partBytes.missing)
                         : !type.startsWith(QLatin1String("image/"))
                             ? tr("(not an image: %1)").arg(type.isEmpty() ? tr("no Content-Type") : type)
                         : part->size > kMaxImageBytes ? tr("(image larger than 4 MiB: save it to view it)")
                                                       : tr("(%1 that does not decode)").arg(type));
    } else {
        m_image->setText({});
        // Icons are often 16 px: show small images enlarged, pixel for pixel, with their real size in the tooltip.
        const int factor = std::max(1, 128 / std::max(1, std::max(image.width(), image.height())));
        m_image->setPixmap(
            QPixmap::fromImage(image.scaled(image.size() * factor, Qt::KeepAspectRatio, Qt::FastTransformation)));
        m_image->setToolTip(tr("%1 x %2 px%3")
                                .arg(image.width())
                                .arg(image.height())
                                .arg(factor > 1 ? tr(", shown %1x").arg(factor) : QString()));
    }
    showHexAt(part->bodyOffset);
}

const app::HarEntry* InspectView::harEntryOf(const core::PartSummary& part) const
{
    const auto& nodes = m_model->report().parts;
    for (qsizetype i = 0; i < m_result.harEntries.size() && size_t(i) < nodes.size(); ++i)
        if (&nodes[size_t(i)] == &part)
            return &m_result.harEntries[i];
    return nullptr;
}

void InspectView::addUnparsedHeaderLines(const core::PartSummary& part)
{
    // The header block is at most Options::maxHeaderBytes (16 KiB by default); read once when a line is shown.
    QByteArray block;
    bool blockRead = false;
    for (const auto& d : m_result.report.diagnostics) {
        if (d.offset < part.offset || d.offset >= part.bodyOffset)
            continue;
        if (!blockRead) {
            block = app::readPartBytes(m_wholeBody, part.offset, qint64(part.bodyOffset - part.offset));
            blockRead = true;
        }
        QString line = tr("(the line at byte %1; this source did not keep the raw header bytes)").arg(d.offset);
        if (!block.isEmpty()) {
            const qsizetype at = qsizetype(d.offset - part.offset);
            const qsizetype start = block.lastIndexOf('\n', at > 0 ? at - 1 : 0) + 1;
            const qsizetype end = block.indexOf('\n', at);
            QByteArray bytes = block.mid(start, (end < 0 ? block.size() : end) - start);
            if (bytes.endsWith('\r'))
                bytes.chop(1);
            line = app::printable(QString::fromUtf8(bytes));
        }
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        auto* mark = new QTableWidgetItem(tr("⚠ not parsed"));
        auto* value = new QTableWidgetItem(line);
        for (auto* item : {mark, value}) {
            item->setForeground(QColor(0xc0, 0x1c, 0x28));
            item->setToolTip(tr("byte %1: %2 — %3 (the line was left out of the part's headers)")
                                 .arg(d.offset)
                                 .arg(app::toQString(core::codeName(d.code)), app::toQString(core::describe(d.code))));
        }
        m_headers->setItem(row, 0, mark);
        m_headers->setItem(row, 1, value);
    }
}

void InspectView::showRequest()
{
    m_headers->setRowCount(0);
    m_headers->clearSpans();
    for (const auto& [name, value] : m_result.request.headers.value_or(QList<QPair<QString, QString>>{})) {
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(app::printable(name)));
        m_headers->setItem(row, 1, new QTableWidgetItem(app::printable(value)));
    }
    m_text->setFont(QFont(QStringLiteral("monospace"))); // aligned like the wire; showPart sets it back
    m_encoding->setVisible(false);                       // the request's text is ours, not the client's bytes
    m_text->setPlainText(describeRequest(m_result));
    m_image->setPixmap({});
    m_image->setToolTip({});
    m_image->setText(tr("(the request: choose a part to see an image)"));
    m_partBytes = app::locateRequest(m_result);
    m_savePart->setEnabled(m_partBytes.missing.isEmpty());
    m_savePart->setToolTip(!m_partBytes.missing.isEmpty() ? tr("Nothing to save: %1").arg(m_partBytes.missing)
                           : m_result.capture && m_partBytes.before.isEmpty()
                               ? tr("Save body.raw (this capture kept no head) to a file")
                               : tr("Save the whole request, as stored, to a file"));
    const QString note =
        !m_result.capture ? tr("the request file, from its first byte")
        : m_partBytes.before.isEmpty()
            ? tr("body.raw only: this capture was stored before its head was kept (head.raw)")
        : m_partBytes.after.isEmpty()
            ? tr("the request as stored: head.raw, then body.raw")
            : tr("head.raw, then body.raw as one chunk (sent as %1)")
                  .arg(countOf(qint64(m_result.request.chunks.value_or(0)), tr("chunk"), tr("chunks")));
    showHex(m_partBytes, 0, m_partBytes.missing.isEmpty() ? note : QString());
}

void InspectView::showText(const core::PartSummary& part)
{
    if (!m_partBytes.missing.isEmpty()) {
        m_text->setPlainText(tr("(%1)").arg(m_partBytes.missing));
        return;
    }
    const QByteArray preview = app::readPartBytes(m_partBytes, 0, std::min<qint64>(qint64(part.size), kPreviewBytes));
    auto encoding = QStringConverter::encodingForName(m_encoding->currentText().toLatin1().constData());
    QStringDecoder decoder(encoding.value_or(QStringConverter::Utf8));
    QString text = decoder.decode(preview);
    // Bytes that are not text in the chosen encoding would show as a jumble of replacement marks.
    const bool utf16 = m_encoding->currentText().startsWith(QLatin1String("UTF-16"));
    if (decoder.hasError() || (!utf16 && preview.contains('\0'))) {
        m_text->setPlainText(tr("(binary, %1 bytes: see Hex, or choose another encoding)").arg(part.size));
        return;
    }
    if (m_partBytes.available < part.size && qint64(m_partBytes.available) < kPreviewBytes)
        text += tr("\n… (only the first %1 of %2 bytes were kept)").arg(m_partBytes.available).arg(part.size);
    else if (qint64(part.size) > kPreviewBytes)
        text += tr("\n… (first 64 KiB shown)");
    m_text->setPlainText(text);
}

void InspectView::rememberSentHashes(const QString& captureId, const QStringList& hashes)
{
    m_sentHashes.insert(captureId, hashes);
    if (m_result.capture && m_result.capture->id == captureId)
        m_model->setSentHashes(hashes);
}

QString InspectView::curlBlocker() const
{
    if (m_result.capture) { // a capture's plan reads nothing: made now to check it
        QString why;
        return app::resendPlanFor(m_result, m_listenerBase, {}, &why) ? QString() : why;
    }
    // Any other source is checked from its report; its parts are written out when asked (they may be large), off
    // this thread.
    return app::whyPartsCannotBeResent(m_result);
}

void InspectView::copyAsCurl()
{
    if (m_result.capture) {
        QString why;
        // To this listener, on the port it has now (the one that stored the capture may be gone).
        if (auto plan = app::resendPlanFor(m_result, m_listenerBase, {}, &why)) {
            QApplication::clipboard()->setText(plan->toCurl());
            showStatus(this, tr("Copied a curl command that sends this capture's %1 again")
                                 .arg(countOf(plan->parts.size(), tr("part"), tr("parts"))));
        } else {
            showStatus(this, tr("Copy as curl is unavailable: %1").arg(why));
        }
        return;
    }
    showStatus(this, tr("Writing the parts a curl command sends…"));
    emit copyCurlRequested(m_result);
}

void InspectView::askForBoundary()
{
    bool ok = false;
    QString value = QInputDialog::getText(
        this, tr("Boundary needed"),
        tr("No delimiter line was found at the start of %1.\nEnter its Content-Type header value or just "
           "the boundary:")
            .arg(m_result.title),
        QLineEdit::Normal, QStringLiteral("multipart/form-data; boundary="), &ok);
    if (!ok || value.trimmed().isEmpty())
        return;
    if (!value.contains(QLatin1Char('/')))
        value = QStringLiteral("multipart/form-data; boundary=") + value.trimmed();
    emit openRequested(m_result.path, value);
}

void InspectView::showHexAt(quint64 bodyOffset)
{
    if (m_wholeBody.available > 0) {
        showHex(m_wholeBody, bodyOffset, {});
    } else if (const core::PartSummary* holder = partHolding(m_result.report.parts, bodyOffset)) {
        showHex(app::locatePart(m_result, *holder), bodyOffset - holder->bodyOffset,
                tr("part %1, offsets from its first byte (no whole body was kept); body offset %2 is %3 here")
                    .arg(holder->index)
                    .arg(bodyOffset)
                    .arg(bodyOffset - holder->bodyOffset));
    } else {
        m_hex->setPlainText(
            tr("(body offset %1 is not inside a kept part, and no whole body was kept)").arg(bodyOffset));
    }
    if (sender() == m_diagnostics)
        m_tabs->setCurrentWidget(m_hex);
}

void InspectView::showHex(const app::PartBytes& source, quint64 at, const QString& note)
{
    const quint64 start = at > quint64(kHexBytes / 4) ? (at - quint64(kHexBytes / 4)) & ~quint64(15) : 0;
    const QByteArray window = app::readPartBytes(source, start, kHexBytes);
    QString text = !source.missing.isEmpty() ? tr("(%1)").arg(source.missing)
                   : window.isEmpty()        ? tr("(no bytes at offset %1)").arg(at)
                                             : hexDump(window, start, at);
    m_hex->setPlainText(note.isEmpty() ? text : QStringLiteral("# %1\n%2").arg(note, text));
    // The marked line in the middle of the view: the window starts up to 1 KiB before it, past what shows.
    if (!window.isEmpty()) {
        const int line = int((at - start) / 16) + (note.isEmpty() ? 0 : 1);
        m_hex->setTextCursor(QTextCursor(m_hex->document()->findBlockByNumber(line)));
        m_hex->centerCursor();
    }
}

void InspectView::saveParts(const QList<QPair<const core::PartSummary*, QString>>& targets)
{
    QList<app::PartCopy> copies;
    QStringList partial;
    for (const auto& [part, target] : targets) {
        copies.append({app::locatePart(m_result, m_model->report(), *part), target});
        if (!part->complete || copies.last().source.available < part->size)
            partial << QFileInfo(target).fileName();
    }
    startSaving(copies, partial);
}

void InspectView::startSaving(const QList<app::PartCopy>& copies, const QStringList& partial)
{
    m_partialSaves = partial;
    // What the status bar names when it is done: the file, or how many went into which folder.
    m_saving = copies.size() == 1 ? QDir::toNativeSeparators(copies.first().target)
                                  : tr("%1 parts into %2")
                                        .arg(copies.size())
                                        .arg(QDir::toNativeSeparators(QFileInfo(copies.first().target).path()));
    m_savePart->setEnabled(false);
    m_saveAll->setEnabled(false);
    m_titleBeforeSave = m_title->fullText();
    m_title->setFullText(tr("Saving %1…").arg(m_saving));
    emit savePartsRequested(copies);
}

void InspectView::onPartsSaved(int count, const QStringList& failures)
{
    m_savePart->setEnabled(m_partBytes.missing.isEmpty() && m_tree->currentIndex().isValid());
    m_saveAll->setEnabled(true);
    if (m_title->fullText().startsWith(tr("Saving"))) // not when another file was opened meanwhile
        m_title->setFullText(m_titleBeforeSave);
    if (failures.isEmpty())
        showStatus(this, tr("Saved %1").arg(m_saving.isEmpty() ? countOf(count, tr("part"), tr("parts")) : m_saving));
    if (failures.isEmpty() && !m_partialSaves.isEmpty()) // written, but the user should know they are not whole
        QMessageBox::information(this, tr("Save parts"),
                                 tr("Saved. These parts did not arrive whole, so their files hold only the bytes "
                                    "that were kept:\n%1")
                                     .arg(m_partialSaves.join(QLatin1Char('\n'))));
    if (!failures.isEmpty())
        QMessageBox::warning(this, tr("Save parts"),
                             tr("%1 of %2 parts could not be written:\n%3")
                                 .arg(failures.size())
                                 .arg(count)
                                 .arg(failures.join(QLatin1Char('\n'))));
}

void InspectView::savePart()
{
    if (m_model->isRequest(m_tree->currentIndex())) {
        const bool bodyOnly = m_result.capture && m_partBytes.before.isEmpty(); // no head.raw kept
        const QString target =
            QFileDialog::getSaveFileName(this, bodyOnly ? tr("Save the body") : tr("Save the request"),
                                         bodyOnly ? QStringLiteral("body.bin") : QStringLiteral("request.http"));
        if (target.isEmpty())
            return;
        startSaving({{m_partBytes, target}}, {});
        return;
    }
    const core::PartSummary* part = m_model->part(m_tree->currentIndex());
    if (!part)
        return;
    QString suggested =
        QFileInfo(QString::fromStdString(part->filename.value_or(part->name.value_or("part")))).fileName();
    QString target = QFileDialog::getSaveFileName(this, tr("Save part"), suggested);
    if (!target.isEmpty())
        saveParts({{part, target}});
}

void InspectView::saveAllParts()
{
    QString dir = QFileDialog::getExistingDirectory(this, tr("Save all parts into"));
    if (dir.isEmpty())
        return;
    QList<QPair<const core::PartSummary*, QString>> targets;
    for (const auto& part : m_model->report().parts) {
        if (!app::locatePart(m_result, m_model->report(), part).missing.isEmpty())
            continue; // not kept: nothing to save
        QString name = QFileInfo(QString::fromStdString(part.filename.value_or(part.name.value_or("part")))).fileName();
        targets.append(
            {&part, QDir(dir).filePath(QStringLiteral("%1-%2").arg(part.index, 3, 10, QLatin1Char('0')).arg(name))});
    }
    saveParts(targets);
}

} // namespace upin::ui
