#include "views/inspect_view.h"
#include "common/byte_size.h"
#include "common/qt_text.h"
#include "status_colors.h"
#include "views/answer_text.h"
#include "views/elided_label.h"
#include "views/fitted_columns.h"
#include "views/frames_view.h"
#include "views/hex_view.h"
#include "views/request_text.h"

#include "capture/outcome.h"
#include "views/status_line.h"

#include "inspect/part_bytes.h"
#include "sender/upload_plan.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace upin::ui {

InspectView::InspectView(QWidget* parent)
    : QWidget(parent), m_model(new PartTreeModel(this)), m_tree(new QTreeView),
      m_title(new ElidedLabel(tr("Nothing open: double-click a capture in Listen, or Open… a request body, a whole "
                                 "request, a HAR file (Ctrl+O) or a capture folder (Ctrl+Shift+O)"))),
      m_progress(new QProgressBar), m_cancel(new QPushButton(tr("Cancel"))),
      m_savePart(new QPushButton(tr("Save &part…"))), m_saveAll(new QPushButton(tr("Save &all parts…"))),
      m_tabs(new QTabWidget), m_headers(new QTableWidget(0, 2)), m_text(new QPlainTextEdit),
      m_answer(new QPlainTextEdit), m_frames(new FramesView), m_hexPane(new HexPane), m_hex(m_hexPane->view()),
      m_decode(new QCheckBox), m_diagnostics(new QListWidget), m_encoding(new QComboBox), m_image(new QLabel),
      m_copyCurl(new QPushButton(tr("Copy as c&url")))
{
    setAcceptDrops(true);
    QHBoxLayout* top = makeButtonRow();
    setUpTree();
    setUpPreviews();
    setUpDiagnostics();
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_tabs);
    right->addWidget(m_diagnostics);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    // A few lines for the diagnostics (a wrapping list asks for more): the previews keep the room.
    right->setSizes({600, 5 * fontMetrics().height()});
    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("inspectSplitter"));
    split->addWidget(m_tree);
    split->addWidget(right);
    // The previews as wide as a line of hex (78 columns, ASCII included), the tree the rest: at 1280 px the
    // parts' columns fit; a wider window widens both.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 500});
    split->setChildrenCollapsible(false); // the previews no narrower than a line of hex (HexView's minimum)
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    m_title->setWrapping(true); // a long verdict ("… (raise “Max field size” …) (byte 402)") and the figures whole
    layout->addWidget(m_title);
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
    m_hexPane->clearSearch();
    showFrames();
    m_model->setReport(result.report, result.request, !result.harEntries.isEmpty());
    showSentHashes(m_sentHashes.value(result.capture ? result.capture->id : 0));
    for (int row = 0; row < m_model->rowCount(); ++row) // a HAR's request rows: one line across, not cut to columns
        m_tree->setFirstColumnSpanned(row, {}, m_model->isRequestOnTop(m_model->index(row, 0)));
    m_tree->expandAll();
    const app::LimitHint how = limitHintFor(result);
    m_title->setFullText(titleOf(result, how), result.path);
    showDiagnostics(result, how);
    const auto& r = result.report;
    m_wholeBody = {};
    if (!result.bodyFile.isEmpty() && result.bodyFileOffset >= 0) {
        m_wholeBody.file = result.bodyFile;
        m_wholeBody.fileOffset = result.bodyFileOffset;
        m_wholeBody.available = r.bytes;
    }
    updateCurlButton();
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

// A capture's own state came under the listener's limits (its Settings); this parse runs under the window's (its
// command line's), unless it stopped where and why the listener stopped the capture.
app::LimitHint InspectView::limitHintFor(const app::InspectResult& result)
{
    const auto& r = result.report;
    const bool stoppedAsCaptured = result.capture && result.capture->error && r.error &&
                                   result.capture->error->code == r.error->code &&
                                   result.capture->error->offset == r.error->offset;
    return stoppedAsCaptured ? app::LimitHint::ListenSettings : app::LimitHint::WindowFlag;
}

// The verdict before the details (when the window is narrow, the end of the line is what is cut), the cause
// first: a capture's own state and why, else what the parse found.
QString InspectView::titleOf(const app::InspectResult& result, app::LimitHint how)
{
    const auto& r = result.report;
    const auto& forward = result.capture ? result.capture->forward : std::nullopt;
    // As the Listen list says it: the server's refusal or silence, whatever the relay's own state.
    const QString serverFailed =
        forward ? app::serverFailedInWords(forward->status, forward->fault ? forward->fault->status : 0,
                                           result.capture->state)
                : QString();
    const QString state = result.cancelled          ? tr("cancelled")
                          : !result.error.isEmpty() ? result.error
                          : !serverFailed.isEmpty() ? serverFailed
                          : result.capture && !result.capture->ok()
                              ? app::outcomeInWords(result.capture->state, result.capture->error,
                                                    result.capture->errorInWords(), app::LimitHint::ListenSettings)
                              : app::parseOutcomeInWords(r, result.request.contentLength, how);
    // A HAR file's nodes are its requests, each with its own boundary: say what it holds instead.
    const QString contents = !result.harEntries.isEmpty()
                                 ? tr("%1, %2").arg(app::harSummary(result.harEntries, r), app::formatBytes(r.bytes))
                                 : tr("%1, %2, boundary \"%3\"")
                                       .arg(countOf(qsizetype(r.parts.size()), tr("part"), tr("parts")),
                                            app::formatBytes(r.bytes), QString::fromStdString(r.boundary));
    // A source that could not be read at all has no contents to count: its error is the whole story.
    return result.error.isEmpty() ? tr("%1 — %2 — %3").arg(result.title, state, contents)
                                  : tr("%1 — %2").arg(result.title, state);
}

// Each diagnostic at its byte, with its level; the error last; or why the list is empty.
void InspectView::showDiagnostics(const app::InspectResult& result, app::LimitHint how)
{
    const auto& r = result.report;
    m_diagnostics->clear();
    // Each line with its level, as Wireshark's expert info has them: an icon, a colour and a tooltip in words.
    const auto level = [this](QListWidgetItem* item, QStyle::StandardPixmap icon, const QColor& colour,
                              const QString& meaning) {
        item->setIcon(style()->standardIcon(icon));
        item->setForeground(colour);
        item->setToolTip(meaning);
        return item;
    };
    const auto asError = [&](QListWidgetItem* item) {
        return level(item, QStyle::SP_MessageBoxCritical, status::failure(),
                     tr("error: the body could not be taken whole from here on"));
    };
    if (!result.error.isEmpty())
        asError(new QListWidgetItem(tr("ERROR %1").arg(result.error), m_diagnostics));
    const auto addAt = [this](quint64 offset, const QString& text) {
        auto* item = new QListWidgetItem(tr("@%1  %2").arg(offset).arg(text), m_diagnostics);
        item->setData(Qt::UserRole, offset);
        return item;
    };
    for (const auto& d : r.diagnostics) {
        if (app::repeatsError(r, d)) // said once, as the error below
            continue;
        QListWidgetItem* item = addAt(d.offset, app::diagnosticInWords(d, how));
        if (app::severityOf(d.code) == app::Severity::Note)
            level(item, QStyle::SP_MessageBoxInformation, status::muted(), tr("note: unusual, not wrong"));
        else
            level(item, QStyle::SP_MessageBoxWarning, status::warning(),
                  tr("warning: taken here, but some servers refuse it or read it otherwise"));
    }
    if (r.error) {
        const auto repeated = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                           [&](const core::Diagnostic& d) { return app::repeatsError(r, d); });
        const QString ioDetail = result.capture && result.capture->writeFailure
                                     ? tr(" (%1)").arg(result.capture->errorInWords())
                                     : QString();
        // The error with its value (what is missing) and, where the cause is the framing, that in words too.
        const QString words =
            r.error->code == core::Errc::BodyCutShort
                ? QStringLiteral("%1: %2").arg(app::toQString(core::codeName(r.error->code)),
                                               app::parseOutcomeInWords(r, result.request.contentLength, how))
                : app::diagnosticInWords(
                      repeated != r.diagnostics.end() ? *repeated : core::Diagnostic{r.error->code, r.error->offset},
                      how);
        asError(addAt(r.error->offset, tr("ERROR %1%2").arg(words, ioDetail)));
    }
    if (m_diagnostics->count() == 0 && result.error.isEmpty() && !result.cancelled) { // an empty list says why
        auto* none = new QListWidgetItem(tr("No diagnostics: the body parsed without a remark"));
        none->setFlags(Qt::NoItemFlags);
        m_diagnostics->addItem(none);
    }
}

void InspectView::updateCurlButton()
{
    const QString blocker = curlBlocker();
    m_copyCurl->setEnabled(blocker.isEmpty());
    m_copyCurl->setToolTip(blocker.isEmpty() ? tr("Copy a curl command that sends these parts again, with their "
                                                  "names, file names and types")
                                             : tr("Copy as curl is unavailable: %1").arg(blocker));
}

void InspectView::showPart(const core::PartSummary* part)
{
    forgetRequests();
    if (!m_result.harEntries.isEmpty())
        updateCurlButton(); // a HAR file's curl command sends the selected request's parts
    m_shownPart = part;
    m_headers->setRowCount(0);
    m_headers->clearSpans();
    m_text->setFont(font());
    m_encoding->setVisible(true);
    m_text->clear();
    m_partBytes = {};
    updateDecodeBox(part);
    if (!part) { // nothing selected (or nothing opened): no preview of an earlier part stays behind
        m_savePart->setEnabled(false);
        m_hexPage = {};
        m_hex->showMessage({});
        m_image->setPixmap({});
        m_image->setText({});
        showAnswer({});
        return;
    }
    m_partBytes = app::locatePart(m_result, m_model->report(), *part);
    m_savePart->setEnabled(m_partBytes.missing.isEmpty());
    m_savePart->setToolTip(m_partBytes.missing.isEmpty() ? tr("Save this part's bytes to a file")
                                                         : tr("Nothing to save: %1").arg(m_partBytes.missing));
    showPartHeaders(*part);
    addUnparsedHeaderLines(*part);
    chooseEncodingFor(*part);
    const app::HarEntry* entry = harEntryOf(*part);
    if (entry && part->headers.empty()) { // an empty table would look like a fault of ours
        m_headers->insertRow(0);
        auto* none = new QTableWidgetItem(tr("(none: the HAR file has no request header fields for it)"));
        none->setForeground(palette().color(QPalette::PlaceholderText));
        m_headers->setItem(0, 0, none);
        m_headers->setSpan(0, 0, 1, 2); // across both columns: the Header column is narrow
    }
    showAnswer(entry ? harAnswerText(*entry) : captureAnswer()); // a part's exchange was answered as a whole
    if (entry) {                                                 // a HAR request: its line, body and response
        m_text->setFont(QFont(QStringLiteral("monospace")));
        m_encoding->setVisible(false);
        m_text->setPlainText(describeHarEntry(*entry, *part));
    } else {
        requestText(*part);
    }
    requestImage(*part);
    showHexAt(part->bodyOffset);
}

// The part's header fields as received, a control byte spelt out, and how many the report's budget left out.
void InspectView::showPartHeaders(const core::PartSummary& part)
{
    for (const auto& [name, value] : part.headers) {
        int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(name)));
        // A control byte a client sent shows as \xNN, not as an invisible or box glyph.
        m_headers->setItem(row, 1, new QTableWidgetItem(app::withControlsSpelt(QString::fromStdString(value))));
    }
    if (part.headersNotKept > 0) { // the report's header budget ran out before this part
        int row = m_headers->rowCount();
        m_headers->insertRow(row);
        auto* note = new QTableWidgetItem(tr("%1 more not kept").arg(part.headersNotKept));
        note->setForeground(palette().color(QPalette::PlaceholderText));
        m_headers->setItem(row, 0, note);
        m_headers->setItem(row, 1,
                           new QTableWidgetItem(tr("counted, not kept: the report's header budget ran out "
                                                   "(Settings… or --max-recorded-headers)")));
    }
}

// The part's charset chooses the text encoding when it names one we offer.
void InspectView::chooseEncodingFor(const core::PartSummary& part)
{
    const QString type = QString::fromStdString(part.contentType.value_or("")).toLower();
    qsizetype charset = type.indexOf(QLatin1String("charset="));
    if (charset >= 0) {
        QSignalBlocker quiet(m_encoding); // the text is asked for once, below
        int index = m_encoding->findText(
            type.mid(charset + 8).section(QLatin1Char(';'), 0, 0).remove(QLatin1Char('"')).trimmed(),
            Qt::MatchFixedString);
        if (index >= 0)
            m_encoding->setCurrentIndex(index);
    }
}

QString InspectView::captureAnswer() const
{
    const app::CaptureRecord* capture = m_result.capture ? &*m_result.capture : nullptr;
    return !capture ? QString() : capture->forward ? forwardAnswerText(*capture->forward) : ownAnswerText(*capture);
}

void InspectView::showAnswer(const QString& text)
{
    m_answer->setPlainText(text);
    const int tab = m_tabs->indexOf(m_answer);
    m_tabs->setTabEnabled(tab, !text.isEmpty());
    m_tabs->setTabToolTip(tab, text.isEmpty() ? tr("The Request row's answer: none was kept for this one (the "
                                                   "client left, or the capture is older than answers kept)")
                                              : QString());
}

void InspectView::showFrames()
{
    const bool http2 = m_result.capture && m_result.capture->http2;
    if (http2)
        m_frames->setRecord(*m_result.capture->http2);
    const int tab = m_tabs->indexOf(m_frames);
    m_tabs->setTabEnabled(tab, http2);
    m_tabs->setTabToolTip(tab, http2 ? QString()
                                     : tr("HTTP/2 frames and flow control: for a capture of an upload that came "
                                          "over HTTP/2"));
}

const app::HarEntry* InspectView::harEntryOf(const core::PartSummary& part) const
{
    const auto& nodes = m_model->report().parts;
    for (qsizetype i = 0; i < m_result.harEntries.size() && size_t(i) < nodes.size(); ++i)
        if (&nodes[size_t(i)] == &part)
            return &m_result.harEntries[i];
    return nullptr;
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
    showAnswer(captureAnswer());
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

} // namespace upin::ui
