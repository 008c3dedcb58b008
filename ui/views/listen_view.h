#pragma once
// Listen: start and stop the built-in listener, copyable curl examples per endpoint, the Forward panel (forward
// mode: requests passed on to the user's own server), the Proxy row (proxy_panel.h), and the live list of
// captures. Emits intents; never touches a socket.

#include "capture/stored_captures.h"
#include "models/capture_list_model.h"
#include "views/listener_settings_dialog.h"

#include <QWidget>

class QSplitter;
class QHBoxLayout;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace upin::ui {

class CaptureFilter;
class PartTimelineChart;

class ElidedLabel;
class ProxyPanel;
class TlsTrust;

class ListenView final : public QWidget {
    Q_OBJECT
public:
    QPlainTextEdit* examples() const { return m_examples; } // the curl lines a user pastes
    explicit ListenView(QWidget* parent = nullptr);
    CaptureListModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filter() const { return m_filter; }
    PartTimelineChart* timeline() const { return m_timeline; }
    ProxyPanel* proxyPanel() const { return m_proxy; }

public slots:
    void setListening(bool listening, const QString& address, quint16 port, const QString& captureRoot);
    // How much the captures folder holds, and the size it is kept to (0: no limit): said beside its path.
    void setFolderUsage(quint64 bytes, quint64 limit);
    // The listener's HTTPS side, after setListening: its address and certificate in the status and the examples.
    void setTls(const QString& base, const QString& certificatePath, const QString& fingerprint);
    void applyEvents(const QList<upin::app::CaptureEvent>& batch);
    // Captures earlier sessions stored, a batch at a time (newest batch first): listed above the live ones, and a
    // list that showed its newest row still does.
    void addStored(const QList<upin::app::CaptureSummary>& batch);
    void setSettings(const ListenerSettings& settings) { m_settings = settings; }
    // The Forward panel: what it starts with (remembered), then whether a forwarder runs (base: its address) or why
    // it could not start (error).
    void setForwardDefaults(const QString& upstream, quint16 port, const QString& caFile);
    void setForwarding(bool forwarding, const QString& base, const QString& upstream, const QString& error = {});

signals:
    void startRequested(quint16 port);
    void captureFolderChosen(const QString& folder);
    void stopRequested();
    void captureActivated(const QString& folder);
    void unstoredCaptureActivated(const upin::app::CaptureRecord& record); // no folder: its record
    void refusedActivated(quint64 id, const QString& inWords); // its record is read from the captures folder
    void curlRequested(const QString& folder);                 // Copy as curl from a row's menu
    void resendRequested(const QString& folder);               // Resend: into the Send tab, to edit
    void harExportRequested(const QStringList& folders, const QString& path); // Export HAR, the file chosen
    void deleteRequested(const QString& folder); // confirmed; the row is already off the list
    void settingsChosen(const ListenerSettings& settings);
    // keepWholeRequests: each request's head and body stored as they came (forward --keep-raw).
    void forwardRequested(const upin::app::ForwardSettings& settings, quint16 port, bool keepWholeRequests);
    void forwardStopRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    // The constructor's parts (listen_view_parts.cpp).
    QHBoxLayout* makeTopRow();
    void setUpExamples();
    void setUpFilter();
    void setUpTable();
    QSplitter* makePanes();
    void showListeningStatus();
    void openRow(int row); // rows of m_model
    int sourceRow(const QModelIndex& tableIndex) const;
    int timelineRow() const; // the capture the timeline draws, a row of m_model; -1 for none
    void fitRowHeightsSoon();
    void fitRowHeights(int first, int last); // a State longer than its column on a second line of its row
    void showRowMenu(const QPoint& at);      // listen_row_menu.cpp, with the two below
    QStringList listedFolders() const;       // the stored captures the filtered list shows, in its order
    void askHarFile(const QStringList& folders);
    QLayout* makeForwardPanel();
    void showForwardExample();
    void applyFilter(const QString& text); // the filter's terms (models/capture_filter.h), and what it says of them
    void showFilterNote();

    CaptureListModel* m_model;
    CaptureFilter* m_filtered;
    QLineEdit* m_filter;
    ElidedLabel* m_filterNote; // a term that cannot be read, or how many probe uploads are hidden
    QTableView* m_table;
    QSpinBox* m_port;
    QPushButton* m_toggle;
    ElidedLabel* m_status;
    QLabel* m_tlsTrouble; // failed handshakes and what to do, shown while there are any
    QPlainTextEdit* m_examples;
    PartTimelineChart* m_timeline;
    bool m_listening = false;
    bool m_followNewest = true; // the list was at its bottom when rows came: it stays there
    bool m_rowHeightsQueued = false;
    QString m_statusText; // where it listens, as setListening and setTls said
    QString m_tlsDetail;  // the certificate's path and fingerprint, in the status's tooltip
    QString m_captureRoot;
    QString m_base;
    int m_failedHandshakes = 0;                 // TLS clients that did not finish their handshake, this listening
    app::CaptureSummary m_lastHandshakeFailure; // its client and why
    QString m_certificatePath;
    QString m_folderUsage; // "1.20 GiB of 5.00 GiB", once measured
    ListenerSettings m_settings;
    // The Forward panel.
    QLineEdit* m_upstream;
    QSpinBox* m_forwardPort;
    TlsTrust* m_forwardTrust; // an https upstream's certificate: a CA file, or none checked
    QCheckBox* m_forwardKeep; // store the parts' bytes, so that Inspect can show them
    QCheckBox* m_forwardKeepRequests;
    QPushButton* m_forwardToggle;
    ElidedLabel* m_forwardStatus;
    QLabel* m_forwardError;
    QString m_forwardExample; // a curl line through the forwarder, among the examples while it runs
    bool m_forwarding = false;
    ProxyPanel* m_proxy;
};

} // namespace upin::ui
