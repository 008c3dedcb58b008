#pragma once
// Probe: what is slow or broken in a server's upload path (app/probe). The form on the left (URL, field, headers,
// size, shapes, parallel uploads, the process whose memory to watch, budgets), Start and Cancel with the step
// under way; on the right the findings on top and the charts under them (MB/s per shape beside the baseline, the
// scaling curve, throughput and p95 against clients, RSS over time), and exports of the report as HTML, JSON and
// PNG. The probe runs on a worker thread (ProbeWiring); this view only shows values and asks.

#include "probe/probe_charts.h"
#include "probe/probe_report.h"
#include "probe/process_memory.h"

#include <QJsonObject>
#include <QTimer>
#include <QWidget>

#include <optional>

class QHBoxLayout;
class QGridLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace upin::ui {

class HeaderEditor;
class ProbeChart;
class TlsTrust;

class ProbeView final : public QWidget {
    Q_OBJECT
public:
    explicit ProbeView(QWidget* parent = nullptr);
    // The form as settings, or nullopt with *error saying which field is wrong and why.
    std::optional<app::ProbeSettings> settings(QString* error) const;
    void setTarget(const QString& url); // the URL field, while the user has not typed one
    // The form as the window remembers it between sessions (not "Don't check https certificates": chosen each time).
    QJsonObject form() const;
    void setForm(const QJsonObject& form);
    const app::ProbeReport& report() const { return m_report; }
    void exportHtmlTo(const QString& path);
    void exportJsonTo(const QString& path);
    void exportPngTo(const QString& path);
    QImage picture() const; // the findings and the charts, as exportPngTo writes them

    QLineEdit* urlEdit() const { return m_url; }
    TlsTrust* tlsTrust() const { return m_trust; }
    QLineEdit* sizeEdit() const { return m_size; }
    QLineEdit* concurrencyEdit() const { return m_concurrency; }
    const QList<QCheckBox*>& shapeBoxes() const { return m_shapes; }
    QComboBox* processBox() const { return m_process; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QListWidget* findingList() const { return m_findings; }
    QLabel* stepLabel() const { return m_step; }
    const QList<ProbeChart*>& charts() const { return m_charts; }

signals:
    void startRequested(const upin::app::ProbeSettings& settings);
    void cancelRequested();
    void processesRequested(); // the picker wants a fresh list of listening processes

public slots:
    void setProcesses(const QList<upin::app::ListeningProcess>& processes);
    void showProgress(const QString& phase, const QString& step, int done, int total);
    void showPartial(const upin::app::ProbeReport& report); // the figures so far, while it runs
    void showReport(const upin::app::ProbeReport& report);  // the probe ended (done or cancelled)
    void showError(const QString& message);                 // the probe could not start

private:
    QString fieldOf(app::ProbeSetting setting) const; // how the form names a setting the rules refused
    QWidget* makeForm();
    void makeFields(QGridLayout* shapes, QHBoxLayout* processRow);
    QWidget* makeResults();
    void start();
    void setRunning(bool running);
    void showStep(const QString& step); // with the budget's note, if any
    void draw(const app::ProbeReport& report, bool running);
    void exportAs(const QString& kind);

    QLineEdit* m_url;
    TlsTrust* m_trust;
    QComboBox* m_method;
    QLineEdit* m_field;
    HeaderEditor* m_headers;
    QLineEdit* m_size;
    QList<QCheckBox*> m_shapes;
    QLineEdit* m_concurrency;
    QCheckBox* m_scaling;
    QComboBox* m_process;
    QLineEdit* m_maxBytes;
    QLineEdit* m_maxTime;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_step;
    QString m_budgetNote; // said beside each step when the budget is under the plan
    QListWidget* m_findings;
    QWidget* m_results; // findings and charts: what the PNG shows
    QList<ProbeChart*> m_charts;
    QList<QPushButton*> m_exports;
    app::ProbeReport m_report;
    app::ProbeReport m_pending; // the latest figures, drawn when m_redraw fires
    QTimer* m_redraw;
    QList<app::ChartSpec> m_drawn; // what the charts show now
    bool m_urlTyped = false;
};

} // namespace upin::ui
