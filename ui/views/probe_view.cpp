#include "views/probe_view.h"

#include "charts/chart_export.h"
#include "charts/probe_chart.h"
#include "common/byte_size.h"
#include "common/option_rules.h"
#include "probe/probe_html.h"
#include "probe/probe_runner.h"
#include "views/header_editor.h"
#include "views/tls_trust.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace upin::ui {

namespace {

QLineEdit* edit(const QString& text, const QString& tip)
{
    auto* e = new QLineEdit(text);
    e->setToolTip(tip);
    return e;
}

// An https server the probe could not reach because of its certificate: say what in the form would help.
QString httpsHint(const app::ProbeReport& report)
{
    return report.target.scheme() == QLatin1String("https") &&
                   report.unreachable.contains(QLatin1String("certificate"), Qt::CaseInsensitive)
               ? ProbeView::tr(" (to trust it: a CA file, or Don't check https certificates, beside the URL)")
               : QString();
}

} // namespace

ProbeView::ProbeView(QWidget* parent) : QWidget(parent), m_redraw(new QTimer(this))
{
    // The runner reports after every step, a few times a second in the parallel rounds: the charts are redrawn at
    // most every 250 ms with the latest figures, so that drawing them never holds the window up.
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(250);
    connect(m_redraw, &QTimer::timeout, this, [this] { draw(m_pending, true); });
    auto* split = new QSplitter;
    split->addWidget(makeForm());
    split->addWidget(makeResults());
    split->setStretchFactor(1, 1);
    split->setSizes({380, 900});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    setRunning(false);
    showReport({});
}

// The form's fields, filled with the CLI's defaults, then laid out with the Start and Cancel buttons.
QWidget* ProbeView::makeForm()
{
    auto* shapes = new QGridLayout;
    auto* processRow = new QHBoxLayout;
    makeFields(shapes, processRow);
    // Mnemonics apart from the tabs' (Send, Listen, Inspect, Compare, Probe, Matcher).
    auto* form = new QFormLayout;
    form->addRow(tr("&URL"), m_url);
    form->addRow(tr("https"), m_trust);
    form->addRow(tr("Metho&d"), m_method);
    form->addRow(tr("Fi&eld"), m_field);
    form->addRow(tr("&Headers"), m_headers);
    form->addRow(tr("Si&ze"), m_size);
    auto* shapesLabel = new QLabel(tr("Sh&apes")); // a grid: the label needs its buddy named
    shapesLabel->setBuddy(m_shapes.first());
    form->addRow(shapesLabel, shapes);
    form->addRow(tr("Pa&rallel"), m_concurrency);
    form->addRow(QString(), m_scaling);
    auto* processLabel = new QLabel(tr("Pr&ocess")); // a row of two: the label needs its buddy named
    processLabel->setBuddy(m_process);
    form->addRow(processLabel, processRow);
    form->addRow(tr("At most"), m_maxBytes);
    form->addRow(tr("Seconds"), m_maxTime);

    m_start = new QPushButton(tr("S&tart probe"));
    m_cancel = new QPushButton(tr("Ca&ncel"));
    connect(m_start, &QPushButton::clicked, this, &ProbeView::start);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_step->setText(tr("Cancelling: the upload under way stops, what ran is kept"));
        emit cancelRequested();
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    m_progress = new QProgressBar;
    m_step = new QLabel;
    m_step->setWordWrap(true);

    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_step);
    layout->addStretch(1);
    return panel;
}

// The probe's settings, one field each; the shapes into their grid, the process picker into its row.
void ProbeView::makeFields(QGridLayout* shapes, QHBoxLayout* processRow)
{
    m_url = edit({}, tr("The upload endpoint to probe: every body goes there, and the same bytes to a baseline"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000/upload"));
    connect(m_url, &QLineEdit::textEdited, this, [this] { m_urlTyped = true; });
    m_trust = new TlsTrust(tr("https server"), QStringLiteral("probe"));
    m_method = new QComboBox;
    m_method->addItems({QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH")});
    m_field = edit(QStringLiteral("file"), tr("The file part's name, as the server's form expects it"));
    m_headers = new HeaderEditor;
    m_headers->setToolTip(tr("Sent with every upload: a cookie or Authorization the endpoint needs"));
    m_headers->setMaximumHeight(150);
    const app::ProbeSettings defaults{}; // the CLI's too
    m_size =
        edit(app::exactByteSize(defaults.size), tr("Each shape's file size (4M, 64M, 1G); scaling doubles up to it"));
    for (const QString& shape : app::kProbeShapes) {
        auto* box = new QCheckBox(shape);
        box->setChecked(true);
        shapes->addWidget(box, int(m_shapes.size()) / 3, int(m_shapes.size()) % 3);
        m_shapes.append(box);
    }
    m_concurrency =
        edit(app::clientCountsText(defaults.concurrency), tr("Rounds of parallel uploads of plain (0: none)"));
    m_scaling = new QCheckBox(tr("Time plain and the slowest shape at sizes doubling from 4M"));
    m_scaling->setChecked(true);
    m_process = new QComboBox;
    m_process->setToolTip(tr("Whose memory to watch during each upload"));
    auto* refresh = new QToolButton;
    refresh->setText(tr("Refresh"));
    refresh->setToolTip(tr("List the processes listening on this machine again"));
    connect(refresh, &QToolButton::clicked, this, &ProbeView::processesRequested);
    setProcesses({});
    processRow->addWidget(m_process, 1);
    processRow->addWidget(refresh);
    m_maxBytes = edit(app::exactByteSize(defaults.maxBytes), tr("Send at most this much in all, baseline included"));
    m_maxTime = edit(QString::number(defaults.maxSeconds), tr("Start no upload after this many seconds"));
}

QWidget* ProbeView::makeResults()
{
    m_findings = new QListWidget;
    m_findings->setWordWrap(true);
    m_findings->setMaximumHeight(96);
    m_results = new QWidget;
    auto* grid = new QGridLayout;
    for (int i = 0; i < 4; ++i) {
        auto* chart = new ProbeChart;
        chart->setMinimumSize(180, 180); // the window still fits 1024 px
        m_charts.append(chart);
        grid->addWidget(chart, i / 2, i % 2);
    }
    auto* results = new QVBoxLayout(m_results);
    results->setContentsMargins(0, 0, 0, 0);
    results->addWidget(new QLabel(tr("<b>Findings</b>")));
    results->addWidget(m_findings);
    results->addLayout(grid, 1);
    auto* exports = new QHBoxLayout;
    exports->addStretch(1);
    const QList<QPair<QString, QString>> kinds{{QStringLiteral("HTML"), tr("E&xport HTML…")},
                                               {QStringLiteral("JSON"), tr("Export &JSON…")},
                                               {QStringLiteral("PNG"), tr("Export PN&G…")}};
    for (const auto& entry : kinds) { // not a structured binding: clang 14 cannot capture one
        const QString kind = entry.first;
        auto* button = new QPushButton(entry.second);
        connect(button, &QPushButton::clicked, this, [this, kind] { exportAs(kind); });
        exports->addWidget(button);
        m_exports.append(button);
    }
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->addWidget(m_results, 1);
    layout->addLayout(exports);
    return panel;
}

void ProbeView::setTarget(const QString& url)
{
    if (!m_urlTyped)
        m_url->setText(url);
}

QJsonObject ProbeView::form() const
{
    QJsonArray headers, shapes;
    for (const app::PlanHeader& h : m_headers->headers())
        headers.append(QJsonObject{{"name", h.name}, {"value", h.value}, {"enabled", h.enabled}});
    for (qsizetype i = 0; i < m_shapes.size(); ++i)
        if (m_shapes[i]->isChecked())
            shapes.append(app::kProbeShapes[i]);
    return {{"url", m_urlTyped ? m_url->text() : QString()}, // our own listener's is not a choice to remember
            {"method", m_method->currentText()},
            {"field", m_field->text()},
            {"headers", headers},
            {"size", m_size->text()},
            {"shapes", shapes},
            {"parallel", m_concurrency->text()},
            {"scaling", m_scaling->isChecked()},
            {"at_most", m_maxBytes->text()},
            {"seconds", m_maxTime->text()},
            {"ca_file", m_trust->caFile()}};
}

void ProbeView::setForm(const QJsonObject& form)
{
    if (const QString url = form["url"].toString(); !url.isEmpty()) {
        m_url->setText(url);
        m_urlTyped = true;
    }
    m_method->setCurrentText(form["method"].toString(m_method->currentText()));
    m_field->setText(form["field"].toString(m_field->text()));
    QList<app::PlanHeader> headers;
    for (const auto& v : form["headers"].toArray()) {
        const QJsonObject h = v.toObject();
        headers.append({h["name"].toString(), h["value"].toString(), h["enabled"].toBool(true)});
    }
    m_headers->setHeaders(headers);
    m_size->setText(form["size"].toString(m_size->text()));
    if (form["shapes"].isArray())
        for (qsizetype i = 0; i < m_shapes.size(); ++i)
            m_shapes[i]->setChecked(form["shapes"].toArray().contains(app::kProbeShapes[i]));
    m_concurrency->setText(form["parallel"].toString(m_concurrency->text()));
    m_scaling->setChecked(form["scaling"].toBool(m_scaling->isChecked()));
    m_maxBytes->setText(form["at_most"].toString(m_maxBytes->text()));
    m_maxTime->setText(form["seconds"].toString(m_maxTime->text()));
    m_trust->setCaFile(offeredCaFile(form["ca_file"].toString()));
}

QString ProbeView::fieldOf(app::ProbeSetting setting) const
{
    switch (setting) {
    case app::ProbeSetting::Field: return tr("Field");
    case app::ProbeSetting::Method: return tr("Method %1").arg(m_method->currentText());
    case app::ProbeSetting::Size: return tr("Size %1").arg(m_size->text().trimmed());
    case app::ProbeSetting::MaxBytes: return tr("At most %1").arg(m_maxBytes->text().trimmed());
    case app::ProbeSetting::MaxSeconds: return tr("Seconds %1").arg(m_maxTime->text().trimmed());
    case app::ProbeSetting::Shapes: return tr("Shapes");
    case app::ProbeSetting::CaFile: return tr("CA file %1").arg(m_trust->caFile());
    }
    return {};
}

std::optional<app::ProbeSettings> ProbeView::settings(QString* error) const
{
    app::ProbeSettings s;
    if (const QString wrong = app::checkHttpUrl(m_url->text(), &s.target); !wrong.isEmpty()) {
        *error = tr("URL: %1 of the upload endpoint").arg(wrong);
        return std::nullopt;
    }
    s.caCertificates = m_trust->caFile();
    s.insecure = m_trust->insecure();
    s.method = m_method->currentText();
    s.field = m_field->text().trimmed();
    if (*error = m_headers->problem(); !error->isEmpty())
        return std::nullopt;
    for (const app::PlanHeader& h : m_headers->headers())
        if (h.enabled)
            s.headers.append(h);
    s.size = app::parseByteSize(m_size->text().trimmed()).value_or(0); // not a size: 0, which the rules refuse
    s.maxBytes = app::parseByteSize(m_maxBytes->text().trimmed()).value_or(0);
    bool timeOk = false;
    s.maxSeconds = m_maxTime->text().trimmed().toInt(&timeOk);
    if (!timeOk)
        s.maxSeconds = 0;
    s.shapes.clear();
    for (qsizetype i = 0; i < m_shapes.size(); ++i) // by index: a platform theme may add '&' to a box's text
        if (m_shapes[i]->isChecked())
            s.shapes << app::kProbeShapes[i];
    // The command line's rules, the form's names: "Size 0k: give a whole size above 0, such as 64M or 1G".
    if (const auto problem = app::checkProbeSettings(s)) {
        *error = tr("%1: %2").arg(fieldOf(problem->setting), problem->why);
        return std::nullopt;
    }
    const auto counts = app::parseClientCounts(m_concurrency->text(), error);
    if (!counts) {
        *error = tr("Parallel: %1").arg(*error);
        return std::nullopt;
    }
    s.concurrency = *counts;
    s.scaling = m_scaling->isChecked();
    s.pid = m_process->currentData().toLongLong();
    return s;
}

void ProbeView::setProcesses(const QList<app::ListeningProcess>& processes)
{
    const qint64 chosen = m_process->currentData().toLongLong();
    m_process->clear();
    m_process->addItem(tr("The one listening on the URL's port (found when it starts)"), qint64(0));
    for (const app::ListeningProcess& p : processes)
        m_process->addItem(tr("%1 (pid %2) on port %3").arg(p.name).arg(p.pid).arg(p.port), p.pid);
    m_process->setCurrentIndex(std::max(0, m_process->findData(chosen)));
}

void ProbeView::start()
{
    QString error;
    const auto s = settings(&error);
    if (!s) {
        m_step->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        return;
    }
    setRunning(true);
    m_progress->setRange(0, 0);
    // Said while it runs, as --dry-run says it: a budget under the plan leaves the later phases out.
    const app::ProbeRunner::Estimate plan = app::ProbeRunner::estimate(*s);
    m_budgetNote = plan.bytes <= s->maxBytes ? QString()
                                             : tr("(the plan sends %1, over At most's %2: the later steps will be "
                                                  "left out)")
                                                   .arg(app::formatBytes(plan.bytes), app::formatBytes(s->maxBytes));
    showStep(tr("Starting: the baseline listener, then %1 shapes").arg(s->shapes.size()));
    emit startRequested(*s);
}

void ProbeView::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    for (QPushButton* b : m_exports)
        b->setEnabled(!running && !m_report.target.isEmpty());
}

void ProbeView::showProgress(const QString& phase, const QString& step, int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(QStringLiteral("%1: %v of %m").arg(phase));
    showStep(step);
}

void ProbeView::showStep(const QString& step)
{
    m_step->setText(m_budgetNote.isEmpty() ? step : step + QLatin1Char(' ') + m_budgetNote);
}

void ProbeView::showPartial(const app::ProbeReport& report)
{
    m_pending = report;
    if (!m_redraw->isActive())
        m_redraw->start();
}

void ProbeView::showReport(const app::ProbeReport& report)
{
    m_redraw->stop();
    m_drawn.clear(); // every chart again: an empty one now says "not run"
    draw(report, false);
    if (report.cancelled && m_progress->maximum() > 0) { // the bar stays where the probe stopped
        m_progress->setFormat(tr("Cancelled during %1").arg(m_progress->format()));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(report.target.isEmpty() || report.cancelled ? 0 : 1);
        m_progress->setFormat(report.cancelled ? tr("Cancelled") : QStringLiteral("%p%"));
    }
    if (!report.target.isEmpty())
        m_step->setText(tr("%1 in %2, %3 sent%4")
                            .arg(report.cancelled ? tr("Cancelled") : tr("Done"), app::formatSeconds(report.seconds),
                                 app::formatBytes(report.bytesSent),
                                 report.skipped.isEmpty()
                                     ? QString()
                                     : tr("; left out by the budgets: %1").arg(report.skippedSummary())));
    setRunning(false);
}

void ProbeView::draw(const app::ProbeReport& report, bool running)
{
    m_report = report;
    m_findings->clear();
    for (const app::ProbeFinding& f : report.findings)
        new QListWidgetItem(QStringLiteral("⚠ %1: %2").arg(f.kind, f.message), m_findings);
    if (report.findings.isEmpty())
        new QListWidgetItem(
            running                   ? tr("Probing: slow shapes, superlinear time and collapses are judged at the end")
            : report.target.isEmpty() ? tr("Give your server's upload URL and start: the findings come here")
            : !report.unreachable.isEmpty() ? tr("✗ Stopped: %1").arg(report.unreachable) + httpsHint(report)
            : report.cancelled ? tr("Cancelled: no findings in what ran before it (the rest was not measured)")
            : !report.skipped.isEmpty()
                ? tr("No findings in what ran: the budgets (At most, Seconds) left out %1").arg(report.skippedSummary())
                : tr("✓ No findings: nothing was slow, superlinear, buffered, refused or misread"),
            m_findings);
    const QList<app::ChartSpec> specs = app::probeCharts(report);
    // A finished probe's empty chart was left out (cancelled, the budgets, --no-scaling): "not run", not "none yet".
    const QString empty = running || report.target.isEmpty() ? tr("none yet") : tr("not run");
    auto changed = [&](qsizetype i) { return m_drawn.size() != specs.size() || m_drawn[i] != specs[i]; };
    if (changed(0))
        m_charts[0]->show(specs[0], nullptr, empty);
    // Scaling asked for, and a Size that gives it one size to time: why it did not run (two walks found no word).
    const std::optional<qulonglong> size = app::parseByteSize(m_size->text());
    const bool oneSize = m_scaling->isChecked() && size && app::ProbeRunner::scalingSizes(*size).isEmpty();
    if (changed(1))
        m_charts[1]->show(specs[1], nullptr, oneSize && empty == tr("not run") ? tr("not run: Size ≤ 4M") : empty);
    if (changed(2) || changed(3))
        m_charts[2]->show(specs[2], &specs[3], empty);
    if (changed(4))
        m_charts[3]->show(specs[4], nullptr, empty);
    m_drawn = specs;
}

void ProbeView::showError(const QString& message)
{
    m_step->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(message.toHtmlEscaped()));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    setRunning(false);
}

QImage ProbeView::picture() const
{
    return m_results->grab().toImage();
}

void ProbeView::exportAs(const QString& kind)
{
    const QString suffix = kind.toLower();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the probe's report as %1").arg(kind),
                                                      QStringLiteral("probe.%1").arg(suffix));
    if (path.isEmpty())
        return;
    if (kind == QLatin1String("HTML"))
        exportHtmlTo(path);
    else if (kind == QLatin1String("JSON"))
        exportJsonTo(path);
    else
        exportPngTo(path);
}

void ProbeView::exportHtmlTo(const QString& path)
{
    saveExports(this, {{path, app::probeHtml(m_report, QDateTime::currentDateTime())}});
}

void ProbeView::exportJsonTo(const QString& path)
{
    saveExports(this, {{path, QJsonDocument(m_report.toJson()).toJson(QJsonDocument::Indented)}});
}

void ProbeView::exportPngTo(const QString& path)
{
    saveExports(this, {{path, pngBytes(picture())}});
}

} // namespace upin::ui
