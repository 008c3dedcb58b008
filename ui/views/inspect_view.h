#pragma once
// Inspect: the parts of a capture or an opened file as a tree, the selected part's headers, text, image and hex
// previews, and the diagnostics, where choosing one moves the hex view to its byte. The view reads no file: it asks
// for the bytes each preview shows (bytesRequested, at most 64 KiB of text, a 4 KiB hex page, a 4 MiB image) and
// shows "reading…" until onBytesRead brings them; Save part / Save all parts ask the inspect worker to copy from
// disk, in pieces. A part sent base64 or quoted-printable previews and saves decoded when the user asks.
// (inspect_view.cpp: layout and the opened source; inspect_preview.cpp: the previews; inspect_actions.cpp: saving,
// Copy as curl and the parts' context menu.)

#include "common/limit_hint.h"
#include "inspect/inspect_types.h"
#include "models/part_tree_model.h"
#include "views/hex_pane.h"
#include "views/hex_view.h"

#include <QWidget>

#include <array>

class QHBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QScrollArea;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTreeView;

namespace upin::ui {

class ElidedLabel;
class FramesView;
class HexView;

class InspectView final : public QWidget {
    Q_OBJECT
public:
    explicit InspectView(QWidget* parent = nullptr);
    PartTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QListWidget* diagnostics() const { return m_diagnostics; }
    HexView* hex() const { return m_hex; }
    HexPane* hexPane() const { return m_hexPane; } // the hex view with go-to, find and the legend
    QCheckBox* decodeBox() const { return m_decode; }
    QTableWidget* headers() const { return m_headers; }
    QPlainTextEdit* text() const { return m_text; }
    QPlainTextEdit* answer() const { return m_answer; } // a forwarded exchange's or a HAR entry's answer
    FramesView* frames() const { return m_frames; }     // an HTTP/2 capture's frames and flow control
    QLabel* image() const { return m_image; }
    QString title() const; // the whole title line, however much of it fits
    QPushButton* copyCurlButton() const { return m_copyCurl; }
    QPushButton* savePartButton() const { return m_savePart; }
    void openDialog();
    void openCaptureDialog(const QString& capturesRoot); // a folder dialog: file dialogs walk into folders
    // Save all parts without its folder dialog: each part under the name the capture folder's parts/ would give it.
    void saveAllPartsInto(const QString& dir);

public slots:
    void setProgress(qint64 done, qint64 total);
    void showResult(const upin::app::InspectResult& result);
    // The hex view at a body offset: in the whole body when one was kept, else inside the part that holds it.
    void showHexAt(quint64 bodyOffset);
    // What our sender sent for a capture (by its id): the Sent column compares each part's hash.
    void rememberSentHashes(quint64 captureId, const QStringList& hashes);
    void onPartsSaved(int count, const QStringList& failures);
    void onBytesRead(const upin::app::ByteReply& reply);

signals:
    void bytesRequested(const upin::app::ByteRequest& request);          // answered by onBytesRead
    void openRequested(const QString& path, const QString& contentType); // contentType empty: from the file
    void cancelRequested();
    void savePartsRequested(const QList<upin::app::PartCopy>& copies);
    // Copy as curl for a source that is not a capture: its parts are written to SOURCE.parts first, off the GUI
    // thread (a capture's command is made at once: its parts are files already).
    void copyCurlRequested(const upin::app::InspectResult& source, int harEntry); // harEntry: -1 the first upload

private:
    // The constructor's parts (inspect_view_parts.cpp).
    QHBoxLayout* makeButtonRow();
    void setUpTree();
    void setUpPreviews();
    void setUpDiagnostics();
    void showFrames(); // the Frames tab: the open capture's HTTP/2 record, or disabled
    static app::LimitHint limitHintFor(const app::InspectResult& result);
    static QString titleOf(const app::InspectResult& result, app::LimitHint how);
    void showDiagnostics(const app::InspectResult& result, app::LimitHint how);
    void showPartHeaders(const core::PartSummary& part);
    void chooseEncodingFor(const core::PartSummary& part);
    void showPart(const core::PartSummary* part);
    void showSentHashes(const QStringList& hashes); // the Sent column, shown only for a capture of our own send
    QString captureAnswer() const; // the capture's answer as the client got it; empty when none was kept
    void showRequest();            // the Request row: its fields, framing, client and timings, and its stored bytes
    const app::HarEntry* harEntryOf(const core::PartSummary& part) const; // a HAR file's request node, or null
    // Header lines of this part that did not parse, from the diagnostics inside its header block.
    void addUnparsedHeaderLines(const core::PartSummary& part);
    void askForBoundary();
    void copyAsCurl();
    // Asks for bytes for one use; the reply of an earlier request for the same use is dropped when it comes.
    void requestBytes(app::ByteUse use, const app::PartBytes& source, quint64 offset, qint64 length,
                      core::PartEncoding decode = core::PartEncoding::Identity);
    void forgetRequests();                           // replies still to come for an earlier selection are dropped
    void requestText(const core::PartSummary& part); // decoded when the Decode box is ticked
    void requestImage(const core::PartSummary& part);
    void addUnparsedRows(const core::PartSummary& part, const QByteArray& block);
    void showText(const app::ByteReply& reply);
    void showImage(const app::ByteReply& reply);
    void showHexPage(const app::ByteReply& reply);
    void goToHex(quint64 offset); // in the offsets the hex view shows
    void findInHex(const QByteArray& needle);
    void showFound(const app::ByteReply& reply);
    void showHeaderBlock(const app::ByteReply& reply);
    void showHex(const app::PartBytes& source, quint64 at, const QString& note, const QList<HexRange>& ranges = {});
    QList<HexRange> partRanges(const core::PartSummary& part, bool partRelative) const;
    core::PartEncoding shownEncoding(const core::PartSummary& part) const; // what the Decode box undoes, if ticked
    void updateDecodeBox(const core::PartSummary* part);
    static QString decodeBoxName(core::PartEncoding encoding); // "Decode base64"
    void showPartMenu(const QPoint& at);
    void showAnswer(const QString& text); // empty: this row has no answer (the tab is disabled)
    void copyDigest();
    // Why Copy as curl cannot re-send this capture; empty when it can.
    QString curlBlocker() const;
    void updateCurlButton();
    int selectedHarEntry() const; // the HAR request of the selected part; -1 otherwise
    // Asks the worker to write parts out (a part may be gigabytes); onPartsSaved reports back.
    void saveParts(const QList<QPair<const core::PartSummary*, QString>>& targets);
    void savePart();
    // Disables the save buttons and asks the worker to write; partial names the files that will not be whole.
    void startSaving(const QList<app::PartCopy>& copies, const QStringList& partial);
    void saveAllParts();

    PartTreeModel* m_model;
    QTreeView* m_tree;
    ElidedLabel* m_title;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QPushButton* m_savePart;
    QPushButton* m_saveAll;
    QTabWidget* m_tabs;
    QTableWidget* m_headers;
    QPlainTextEdit* m_text;
    QPlainTextEdit* m_answer;
    FramesView* m_frames;
    HexPane* m_hexPane;
    HexView* m_hex; // m_hexPane's
    QCheckBox* m_decode;
    QListWidget* m_diagnostics;
    QComboBox* m_encoding;
    QLabel* m_image;
    app::InspectResult m_result;
    app::PartBytes m_wholeBody; // the body file, when the source kept the whole body with mappable offsets
    app::PartBytes m_partBytes; // the selected part's bytes
    QHash<quint64, QStringList> m_sentHashes;
    QPushButton* m_copyCurl = nullptr;
    QString m_titleBeforeSave;
    QStringList m_partialSaves; // file names of the parts being saved that are not whole
    QString m_saving;           // what is being saved, as the status bar will name it
    quint64 m_lastRequestId = 0;
    std::array<quint64, 5> m_wanted{}; // by ByteUse: the request whose reply is shown; 0: none
    const core::PartSummary* m_shownPart = nullptr;
    struct HexPage {
        app::PartBytes source; // what the hex view pages through, go-to and find included
        quint64 at = 0;
        QString note;
        QList<HexRange> ranges;
        QByteArray found; // what Find found at `at`: finding it again starts at the byte after
    } m_hexPage;          // what the hex reply on its way is for
};

} // namespace upin::ui
