#pragma once
// Inspect: the parts of a capture or an opened file as a tree, the selected part's headers, text and hex
// previews read lazily from disk (fine for multi-GB bodies), and the diagnostics, where choosing one moves the hex
// view to its byte. Save part / Save all parts ask the inspect worker to copy from disk, in pieces.

#include "inspect/inspect_types.h"
#include "models/part_tree_model.h"

#include <QWidget>

class QLabel;
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

class InspectView final : public QWidget {
    Q_OBJECT
public:
    explicit InspectView(QWidget* parent = nullptr);
    PartTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QListWidget* diagnostics() const { return m_diagnostics; }
    QPlainTextEdit* hex() const { return m_hex; }
    QTableWidget* headers() const { return m_headers; }
    QPlainTextEdit* text() const { return m_text; }
    QLabel* image() const { return m_image; }
    QString title() const; // the whole title line, however much of it fits
    QPushButton* copyCurlButton() const { return m_copyCurl; }
    QPushButton* savePartButton() const { return m_savePart; }
    void openDialog();
    void openCaptureDialog(const QString& capturesRoot); // a folder dialog: file dialogs walk into folders

public slots:
    void setProgress(qint64 done, qint64 total);
    void showResult(const upin::app::InspectResult& result);
    // The hex view at a body offset: in the whole body when one was kept, else inside the part that holds it.
    void showHexAt(quint64 bodyOffset);
    // What our sender sent for a capture (by its id): the Sent column compares each part's hash.
    void rememberSentHashes(const QString& captureId, const QStringList& hashes);
    void setListenerBase(const QString& base) { m_listenerBase = base; }
    void onPartsSaved(int count, const QStringList& failures);

signals:
    void openRequested(const QString& path, const QString& contentType); // contentType empty: from the file
    void cancelRequested();
    void savePartsRequested(const QList<upin::app::PartCopy>& copies);
    // Copy as curl for a source that is not a capture: its parts are written to SOURCE.parts first, off the GUI
    // thread (a capture's command is made at once: its parts are files already).
    void copyCurlRequested(const upin::app::InspectResult& source);

private:
    void showPart(const core::PartSummary* part);
    void showRequest(); // the Request row: its fields, framing, client and timings, and its stored bytes
    const app::HarEntry* harEntryOf(const core::PartSummary& part) const; // a HAR file's request node, or null
    // Header lines of this part that did not parse, from the diagnostics inside its header block.
    void addUnparsedHeaderLines(const core::PartSummary& part);
    void showText(const core::PartSummary& part);
    void askForBoundary();
    void copyAsCurl();
    void showHex(const app::PartBytes& source, quint64 at, const QString& note);
    // Why Copy as curl cannot re-send this capture; empty when it can.
    QString curlBlocker() const;
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
    QPlainTextEdit* m_hex;
    QListWidget* m_diagnostics;
    QComboBox* m_encoding;
    QLabel* m_image;
    app::InspectResult m_result;
    app::PartBytes m_wholeBody; // the body file, when the source kept the whole body with mappable offsets
    app::PartBytes m_partBytes; // the selected part's bytes
    QHash<QString, QStringList> m_sentHashes;
    QString m_listenerBase = QStringLiteral("http://127.0.0.1:8080");
    QPushButton* m_copyCurl = nullptr;
    QString m_titleBeforeSave;
    QStringList m_partialSaves; // file names of the parts being saved that are not whole
    QString m_saving;           // what is being saved, as the status bar will name it
};

} // namespace upin::ui
