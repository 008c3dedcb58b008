// upload-inspector-cli send / compare / resend: streamed multipart uploads through the raw HTTP/1.1 client or
// QNetworkAccessManager (--engine; see UploadPlan::Engine), with timing, repeats and integrity checks; compare runs
// several targets interleaved; resend starts from a captured request (inspect/resend.h) instead of nothing.

#include "cli/cli_args.h"
#include "cli/terminal_progress.h"
#include "common/option_rules.h"
#include "common/qt_text.h"
#include "inspect/resend.h"
#include "sender/run_report.h"
#include "sender/sender.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace upin::app::cli {
namespace {

// A header named on the command line replaces the plan's own of that name where it stood (resend -H
// 'Authorization: …' edits one, the order kept); the others are added after. As curl has it, 'Name:' with no value
// removes the plan's own and sends none.
QList<PlanHeader> withHeadersReplaced(const QList<PlanHeader>& own, const QList<PlanHeader>& given)
{
    auto named = [](const QString& name) {
        return [name](const PlanHeader& h) { return h.name.compare(name, Qt::CaseInsensitive) == 0; };
    };
    QList<PlanHeader> out;
    QList<PlanHeader> rest = given;
    for (const PlanHeader& h : own) {
        if (std::none_of(given.begin(), given.end(), named(h.name))) {
            out.append(h);
            continue;
        }
        for (const PlanHeader& g : rest) // at the first of its name, every given one of that name
            if (named(h.name)(g) && !g.value.isEmpty())
                out.append(g);
        rest.removeIf(named(h.name));
    }
    rest.removeIf([](const PlanHeader& g) { return g.value.isEmpty(); });
    return out + rest;
}

struct PlanOptions {
    QCommandLineOption form{
        {"F", "form"}, "a part, as curl -F: name=value or name=@path[;type=T][;filename=F]", "SPEC"};
    QCommandLineOption synthetic{"synthetic", "a generated part: name=SIZE[:random|zero|pattern], e.g. big=1G", "SPEC"};
    QCommandLineOption runs{"runs", "runs per target (default 1)", "N", "1"};
    QCommandLineOption chunked{"chunked", "send with Transfer-Encoding: chunked instead of Content-Length"};
    QCommandLineOption expectContinue{"expect-continue", "send Expect: 100-continue"};
    QCommandLineOption http2{"http2", "send over HTTP/2: by ALPN over https, by prior knowledge over http; the raw "
                                      "engine records the frames (how long the upload waited for window)"};
    QCommandLineOption http11{"http1.1", "send over HTTP/1.1 (the default; overrides a --plan's http2)"};
    const HashOptions hash{QStringLiteral("digest of each part while it is sent, checked against the listener's "
                                          "answer")};
    QCommandLineOption header{{"H", "header"},
                              "extra request header, 'Name: value' (replaces a --plan's or capture's of that name)",
                              "HEADER"};
    QCommandLineOption method{{"X", "request"}, "method: POST (the default), PUT or PATCH", "METHOD"};
    QCommandLineOption cacert{"cacert", "https: also trust the certificates in FILE (PEM), e.g. listen --tls's own",
                              "FILE"};
    QCommandLineOption insecure{{"k", "insecure"}, "https: do not check the server's certificate (said in every run)"};
    QCommandLineOption boundary{"boundary", "multipart boundary (default: random per run)", "B"};
    QCommandLineOption stallTimeout{"stall-timeout",
                                    "end a run that makes no progress (body not taken, no answer) for S seconds "
                                    "(default 60)",
                                    "S"};
    QCommandLineOption plan{"plan", "load the upload plan from a JSON file (options given here are added)", "FILE"};
    QCommandLineOption savePlan{"save-plan", "write the plan as JSON to FILE", "FILE"};
    QCommandLineOption printCurl{"print-curl", "print the equivalent curl command and exit"};
    QCommandLineOption engine{
        "engine", "HTTP client: raw (the default, auto: http and https) or qnam (QNetworkAccessManager, for HTTP/2)",
        "NAME"};
    QCommandLineOption json{"json", "print the runs as JSON"};
    QCommandLineOption csv{"csv", "print the runs as CSV"};
    QCommandLineOption silent{{"s", "silent"},
                              "no progress line on the terminal (there is none when stderr is not one)"};

    void addTo(QCommandLineParser& cl)
    {
        cl.addOptions({form,     synthetic, runs,     chunked,  expectContinue, hash.hash,    hash.noHash, header,
                       method,   cacert,    insecure, boundary, silent,         stallTimeout, engine,      plan,
                       savePlan, printCurl, json,     csv,      http2,          http11});
    }

    // base: what resend starts from (a captured request's plan); options given here are added to it.
    std::optional<UploadPlan> build(const QCommandLineParser& cl, const QStringList& targets, QString& error,
                                    UploadPlan p = {})
    {
        if (cl.isSet(plan)) {
            QFile file(cl.value(plan));
            if (!file.open(QIODevice::ReadOnly)) {
                error = QStringLiteral("cannot read %1").arg(file.fileName());
                return std::nullopt;
            }
            auto loaded = UploadPlan::fromJson(QJsonDocument::fromJson(file.readAll()).object(), &error);
            if (!loaded)
                return std::nullopt;
            p = *loaded;
        }
        for (const auto& t : targets) {
            QUrl url;
            if (const QString wrong = checkHttpUrl(t, &url); !wrong.isEmpty()) {
                error = QStringLiteral("%1: %2").arg(t, wrong);
                return std::nullopt;
            }
            p.targets.append(url);
        }
        for (const auto& spec : cl.values(form)) {
            auto part = parseFormSpec(spec, &error);
            if (!part)
                return std::nullopt;
            p.parts.append(*part);
        }
        for (const auto& spec : cl.values(synthetic)) {
            auto part = parseSyntheticSpec(spec, &error);
            if (!part)
                return std::nullopt;
            p.parts.append(*part);
        }
        QList<PlanHeader> given;
        for (const auto& h : cl.values(header)) {
            const auto parsed = parseHeaderSpec(h, &error);
            if (!parsed)
                return std::nullopt;
            given.append(*parsed);
        }
        p.headers = withHeadersReplaced(p.headers, given);
        if (cl.isSet(method)) {
            p.method = cl.value(method).toUpper();
            if (!isUploadMethod(p.method)) {
                error = QStringLiteral("-X %1: an upload is sent with POST, PUT or PATCH").arg(cl.value(method));
                return std::nullopt;
            }
        }
        if (cl.isSet(runs))
            p.runs = cl.value(runs).toInt();
        p.chunked = p.chunked || cl.isSet(chunked);
        p.expectContinue = p.expectContinue || cl.isSet(expectContinue);
        if (hash.isSet(cl)) {
            auto kind = hash.chosen(cl, error);
            if (!kind)
                return std::nullopt;
            p.hash = *kind;
        }
        if (cl.isSet(boundary))
            p.boundary = cl.value(boundary);
        if (cl.isSet(cacert)) {
            p.caCertificates = cl.value(cacert);
            if (const QString wrong = checkCaFile(p.caCertificates); !wrong.isEmpty() || p.caCertificates.isEmpty()) {
                error =
                    badValue(cl, cacert.names().constFirst(), wrong.isEmpty() ? QStringLiteral("give a file") : wrong);
                return std::nullopt;
            }
        }
        p.insecure = p.insecure || cl.isSet(insecure);
        if (cl.isSet(stallTimeout)) {
            bool ok = false;
            const double seconds = cl.value(stallTimeout).toDouble(&ok);
            if (!ok || seconds <= 0) {
                error = QStringLiteral("--stall-timeout must be a number of seconds above 0");
                return std::nullopt;
            }
            p.stallTimeoutMs = int(seconds * 1000);
        }
        if (cl.isSet(engine)) {
            auto e = engineFromName(cl.value(engine));
            if (!e) {
                error = QStringLiteral("--engine must be auto, qnam or raw");
                return std::nullopt;
            }
            p.engine = *e;
        }
        if (cl.isSet(http2) && cl.isSet(http11)) {
            error = QStringLiteral("--http2 and --http1.1: give one");
            return std::nullopt;
        }
        p.http2 = cl.isSet(http2) || (p.http2 && !cl.isSet(http11));
        if (p.http2 && p.chunked) {
            error = QStringLiteral("--http2 --chunked: HTTP/2 has no chunked framing (its DATA frames end with the "
                                   "stream); give one");
            return std::nullopt;
        }
        if (p.chunked && p.engine == UploadPlan::Engine::Qnam) {
            error = QStringLiteral("QNetworkAccessManager cannot send chunked bodies; use --engine raw or auto");
            return std::nullopt;
        }
        if (p.runs < 1 || p.targets.isEmpty() || p.parts.isEmpty()) {
            error = QStringLiteral("need at least one target, one part (-F or --synthetic) and --runs >= 1");
            return std::nullopt;
        }
        return p;
    }
};

// A 2xx answer without digests of our hash (another ?hash= in the URL, or not our listener) is said, not shown as
// a row of "?" alone.
QString uncheckedNote(const RunResult& r)
{
    if (r.hash == core::HashKind::None || r.httpStatus / 100 != 2 || r.parts.isEmpty())
        return {};
    for (const auto& p : r.parts)
        if (p.state != PartCheck::State::NotChecked)
            return {};
    return QStringLiteral("  (not checked: the answer has no %1 digests)")
        .arg(toQString(core::kHashNames.name(r.hash)));
}

QString runLine(const RunResult& r)
{
    QString checks;
    for (const auto& p : r.parts)
        checks += p.state == PartCheck::State::Match      ? QStringLiteral("=")
                  : p.state == PartCheck::State::Mismatch ? QStringLiteral("X")
                                                          : QStringLiteral("?");
    const QString status = r.statusLine.isEmpty() ? QString::number(r.httpStatus)
                                                  : QString::fromUtf8(r.statusLine.mid(r.statusLine.indexOf(' ') + 1));
    const QString sent = r.answeredEarly
                             ? QStringLiteral("%1 bytes (answered before the whole body was sent)").arg(r.bytesSent)
                             : QStringLiteral("%1 bytes").arg(r.bodyBytes);
    QString over = r.protocol.isEmpty() ? QString() : QStringLiteral(" (%1").arg(r.protocol);
    if (!over.isEmpty())
        over += (r.tls.isEmpty() ? QString() : QStringLiteral(", ") + r.tls) +
                (r.insecure ? QStringLiteral(", certificate NOT checked: --insecure") : QString()) + QLatin1Char(')');
    return QStringLiteral("run %1  %2  status %3  %4  %5 s (last byte %6 s, answer %7 s)  %8 MB/s  parts [%9]%10\n")
        .arg(r.run + 1)
        .arg(r.target.toString())
        .arg(status + over)
        .arg(sent)
        .arg(r.totalSeconds, 0, 'f', 3)
        .arg(r.bodySent() ? QString::number(r.lastByteSeconds, 'f', 3) : QStringLiteral("-"))
        // No answer, or a body not sent whole: "-", not a time of -1 s or a rate of 0.
        .arg(r.responseHeadSeconds >= 0 ? QString::number(r.responseHeadSeconds, 'f', 3) : QStringLiteral("-"))
        .arg(r.mbPerSecond() > 0 ? QString::number(r.mbPerSecond(), 'f', 1) : QStringLiteral("-"))
        .arg(checks)
        .arg(uncheckedNote(r) + (r.http2 ? QStringLiteral("  (%1)").arg(r.http2->stallsInWords()) : QString()) +
             (r.error.isEmpty() ? QString() : QStringLiteral("  error: ") + r.error));
}

int execute(const UploadPlan& plan, const QCommandLineParser& cl, PlanOptions& o)
{
    if (cl.isSet(o.savePlan)) {
        QFile file(cl.value(o.savePlan));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(plan.toJson()).toJson()) < 0) {
            printErr(QStringLiteral("cannot write %1\n").arg(file.fileName()));
            return 2;
        }
    }
    if (cl.isSet(o.printCurl)) {
        printOut(plan.toCurl() + QLatin1Char('\n'));
        return 0;
    }
    const bool quiet = cl.isSet(o.json) || cl.isSet(o.csv);
    QThread thread;
    auto* sender = new Sender;
    sender->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, sender, &QObject::deleteLater);
    thread.start();
    QList<RunResult> results;
    QEventLoop loop;
    TerminalProgress meter(cl.isSet(o.silent));
    QObject::connect(sender, &Sender::progress, &loop, [&](int targetIndex, int run, quint64 sent, quint64 total) {
        QString label = QStringLiteral("run %1/%2").arg(run + 1).arg(plan.runs);
        if (plan.targets.size() > 1)
            label += QStringLiteral(" to %1").arg(plan.targets.value(targetIndex).toString());
        meter.update(label, sent, total);
    });
    QObject::connect(sender, &Sender::runFinished, &loop, [&](const RunResult& r) {
        meter.clear();
        if (!quiet)
            printOut(runLine(r));
        std::fflush(stdout);
    });
    QObject::connect(sender, &Sender::finished, &loop, [&](const QList<RunResult>& all) {
        results = all;
        loop.quit();
    });
    const CancelOnCtrlC ctrlC(&loop,
                              [sender] { QMetaObject::invokeMethod(sender, &Sender::cancel, Qt::QueuedConnection); });
    QMetaObject::invokeMethod(
        sender, [sender, plan] { sender->start(plan); }, Qt::QueuedConnection);
    loop.exec();
    meter.clear();
    thread.quit();
    thread.wait();

    if (cl.isSet(o.json))
        printOut(QString::fromUtf8(QJsonDocument(runsToJson(results)).toJson(QJsonDocument::Indented)));
    else if (cl.isSet(o.csv))
        printOut(runsToCsv(results));
    else
        printOut(QLatin1Char('\n') + statsTable(statsByTarget(results)));
    for (const auto& s : statsByTarget(results))
        if (s.failures || s.integrityFailures)
            return 1;
    return 0;
}

} // namespace

int runSend(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Upload a multipart body to URL, streamed, timed, with per-part SHA-256 checks "
                       "against the built-in listener's answer."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("URL"), QStringLiteral("where to POST"));
    PlanOptions o;
    o.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli send")} + arguments);
    QString error;
    auto plan = o.build(cl, cl.positionalArguments(), error);
    if (!plan) {
        printErr(QStringLiteral("send: %1\n").arg(error));
        return 2;
    }
    return execute(*plan, cl, o);
}

int runCompare(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Upload the same parts to several targets, interleaved (A B A B ...), and "
                       "compare their times."));
    cl.addHelpOption();
    QCommandLineOption target(QStringLiteral("target"), QStringLiteral("a URL to compare (repeat)"),
                              QStringLiteral("URL"));
    cl.addOption(target);
    PlanOptions o;
    o.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli compare")} + arguments);
    QString error;
    auto plan = o.build(cl, cl.values(target), error);
    if (!plan) {
        printErr(QStringLiteral("compare: %1\n").arg(error));
        return 2;
    }
    return execute(*plan, cl, o);
}

namespace {
// --entry past a HAR file's last request, or given for a source that is not one: why, in words.
QString entryOutOfRange(const InspectResult& source, int harEntry)
{
    if (harEntry < source.harEntries.size())
        return {};
    return source.harEntries.isEmpty() ? QStringLiteral("--entry is for a HAR file's requests")
                                       : QStringLiteral("--entry %1: the HAR file holds %2 requests, numbered from 0")
                                             .arg(harEntry)
                                             .arg(source.harEntries.size());
}
} // namespace

int runResend(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Send a captured upload again: its parts, method and header fields as they came, to the "
                       "listener that stored it or --to. -H replaces a header of the same name; send's options "
                       "apply (--runs, --json, --print-curl, ...)."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("CAPTURE"),
                             QStringLiteral("capture folder, HAR file, HTTP request or body file"));
    QCommandLineOption to(QStringLiteral("to"),
                          QStringLiteral("a base (http://host:port, the captured path is added) or a whole URL "
                                         "(default: the listener that stored the capture, else "
                                         "http://127.0.0.1:8080)"),
                          QStringLiteral("URL"));
    QCommandLineOption entry(QStringLiteral("entry"),
                             QStringLiteral("a HAR file's request, from 0 (default: its first multipart request)"),
                             QStringLiteral("N"));
    cl.addOptions({to, entry});
    PlanOptions o;
    o.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli resend")} + arguments);
    if (cl.positionalArguments().size() != 1) {
        printErr(QStringLiteral("resend: give one CAPTURE\n\n") + cl.helpText());
        return 2;
    }
    QString error;
    bool entryOk = true;
    const int harEntry = cl.isSet(entry) ? cl.value(entry).toInt(&entryOk) : -1;
    QUrl target;
    const QString wrongTarget = cl.isSet(to) ? checkHttpUrl(cl.value(to), &target) : QString();
    if (cl.isSet(o.plan))
        error = QStringLiteral("--plan: resend's plan is the capture's; give send's other options");
    else if (!entryOk || harEntry < -1 || (cl.isSet(entry) && harEntry < 0))
        error = QStringLiteral("--entry %1: give a request's number, from 0").arg(cl.value(entry));
    else if (!wrongTarget.isEmpty())
        error = QStringLiteral("--to %1: %2").arg(cl.value(to), wrongTarget);
    if (!error.isEmpty()) {
        printErr(QStringLiteral("resend: %1\n").arg(error));
        return 2;
    }
    const auto source = openSource("resend", cl.positionalArguments().constFirst(), {});
    if (!source)
        return 2;
    if (const QString wrong = entryOutOfRange(*source, harEntry); !wrong.isEmpty()) {
        printErr(QStringLiteral("resend: %1\n").arg(wrong));
        return 2;
    }
    const auto captured =
        resendAsCaptured(*source, cl.value(to), &error, QStringLiteral("http://127.0.0.1:8080"), harEntry);
    const auto plan = captured ? o.build(cl, {}, error, *captured) : std::nullopt;
    if (!plan) {
        printErr(QStringLiteral("resend: %1\n").arg(error));
        return 2;
    }
    return execute(*plan, cl, o);
}

} // namespace upin::app::cli
