#pragma once
// Send: a drop zone and editable table of parts, targets with presets for the built-in endpoints, runs and
// framing options, Send and Cancel, progress with MB/s and time left, "Copy as curl", per-run results and the
// throughput chart. Emits the plan; the sender runs elsewhere.

#include "models/plan_parts_model.h"
#include "sender/run_types.h"
#include "sender/upload_plan.h"
#include "views/header_editor.h"
#include "views/run_list.h"
#include "views/tab_to_editable.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTableView>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QPlainTextEdit;

namespace upin::ui {

class ThroughputChart;

class SendView final : public QWidget {
    Q_OBJECT
public:
    explicit SendView(QWidget* parent = nullptr);
    PlanPartsModel* partsModel() const { return m_parts; }
    // Adds files to the plan; paths that are not files (missing, a folder) are named in the status bar.
    void addFiles(const QStringList& paths);
    app::UploadPlan plan() const;
    // A plan's parts and options in the tab (the last session's); its first target becomes the current one.
    // "Don't check https certificates" is never taken from it: that is the user's choice each time.
    void setPlan(const app::UploadPlan& plan);
    // setPlan for a plan that replaces the user's (what: "capture 000042's request"), with a button that puts the
    // user's back.
    void replacePlan(const app::UploadPlan& plan, const QString& what);
    void setTargets(const QStringList& urls); // history, newest first
    QStringList targets() const;
    void setListenerBase(const QString& base);
    // The listener's HTTPS side (empty base: none): its presets, and its certificate trusted for targets on it.
    void setTlsListener(const QString& base, const QString& certificatePath);
    // Forward mode's address (empty: not forwarding): presets through it, left alone when the listener moves.
    void setForwarderBase(const QString& base);
    ThroughputChart* chart() const { return m_chart; }
    QTableWidget* results() const { return m_runList->table(); }
    QPlainTextEdit* answer() const { return m_runList->answer(); }
    HeaderEditor* headerEditor() const { return m_headers; }

public slots:
    void onProgress(int targetIndex, int run, quint64 sent, quint64 total);
    void onRunFinished(const upin::app::RunResult& result);
    void onFinished(const QList<upin::app::RunResult>& results);
    // What the listener received of a run (numbered through the session, as RunResult::run).
    void setReceivedSamples(const QList<upin::app::ThroughputSample>& samples, int run);

signals:
    void sendRequested(const upin::app::UploadPlan& plan);
    void cancelRequested();
    void planEdited(); // the method or a header changed (parts: the parts model's own signals)

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* makePartsPage(); // send_parts.cpp, as the part actions are
    void setUpTarget();
    void setUpOptions();
    QWidget* makePlanHalf();
    QGridLayout* makeOptionsGrid();
    QWidget* makeResultsHalf();
    void startSend(); // Send: the plan checked, then sendRequested
    void addFilesDialog();
    void addField();
    void addSynthetic();
    void copyAsCurl();
    void exportRuns();
    void setBusy(bool busy);
    void chartRun(int index); // the chart draws this finished run (its sent and received lines)

    PlanPartsModel* m_parts;
    TabToEditable<QTableView>* m_table;
    QComboBox* m_target;
    QComboBox* m_method;
    HeaderEditor* m_headers;
    QSpinBox* m_runs;
    QCheckBox* m_chunked;
    QCheckBox* m_expect;
    QCheckBox* m_insecure; // https: the server's certificate not checked (--insecure)
    QComboBox* m_hash;     // the plan's hash: SHA-256, XXH3-128 or none
    QPushButton* m_send;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_rate;
    RunList* m_runList; // this session's runs, and the selected one's answer
    ThroughputChart* m_chart;
    QString m_listenerBase;
    QString m_forwarderBase;
    QString m_tlsBase;        // "https://localhost:8443" when the listener serves HTTPS
    QString m_tlsCertificate; // its certificate, trusted for targets on it
    QElapsedTimer m_runClock;
    QString m_sendingTo;                                      // the target of the send going on, as its rows show it
    QList<app::ThroughputSample> m_liveSamples;               // the current run's progress, drawn while it goes
    QHash<int, QList<app::ThroughputSample>> m_receivedByRun; // the listener's side of each run, by RunResult::run
    int m_chartRun = -1;                                      // the run the chart draws, by RunResult::run
    QPushButton* m_putBack = nullptr;                         // after replacePlan: the user's plan back
    app::UploadPlan m_planBefore;
};

} // namespace upin::ui
