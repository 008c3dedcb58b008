#include "views/send_view.h"
#include "status_colors.h"

#include "charts/chart_export.h"
#include "charts/throughput_chart.h"
#include "common/byte_size.h"
#include "common/option_rules.h"
#include "common/qt_text.h"
#include "sender/run_report.h"
#include "views/run_list.h"
#include "views/status_line.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QFileDialog>
#include <QGridLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace upin::ui {

SendView::SendView(QWidget* parent)
    : QWidget(parent), m_parts(new PlanPartsModel(this)), m_table(new TabToEditable<QTableView>),
      m_target(new QComboBox), m_runs(new QSpinBox), m_chunked(new QCheckBox(tr("Chunked"))),
      m_expect(new QCheckBox(tr("Expect: 100-continue"))),
      m_insecure(new QCheckBox(tr("Don't check https certificates"))), m_hash(new QComboBox),
      m_send(new QPushButton(tr("Send"))), m_cancel(new QPushButton(tr("Cancel"))), m_progress(new QProgressBar),
      m_rate(new QLabel), m_runList(new RunList), m_chart(new ThroughputChart)
{
    setAcceptDrops(true);
    setUpTarget();
    setUpOptions();
    connect(m_send, &QPushButton::clicked, this, &SendView::startSend);
    connect(m_cancel, &QPushButton::clicked, this, &SendView::cancelRequested);
    m_chart->setMinimumWidth(360); // room for its axis labels beside the runs
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("sendSplitter"));
    split->addWidget(makePlanHalf());
    split->addWidget(makeResultsHalf());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    setBusy(false);
}

// The method, the target URL, and the headers the plan sends.
void SendView::setUpTarget()
{
    m_method = new QComboBox;
    m_method->setObjectName(QStringLiteral("sendMethod"));
    m_method->addItems({QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH")});
    m_method->setToolTip(tr("The request's method: POST, or PUT and PATCH for APIs that take uploads so"));
    connect(m_method, &QComboBox::currentTextChanged, this, &SendView::planEdited);
    m_headers = new HeaderEditor;
    connect(m_headers, &HeaderEditor::changed, this, &SendView::planEdited);
    m_target->setEditable(true);
    // Matching presets in a list below, never written into the field: inline completion turned a typed
    // ".../file-part" into ".../file-part?matcher=kmp" when Enter was pressed, and the wrong endpoint was sent to.
    m_target->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_target->setObjectName(QStringLiteral("sendTarget"));
    connect(m_target, &QComboBox::currentTextChanged, this, &SendView::planEdited); // a typed target is kept too
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_cancel->setObjectName(QStringLiteral("sendCancel"));
    m_target->setToolTip(tr("Target URL; the presets are the built-in listener's endpoints"));
    m_target->setMinimumContentsLength(40);
    m_target->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SendView::setUpOptions()
{
    m_runs->setRange(1, 1000);
    m_runs->setPrefix(tr("runs: "));
    for (core::HashKind kind : core::kHashNames.values())
        m_hash->addItem(kind == core::HashKind::None ? tr("no hash") // beside the other options: say what it is
                                                     : tr("%1 hash").arg(app::toQString(core::hashTitle(kind))),
                        int(kind));
    m_hash->setObjectName(QStringLiteral("sendHash"));
    m_hash->setToolTip(tr("The digest of each part while it streams, compared with the listener's answer.\n"
                          "SHA-256: what sha256sum prints. XXH3-128: an integrity check about ten times faster,\n"
                          "for big uploads at full speed (xxh128sum prints it)."));
    m_chunked->setToolTip(tr("Transfer-Encoding: chunked instead of Content-Length"));
    m_insecure->setObjectName(QStringLiteral("sendInsecure"));
    m_insecure->setToolTip(
        tr("https: send even when the server's certificate cannot be checked (self-signed, expired,\n"
           "another name), as curl --insecure does. Every run says so. Our own HTTPS listener's\n"
           "certificate is trusted without this, on its port, as localhost, 127.0.0.1 or ::1."));
}

void SendView::startSend()
{
    if (const QString problem = m_headers->problem(); !problem.isEmpty()) {
        showStatus(this, tr("Not sent: %1 (Headers tab)").arg(problem));
        return;
    }
    if (m_parts->parts().isEmpty() || m_target->currentText().isEmpty()) {
        showStatus(this, m_parts->parts().isEmpty() ? tr("Nothing to send: add a file, a field or a synthetic part")
                                                    : tr("Nothing to send to: choose a target URL"));
        return;
    }
    if (const QString wrong = app::checkHttpUrl(m_target->currentText()); !wrong.isEmpty()) {
        showStatus(this, tr("Not sent: Target %1: %2").arg(m_target->currentText().trimmed(), wrong));
        return;
    }
    // The session's runs stay (Clear runs empties them); the last send's answer and chart go.
    m_runList->sendBegins();
    m_chart->setSent({});
    m_chart->setReceived({});
    setBusy(true);
    m_runClock.start();
    m_liveSamples.clear();
    m_sendingTo = m_target->currentText();
    emit sendRequested(plan());
}

// Target, runs, framing, hash and the buttons that act on the session's runs.
QGridLayout* SendView::makeOptionsGrid()
{
    auto* exportButton = new QPushButton(tr("E&xport…"));
    exportButton->setToolTip(tr("Save this session's runs as CSV and JSON and the throughput chart as PNG"));
    connect(exportButton, &QPushButton::clicked, this, &SendView::exportRuns);
    auto* curl = new QPushButton(tr("Copy as c&url"));
    connect(curl, &QPushButton::clicked, this, &SendView::copyAsCurl);
    m_send->setShortcut(QKeySequence(QStringLiteral("Ctrl+Return")));
    m_send->setToolTip(tr("Send (Ctrl+Enter)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    auto* options = new QGridLayout;
    options->addWidget(new QLabel(tr("Target")), 0, 0);
    auto* targetRow = new QHBoxLayout; // the method as wide as its word, the URL the rest
    targetRow->addWidget(m_method);
    targetRow->addWidget(m_target, 1);
    options->addLayout(targetRow, 0, 1, 1, 5);
    options->addWidget(m_runs, 1, 0);
    options->addWidget(m_chunked, 1, 1);
    options->addWidget(m_expect, 1, 2);
    options->addWidget(m_hash, 1, 3);
    options->addWidget(curl, 1, 4);
    options->addWidget(exportButton, 1, 5);
    options->addWidget(m_insecure, 2, 1, 1, 3);
    auto* clearRuns = new QPushButton(tr("Clear &runs"));
    clearRuns->setToolTip(tr("Remove this session's runs from the list (each send adds its own)"));
    connect(clearRuns, &QPushButton::clicked, m_runList, &RunList::clear);
    connect(clearRuns, &QPushButton::clicked, this, [this] {
        m_receivedByRun.clear();
        m_chartRun = -1;
    });
    connect(m_runList, &RunList::runChosen, this, &SendView::chartRun);
    options->addWidget(clearRuns, 2, 5);
    return options;
}

// The drop area, the plan's parts and headers, the options and the Send row.
QWidget* SendView::makePlanHalf()
{
    auto* drop =
        new QLabel(tr("Drop files here, or use the buttons. Drag rows to reorder; double-click a cell to edit."));
    drop->setAlignment(Qt::AlignCenter);
    drop->setStyleSheet(
        QStringLiteral("QLabel { border: 2px dashed #8a8f98; border-radius: 6px; padding: 10px; color: #4a4f58; }"));

    QGridLayout* options = makeOptionsGrid();
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_send);
    actions->addWidget(m_cancel);
    actions->addWidget(m_progress, 1);
    actions->addWidget(m_rate);

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(drop);
    // Parts and headers share the room above the options: most sends need no header.
    auto* planTabs = new QTabWidget;
    planTabs->setObjectName(QStringLiteral("sendPlanTabs"));
    planTabs->addTab(makePartsPage(), tr("Parts"));
    planTabs->addTab(m_headers, tr("Headers"));
    connect(m_headers, &HeaderEditor::changed, planTabs, [this, planTabs] {
        qsizetype sent = 0;
        for (const auto& h : m_headers->headers())
            sent += h.enabled ? 1 : 0;
        planTabs->setTabText(1, sent > 0 ? tr("Headers (%1)").arg(sent) : tr("Headers"));
    });
    topLayout->addWidget(planTabs, 1);
    topLayout->addLayout(options);
    topLayout->addLayout(actions);
    return top;
}

// The session's runs beside the throughput chart.
QWidget* SendView::makeResultsHalf()
{
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setObjectName(QStringLiteral("sendResultsSplitter"));
    bottom->addWidget(m_runList);
    bottom->addWidget(m_chart);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({500, 500}); // halves from the start: the chart's legend fits at 1024 px
    return bottom;
}

// The listener may have moved to another port (the preferred one was busy): presets and remembered targets that
// point at a local listener's endpoint on another port are dead, so they follow it, and the current target too.
void SendView::setListenerBase(const QString& base)
{
    m_listenerBase = base;
    const QUrl listener(base);
    const auto followsListener = [&](const QString& text) {
        const QUrl url(text);
        const bool local = url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("localhost");
        if (!local || url.port() == listener.port() ||
            (!m_forwarderBase.isEmpty() && url.port() == QUrl(m_forwarderBase).port()))
            return QString(); // not a listener's, or the forwarder's (forward mode passes any path on)
        for (const char* path : {"/file-part", "/part-event", "/capture", "/discard"})
            if (url.path() == QLatin1String(path)) {
                QUrl moved = url;
                moved.setHost(listener.host());
                moved.setPort(listener.port());
                return moved.toString();
            }
        return QString();
    };
    QString current = m_target->currentText();
    if (const QString moved = followsListener(current); !moved.isEmpty())
        current = moved;
    for (int i = m_target->count() - 1; i >= 0; --i)
        if (!followsListener(m_target->itemText(i)).isEmpty())
            m_target->removeItem(i);
    for (const char* path : {"/file-part", "/part-event", "/capture", "/discard", "/file-part?matcher=kmp"}) {
        QString url = base + QLatin1String(path);
        if (m_target->findText(url) < 0)
            m_target->addItem(url);
    }
    if (current.isEmpty())
        m_target->setCurrentIndex(0);
    else
        m_target->setCurrentText(current);
}

void SendView::setTlsListener(const QString& base, const QString& certificatePath)
{
    m_tlsBase = base;
    m_tlsCertificate = certificatePath;
    if (base.isEmpty())
        return;
    for (const char* path : {"/file-part", "/part-event"}) {
        const QString url = base + QLatin1String(path);
        if (m_target->findText(url) < 0)
            m_target->addItem(url);
    }
}

void SendView::setForwarderBase(const QString& base)
{
    // The last forwarder's presets go with it (the target on show stays: the user may have chosen it).
    for (int i = m_target->count() - 1; !m_forwarderBase.isEmpty() && i >= 0; --i)
        if (m_target->itemText(i).startsWith(m_forwarderBase + QLatin1Char('/')) && i != m_target->currentIndex())
            m_target->removeItem(i);
    m_forwarderBase = base;
    for (const char* path : {"/file-part", "/discard"}) { // through the forwarder: compared with sending directly
        const QString url = base + QLatin1String(path);
        if (!base.isEmpty() && m_target->findText(url) < 0)
            m_target->addItem(url);
    }
}

void SendView::setTargets(const QStringList& urls)
{
    for (auto it = urls.rbegin(); it != urls.rend(); ++it)
        if (m_target->findText(*it) < 0)
            m_target->insertItem(0, *it);
    if (!urls.isEmpty())
        m_target->setCurrentText(urls.first());
}

QStringList SendView::targets() const
{
    QStringList out{m_target->currentText()};
    for (int i = 0; i < m_target->count() && out.size() < 10; ++i)
        if (!out.contains(m_target->itemText(i)))
            out << m_target->itemText(i);
    return out;
}

app::UploadPlan SendView::plan() const
{
    app::UploadPlan p;
    if (!m_target->currentText().trimmed().isEmpty()) { // none typed yet: a plan without a target still restores
        QUrl target(m_target->currentText().trimmed()); // as typed when it is no URL to send to (Send says why)
        app::checkHttpUrl(m_target->currentText(), &target);
        p.targets = {target};
    }
    p.parts = m_parts->parts();
    p.method = m_method->currentText();
    p.headers = m_headers->headers();
    p.runs = m_runs->value();
    p.chunked = m_chunked->isChecked();
    p.expectContinue = m_expect->isChecked();
    p.insecure = m_insecure->isChecked();
    p.hash = core::HashKind(m_hash->currentData().toInt());
    // Our own HTTPS listener's certificate is self-signed: trusted here, for it alone (any name it is made for,
    // on its port), as curl --cacert would.
    const QUrl target = p.targets.value(0);
    const QString host = target.host();
    if (!m_tlsBase.isEmpty() && target.scheme() == QLatin1String("https") && target.port() == QUrl(m_tlsBase).port() &&
        (host == QLatin1String("localhost") || host == QLatin1String("127.0.0.1") || host == QLatin1String("::1")))
        p.caCertificates = m_tlsCertificate;
    return p;
}

void SendView::copyAsCurl()
{
    QApplication::clipboard()->setText(plan().toCurl());
    showStatus(
        this,
        tr("Copied a curl command that sends these %1").arg(countOf(m_parts->parts().size(), tr("part"), tr("parts"))));
}

void SendView::setBusy(bool busy)
{
    if (busy) {
        m_progress->setFormat(QStringLiteral("%p%"));
        m_progress->setValue(0); // a send that fails before its first byte stops at 0 %, not at the last one's 100 %
        m_progress->setPalette(QPalette()); // the application's colours again, after a failed or cancelled send
    }
    m_send->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    if (!busy)
        m_rate->clear();
}

void SendView::onProgress(int, int run, quint64 sent, quint64 total)
{
    if (total == 0)
        return;
    // The chart follows the run as it goes (a point per 100 ms); the run's own samples replace these at its end.
    if (m_liveSamples.isEmpty()) { // a new run: the last run's received curve is not this one's
        m_chart->setReceived({});
        m_chartRun = run;
        // Its clock starts with its first bytes, as the listener's does with the head: both lines then share a
        // time base (the previous run's end, or a slow connect, would put the sent line late, below received).
        m_runClock.start();
    }
    const qint64 now = m_runClock.elapsed();
    if (m_liveSamples.isEmpty() || now - m_liveSamples.last().msSinceStart >= 100 || sent == total) {
        m_liveSamples.append({now, sent});
        m_chart->setSent(m_liveSamples);
    }
    m_progress->setMaximum(1000);
    m_progress->setValue(int(sent * 1000 / total));
    double seconds = double(m_runClock.nsecsElapsed()) / 1e9;
    m_runList->runProgress(run, m_sendingTo, sent, total, seconds);
    double rate = seconds > 0 ? double(sent) / 1e6 / seconds : 0;
    double left = rate > 0 ? double(total - sent) / 1e6 / rate : 0;
    m_rate->setText(tr("run %1: %2 MB/s, %3 s left").arg(run + 1).arg(rate, 0, 'f', 0).arg(left, 0, 'f', 1));
}

void SendView::onRunFinished(const app::RunResult& r)
{
    m_runClock.start();
    m_liveSamples.clear();
    m_runList->addRun(r);
    chartRun(m_runList->table()->currentRow()); // the run whose answer shows: the send's first, or a failure
}

// The chart shows the run whose answer shows: after a send of three runs it drew the third beside the first's answer.
void SendView::chartRun(int index)
{
    if (index < 0 || index >= m_runList->runs().size())
        return;
    const app::RunResult& r = m_runList->runs()[index];
    m_chartRun = r.run;
    // The sent line ends when the run did (samples come every 100 ms: a short run has one at most).
    QList<app::ThroughputSample> upload = r.upload;
    const qint64 endMs = qint64(r.totalSeconds * 1000);
    if (r.totalSeconds > 0 && (upload.isEmpty() || upload.last().msSinceStart < endMs))
        upload.append({endMs, r.bytesSent});
    m_chart->setSent(upload);
    m_chart->setReceived(m_receivedByRun.value(r.run));
}

void SendView::exportRuns()
{
    QString base =
        QFileDialog::getSaveFileName(this, tr("Export runs (writes .csv, .json and .png)"), QStringLiteral("runs"));
    if (base.isEmpty())
        return;
    base = exportBase(base);
    saveExports(this, {{base + QStringLiteral(".csv"), app::runsToCsv(m_runList->runs()).toUtf8()},
                       {base + QStringLiteral(".json"), QJsonDocument(app::runsToJson(m_runList->runs())).toJson()},
                       {base + QStringLiteral(".png"), pngBytes(m_chart->grab().toImage())}});
}

void SendView::onFinished(const QList<app::RunResult>& results)
{
    setBusy(false);
    m_runList->dropUnfinished();
    if (results.isEmpty())
        return;
    // A full bar only for a send that went through; one that was cancelled, failed or answered early says so
    // where the bar stopped, in grey or red.
    const app::RunResult& last = results.last();
    QColor stopped;
    if (last.cancelled || !last.error.isEmpty()) {
        m_progress->setFormat(last.cancelled ? tr("cancelled at %p%") : tr("failed: %1").arg(last.error));
        stopped = last.cancelled ? status::muted() : status::failure();
    } else if (last.answeredEarly) { // the server answered before the body was sent, and sending stopped
        m_progress->setMaximum(1000);
        m_progress->setValue(last.bodyBytes > 0 ? int(last.bytesSent * 1000 / last.bodyBytes) : 0);
        m_progress->setFormat(tr("answered %1 at %p%: the rest was not sent")
                                  .arg(QString::fromUtf8(last.statusLine.mid(last.statusLine.indexOf(' ') + 1))));
        if (last.httpStatus >= 400)
            stopped = status::failure();
    } else {
        m_progress->setValue(m_progress->maximum());
    }
    if (stopped.isValid()) {
        QPalette palette = m_progress->palette();
        palette.setColor(QPalette::Highlight, stopped);
        m_progress->setPalette(palette);
    }
}

void SendView::setReceivedSamples(const QList<app::ThroughputSample>& samples, int run)
{
    m_receivedByRun[run] = samples;
    if (run == m_chartRun)
        m_chart->setReceived(samples);
}

} // namespace upin::ui
