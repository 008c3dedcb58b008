// upload-inspector-cli probe URL: what is slow or broken in a server's upload path (probe/probe_runner.h), as a
// table, --json, and an exit status a CI step can use (--fail-on, --against).

#include "cli/cli_args.h"
#include "cli/terminal_progress.h"
#include "common/byte_size.h"
#include "common/option_rules.h"
#include "probe/baseline_listener.h"
#include "probe/probe_html.h"
#include "probe/probe_runner.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QThread>
#include <QTimer>

namespace upin::app::cli {
namespace {

struct ProbeOptions {
    QCommandLineOption baseline{"baseline",
                                "a discard endpoint to measure the wire with (default: our own listener's "
                                "/discard on a free loopback port)",
                                "URL"};
    QCommandLineOption field{"field", "the file part's name (default file)", "NAME", "file"};
    QCommandLineOption form{{"F", "form"}, "a field the server needs beside the file, as curl -F", "SPEC"};
    QCommandLineOption header{{"H", "header"}, "a request header, 'Name: value' (auth, cookies)", "HEADER"};
    QCommandLineOption method{{"X", "request"}, "POST (the default), PUT or PATCH", "METHOD"};
    // Each default is ProbeSettings' own, said as the option takes it.
    const ProbeSettings defaults{};
    QCommandLineOption size{"size", "each shape's file size (default " + exactByteSize(defaults.size) + ")", "SIZE",
                            exactByteSize(defaults.size)};
    QCommandLineOption shapes{
        "shapes", "the shapes to send, comma-separated (default all: " + kProbeShapes.join(QLatin1Char(',')) + ")",
        "LIST"};
    QCommandLineOption concurrency{
        "concurrency", "parallel uploads per round (default " + clientCountsText(defaults.concurrency) + "; 0: none)",
        "LIST"};
    QCommandLineOption noScaling{"no-scaling", "skip the scaling phase"};
    QCommandLineOption pid{"pid",
                           "the server's process, whose memory to watch (default: the local process holding "
                           "the URL's port)",
                           "PID"};
    QCommandLineOption maxBytes{"max-bytes",
                                "send at most this much in all (default " + exactByteSize(defaults.maxBytes) + ")",
                                "SIZE", exactByteSize(defaults.maxBytes)};
    QCommandLineOption maxTime{
        "max-time", "stop starting uploads after S seconds (default " + QString::number(defaults.maxSeconds) + ")", "S",
        QString::number(defaults.maxSeconds)};
    QCommandLineOption expect{"expect", "size=PATH: the file part's size in the answer's JSON (e.g. files.file.size)",
                              "size=PATH"};
    QCommandLineOption cacert{"cacert", "https: also trust the certificates in FILE (PEM)", "FILE"};
    QCommandLineOption insecure{{"k", "insecure"}, "https: do not check the server's certificate"};
    QCommandLineOption json{"json", "print the report as JSON"};
    QCommandLineOption html{"html", "also write the report as one self-contained HTML page with its charts", "FILE"};
    QCommandLineOption failOn{"fail-on", "exit 1 when a finding of these kinds is present (comma-separated, or all)",
                              "KINDS"};
    QCommandLineOption against{"against",
                               "compare with an earlier --json report of the same target; exit 1 on a "
                               "regression",
                               "FILE"};
    QCommandLineOption dryRun{"dry-run", "print what would be sent, and send nothing"};
    QCommandLineOption silent{{"s", "silent"}, "no progress line on the terminal"};

    void addTo(QCommandLineParser& cl)
    {
        cl.addOptions({baseline,    field,     form, header,   method,  size,   shapes,
                       concurrency, noScaling, pid,  maxBytes, maxTime, expect, cacert,
                       insecure,    json,      html, failOn,   against, dryRun, silent});
    }

    // How the command line names a setting the rules refused: the option, and the value given where it has one.
    QString optionOf(ProbeSetting setting, const QCommandLineParser& cl) const
    {
        switch (setting) {
        case ProbeSetting::Field: return QStringLiteral("--field");
        case ProbeSetting::Method: return QStringLiteral("-X '%1'").arg(cl.value(method).toUpper());
        case ProbeSetting::Size: return QStringLiteral("--size '%1'").arg(cl.value(size));
        case ProbeSetting::MaxBytes: return QStringLiteral("--max-bytes '%1'").arg(cl.value(maxBytes));
        case ProbeSetting::MaxSeconds: return QStringLiteral("--max-time '%1'").arg(cl.value(maxTime));
        case ProbeSetting::Shapes: return QStringLiteral("--shapes");
        case ProbeSetting::CaFile: return QStringLiteral("--cacert '%1'").arg(cl.value(cacert));
        }
        return {};
    }

    std::optional<ProbeSettings> build(const QCommandLineParser& cl, QString& error) const
    {
        ProbeSettings s;
        if (cl.positionalArguments().size() != 1) {
            error = QStringLiteral("give one http:// or https:// URL to probe");
            return std::nullopt;
        }
        if (const QString wrong = checkHttpUrl(cl.positionalArguments().constFirst(), &s.target); !wrong.isEmpty()) {
            error = QStringLiteral("%1: %2 to probe").arg(cl.positionalArguments().constFirst(), wrong);
            return std::nullopt;
        }
        if (const QString wrong = cl.isSet(baseline) ? checkHttpUrl(cl.value(baseline), &s.baseline) : QString();
            !wrong.isEmpty()) {
            error = QStringLiteral("--baseline '%1': %2 of a discard endpoint").arg(cl.value(baseline), wrong);
            return std::nullopt;
        }
        s.field = cl.value(field);
        for (const QString& spec : cl.values(form)) {
            auto part = parseFormSpec(spec, &error);
            if (!part)
                return std::nullopt;
            s.extraParts.append(*part);
        }
        for (const QString& spec : cl.values(header)) {
            auto parsed = parseHeaderSpec(spec, &error);
            if (!parsed)
                return std::nullopt;
            s.headers.append(*parsed);
        }
        if (cl.isSet(method))
            s.method = cl.value(method).toUpper();
        s.size = parseByteSize(cl.value(size)).value_or(0); // not a size: 0, which the rules refuse
        s.maxBytes = parseByteSize(cl.value(maxBytes)).value_or(0);
        bool timeOk = false;
        s.maxSeconds = cl.value(maxTime).toInt(&timeOk);
        if (!timeOk)
            s.maxSeconds = 0;
        if (cl.isSet(shapes))
            s.shapes = cl.value(shapes).split(QLatin1Char(','), Qt::SkipEmptyParts);
        s.caCertificates = cl.value(cacert);
        if (const auto problem = checkProbeSettings(s)) {
            error = QStringLiteral("%1: %2").arg(optionOf(problem->setting, cl), problem->why);
            return std::nullopt;
        }
        if (cl.isSet(concurrency)) {
            const auto counts = parseClientCounts(cl.value(concurrency), &error);
            if (!counts) {
                error = QStringLiteral("--concurrency: ") + error;
                return std::nullopt;
            }
            s.concurrency = *counts;
        }
        s.scaling = !cl.isSet(noScaling);
        bool pidOk = !cl.isSet(pid);
        s.pid = cl.isSet(pid) ? cl.value(pid).toLongLong(&pidOk) : 0;
        if (!pidOk || (cl.isSet(pid) && (s.pid <= 0 || !QFileInfo::exists(QStringLiteral("/proc/%1").arg(s.pid))))) {
            error = QStringLiteral("--pid '%1': no such process on this machine").arg(cl.value(pid));
            return std::nullopt;
        }
        if (cl.isSet(expect)) {
            if (!cl.value(expect).startsWith(QLatin1String("size="))) {
                error = QStringLiteral("--expect takes size=PATH, e.g. size=files.file.size");
                return std::nullopt;
            }
            s.expectSizePath = cl.value(expect).mid(5);
        }
        s.insecure = cl.isSet(insecure);
        return s;
    }
};

ProbeReport runProbe(const ProbeSettings& settings, bool silent)
{
    QThread thread;
    auto* runner = new ProbeRunner;
    runner->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, runner, &QObject::deleteLater);
    thread.start();
    ProbeReport report;
    QEventLoop loop;
    TerminalProgress meter(silent);
    QObject::connect(
        runner, &ProbeRunner::progress, &loop, [&](const QString& phase, const QString& step, int done, int total) {
            meter.update(QStringLiteral("%1, step %2 of %3: %4").arg(phase).arg(done + 1).arg(total).arg(step), 0, 0);
        });
    QObject::connect(runner, &ProbeRunner::finished, &loop, [&](const ProbeReport& r) {
        report = r;
        loop.quit();
    });
    const CancelOnCtrlC ctrlC(
        &loop, [runner] { QMetaObject::invokeMethod(runner, &ProbeRunner::cancel, Qt::QueuedConnection); });
    QMetaObject::invokeMethod(
        runner, [runner, settings] { runner->start(settings); }, Qt::QueuedConnection);
    loop.exec();
    meter.clear();
    thread.quit();
    thread.wait();
    return report;
}

// The earlier report --against names, read before the probe: a file that is not a probe's report (or cannot be
// read) is said at once, not taken as a report with no figures, which would pass every CI run.
std::optional<ProbeReport> earlierReport(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--against %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (!json[QStringLiteral("target")].isString() || !json[QStringLiteral("shapes")].isArray()) {
        *error = QStringLiteral("--against %1: not a probe --json report").arg(path);
        return std::nullopt;
    }
    return ProbeReport::fromJson(json);
}

bool measuredAnything(const ProbeReport& report)
{
    return std::any_of(report.shapes.cbegin(), report.shapes.cend(), [](const ShapeRow& r) { return r.seconds > 0; }) ||
           std::any_of(report.concurrency.cbegin(), report.concurrency.cend(),
                       [](const ConcurrencyRow& r) { return r.mbPerSecond > 0; });
}

// What a CI step asks of the report: --fail-on's kinds and --against's earlier report, read and checked before
// anything is sent (a gate that cannot work is said at once, not after ten minutes of uploads).
struct Gates {
    QStringList failOn;
    std::optional<ProbeReport> earlier;
    bool any() const { return !failOn.isEmpty() || earlier.has_value(); }
};

std::optional<Gates> readGates(const ProbeOptions& o, const QCommandLineParser& cl, const QUrl& target, QString* error)
{
    Gates gates;
    gates.failOn = cl.value(o.failOn).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& kind : gates.failOn)
        if (!kProbeFindingKinds.contains(kind) && kind != QLatin1String("all")) {
            *error = QStringLiteral("--fail-on: no finding kind '%1' (%2, or all)")
                         .arg(kind, kProbeFindingKinds.join(QLatin1Char(',')));
            return std::nullopt;
        }
    if (!cl.isSet(o.against))
        return gates;
    if (!(gates.earlier = earlierReport(cl.value(o.against), error)))
        return std::nullopt;
    // Figures of another server say nothing of this one's regressions: a CI step that names the wrong file is told.
    // "http://h:8000" and "http://h:8000/" are one target.
    auto same = [](QUrl url) { return url.path().isEmpty() ? (url.setPath(QStringLiteral("/")), url) : url; };
    if (const QUrl here = target.adjusted(QUrl::RemoveUserInfo); same(gates.earlier->target) != same(here)) {
        *error = QStringLiteral("--against %1 is a report of %2, not of %3")
                     .arg(cl.value(o.against), gates.earlier->target.toString(), here.toString());
        return std::nullopt;
    }
    // A reference made while the server was down (or cancelled at once) would pass every later run.
    if (!measuredAnything(*gates.earlier)) {
        *error = QStringLiteral("--against %1 measured nothing (%2): make the reference again with the server up")
                     .arg(cl.value(o.against), gates.earlier->unreachable.isEmpty() ? QStringLiteral("no figure in it")
                                                                                    : gates.earlier->unreachable);
        return std::nullopt;
    }
    return gates;
}

// 1 when the report has a finding of a kind named in --fail-on, or regressed since the earlier report; 2 when a
// gate was asked for and nothing was measured (a budget too small, every upload refused at once): no figures
// would pass any gate.
int verdict(const ProbeReport& report, const Gates& gates)
{
    if (gates.any() && !measuredAnything(report)) {
        printErr(QStringLiteral("probe: nothing was measured (%1), so --fail-on and --against have nothing to "
                                "judge\n")
                     .arg(report.cancelled ? QStringLiteral("cancelled")
                          : report.skipped.isEmpty()
                              ? QStringLiteral("no upload was answered")
                              : QStringLiteral("the budgets left out ") + report.skippedSummary()));
        return 2;
    }
    int rc = report.cancelled ? 1 : 0;
    for (const ProbeFinding& f : report.findings)
        if (gates.failOn.contains(f.kind) || gates.failOn.contains(QLatin1String("all")))
            rc = 1;
    if (!gates.earlier)
        return rc;
    const QStringList worse = regressions(*gates.earlier, report);
    for (const QString& line : worse)
        printErr(QStringLiteral("REGRESSION %1\n").arg(line));
    for (const QString& shape : notCompared(*gates.earlier, report))
        printErr(
            QStringLiteral("probe: %1 was measured in --against's report, not this time: not compared\n").arg(shape));
    return worse.isEmpty() ? rc : 1;
}

// --dry-run: each shape's request, and what the whole probe would send.
void printPlan(const ProbeSettings& settings)
{
    const QString baseline = settings.baseline.isEmpty()
                                 ? QStringLiteral("the probe's own listener (/discard on a free loopback port)")
                                 : settings.baseline.toString();
    for (const QString& shape : settings.shapes) {
        const UploadPlan plan = ProbeRunner::planFor(settings, shape, settings.size, settings.target);
        quint64 bytes = 0;
        for (const PlanPart& p : plan.parts)
            bytes += p.kind == PlanPart::Kind::Synthetic ? p.size : quint64(p.value.size());
        printOut(QStringLiteral("%1  %2 %3, %4, %5 of content%6, and the same to %7\n")
                     .arg(shape, -16)
                     .arg(plan.method, settings.target.toString(QUrl::RemovePassword))
                     .arg(plan.parts.size() == 1 ? QStringLiteral("1 part")
                                                 : QStringLiteral("%1 parts").arg(plan.parts.size()))
                     .arg(formatBytes(bytes))
                     .arg(plan.chunked ? QStringLiteral(" (chunked)") : QString())
                     .arg(baseline));
    }
    const ProbeRunner::Estimate plan = ProbeRunner::estimate(settings);
    QStringList sizes;
    for (quint64 size : ProbeRunner::scalingSizes(settings.size))
        sizes << formatBytes(size);
    const bool scaling = settings.scaling && !sizes.isEmpty() && settings.shapes.contains(QStringLiteral("plain"));
    printOut(QStringLiteral("then %1, concurrency rounds %2; at most %3 and %4 s\n"
                            "in all: %5 uploads, %6 (the baseline's included; each shape that looks slow is "
                            "timed again on top)\n")
                 .arg(scaling            ? QStringLiteral("scaling at %1").arg(sizes.join(QStringLiteral(", ")))
                      : settings.scaling ? QStringLiteral("no scaling (it needs plain, and a --size of 5M or more)")
                                         : QStringLiteral("no scaling"))
                 .arg(QString::number(settings.concurrency.size()))
                 .arg(formatBytes(settings.maxBytes))
                 .arg(settings.maxSeconds)
                 .arg(plan.uploads)
                 .arg(formatBytes(plan.bytes)));
    if (plan.bytes > settings.maxBytes)
        printOut(QStringLiteral("--max-bytes %1 is under the plan's %2: the steps past it will be left out\n")
                     .arg(formatBytes(settings.maxBytes), formatBytes(plan.bytes)));
}

} // namespace

int runProbe(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(QStringLiteral(
        "Find what is slow or broken in a server's upload path: body shapes that slow its multipart parser, "
        "time that grows faster than the size, throughput that falls with parallel clients, memory that grows "
        "with the body, valid bodies refused or misread. Every figure is a ratio to a baseline measured in the "
        "same run."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("URL"), QStringLiteral("the upload endpoint to probe"));
    ProbeOptions o;
    o.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli probe")} + arguments);
    QString error;
    auto settings = o.build(cl, error);
    const std::optional<Gates> gates = settings ? readGates(o, cl, settings->target, &error) : std::nullopt;
    if (!gates) {
        printErr(QStringLiteral("probe: %1\n").arg(error));
        return 2;
    }
    // Opened before the probe: a page that cannot be written is said at once, not after ten minutes of uploads.
    QSaveFile page(cl.value(o.html));
    if (cl.isSet(o.html) && !page.open(QIODevice::WriteOnly)) {
        printErr(QStringLiteral("probe: --html %1: %2\n").arg(page.fileName(), page.errorString()));
        return 2;
    }
    if (cl.isSet(o.dryRun)) { // nothing started, nothing written (the page is dropped uncommitted)
        printPlan(*settings);
        return 0;
    }
    BaselineListener own;
    if (settings->baseline.isEmpty()) {
        settings->baseline = own.start(&error);
        if (settings->baseline.isEmpty()) {
            printErr(QStringLiteral("probe: %1\n").arg(error));
            return 2;
        }
    }
    const ProbeReport report = runProbe(*settings, cl.isSet(o.silent));
    if (cl.isSet(o.html) && (page.write(probeHtml(report, QDateTime::currentDateTime())) < 0 || !page.commit())) {
        printErr(QStringLiteral("probe: --html %1: %2\n").arg(page.fileName(), page.errorString()));
        return 2;
    }
    printOut(cl.isSet(o.json) ? QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented))
                              : report.text());
    if (!report.unreachable.isEmpty()) {
        printErr(QStringLiteral("probe: %1\n").arg(report.unreachable));
        return 2;
    }
    return verdict(report, *gates);
}

} // namespace upin::app::cli
