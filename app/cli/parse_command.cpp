// upload-inspector-cli parse FILE|CAPTURE_FOLDER: inspect a stored request body or a capture.

#include "capture/capture_record.h"
#include "capture/outcome.h"
#include "capture/report_json.h"
#include "cli/cli_args.h"
#include "cli/terminal_progress.h"
#include "common/limits.h"
#include "common/qt_text.h"
#include "inspect/body_file.h"
#include "inspect/har.h"
#include "inspect/inspect_worker.h"
#include "server/server_config.h"
#include "upin/core/header_params.h"

#include <algorithm>

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace upin::app::cli {
namespace {

// A name, file name or type as a client sent it, safe to print.
QString optionalText(const std::optional<std::string>& value)
{
    return value ? printable(QString::fromStdString(*value)) : QStringLiteral("-");
}

// A kept field value, as capture.json holds it (top-level parts only).
QString valueLine(const KeptPart& kept, const QString& indent)
{
    if (!kept.value)
        return {};
    return QStringLiteral("%1    value%2: %3%4\n")
        .arg(indent, kept.valueBase64 ? QStringLiteral(" (base64)") : QString(),
             kept.valueBase64 ? *kept.value : QLatin1Char('"') + printable(*kept.value) + QLatin1Char('"'),
             kept.valueTruncated ? QStringLiteral(" … (first bytes; all of it in %1)")
                                       .arg(kept.savedAs.isEmpty() ? QStringLiteral("body.raw") : kept.savedAs)
                                 : QString());
}

void printParts(QString& out, const std::vector<core::PartSummary>& parts, const QString& indent,
                const QList<KeptPart>& kept = {})
{
    for (const auto& part : parts) {
        out += QStringLiteral("%1%2  %3  %4  %5  @%6  %7 bytes%8  %9\n")
                   .arg(indent)
                   .arg(part.index)
                   .arg(optionalText(part.name), optionalText(part.filename), optionalText(part.contentType))
                   .arg(part.bodyOffset)
                   .arg(part.size)
                   .arg(part.complete ? QString() : QStringLiteral(" (incomplete)"))
                   .arg(part.digest.empty() ? QStringLiteral("-") : QString::fromStdString(part.digest));
        if (part.index < uint32_t(kept.size()))
            out += valueLine(kept[part.index], indent);
        printParts(out, part.children, indent + QStringLiteral("    "));
    }
}

// The report's diagnostics, then its error (and for a capture, the write that failed; for a body cut short, what is
// missing) or "ok": the last lines of every parse, whatever the source.
QString notesAndOutcome(const core::ParseReport& report, const CaptureRecord* capture = nullptr,
                        std::optional<quint64> contentLength = std::nullopt)
{
    QString out;
    for (const auto& d : report.diagnostics)
        if (!repeatsError(report, d)) // said once, as the error (with its words under it)
            out += QStringLiteral("  %1 @%2 %3\n")
                       .arg(severityName(severityOf(d.code)))
                       .arg(d.offset)
                       .arg(diagnosticInWords(d, LimitHint::CliFlag));
    if (report.error) {
        out += QStringLiteral("error @%1 %2: %3%4\n")
                   .arg(report.error->offset)
                   .arg(toQString(core::codeName(report.error->code)),
                        describeError(report.error->code, LimitHint::CliFlag),
                        valueInWords(report.error->code, report.error->value));
        if (capture && capture->writeFailure) // a capture that could not be stored
            out += QStringLiteral("  while writing %1\n").arg(capture->errorInWords());
        // The transfer or the head's length, not the content, is the cause: said in words under the error.
        const bool lengthAfter =
            std::any_of(report.diagnostics.cbegin(), report.diagnostics.cend(),
                        [](const core::Diagnostic& d) { return d.code == core::Errc::BytesAfterBody; });
        if (report.error->code == core::Errc::BodyCutShort || (lengthAfter && contentLength))
            out += QStringLiteral("  %1\n").arg(parseOutcomeInWords(report, contentLength, LimitHint::CliFlag));
    } else
        out += QStringLiteral("ok\n");
    return out;
}

QString readableReport(const QString& path, const core::ParseReport& report, const CaptureRecord* capture = nullptr,
                       std::optional<quint64> contentLength = std::nullopt)
{
    QString out = QStringLiteral("%1: %2, %3 bytes, boundary \"%4\"\n")
                      .arg(path)
                      .arg(report.parts.size() == 1 ? QStringLiteral("1 part")
                                                    : QStringLiteral("%1 parts").arg(report.parts.size()))
                      .arg(report.bytes)
                      .arg(printable(QString::fromStdString(report.boundary)));
    if (!report.parts.empty()) {
        out += QStringLiteral("  #  name  filename  content-type  @body-offset  size  %1\n")
                   .arg(toQString(core::kHashNames.name(report.hash)));
        printParts(out, report.parts, QStringLiteral("  "), capture ? capture->kept : QList<KeptPart>{});
    }
    out += notesAndOutcome(report, capture, contentLength);
    return out;
}

} // namespace

namespace {
// Each HAR entry's request and response, as parse --json lists them beside the parts.
QJsonArray harEntriesJson(const QList<HarEntry>& harEntries)
{
    QJsonArray entries;
    for (const HarEntry& e : harEntries) {
        const core::HeaderValue type = core::parseHeaderValue(e.contentType.toStdString());
        const std::string* boundary = e.multipart ? type.param("boundary") : nullptr; // only a form's counts
        entries.append(QJsonObject{
            {"method", e.method},
            {"url", e.url},
            {"content_type", e.contentType},
            {"boundary", boundary ? QJsonValue(QString::fromStdString(*boundary)) : QJsonValue(QJsonValue::Null)},
            {"body_bytes", qint64(e.body.size())},
            {"multipart", e.multipart},
            {"body_from_params", e.bodyFromParams},
            {"status", e.status},
            {"status_text", e.statusText},
            {"response_type", e.responseType},
            {"response_bytes", qint64(e.responseSize)},
            {"error", e.bodyError ? QJsonValue(errorToJson(*e.bodyError)) : QJsonValue(QJsonValue::Null)}});
    }
    return entries;
}
} // namespace

// A HAR file: every entry, in order, with its response; a multipart request's parts beneath it.
int printHar(const QString& path, bool json)
{
    const InspectResult result = inspectSource(path, {}, inspectLimits());
    if (!result.error.isEmpty()) {
        printErr(result.error + QLatin1Char('\n'));
        return 2;
    }
    const core::ParseReport& report = result.report;
    if (json) {
        QJsonObject doc = reportToJson(report);
        doc["entries"] = harEntriesJson(result.harEntries); // entries[i] is parts[i], whose children its parts
        doc.remove(QStringLiteral("boundary"));             // each entry has its own; the file as a whole has none
        printOut(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
        return report.ok ? 0 : 1;
    }
    QString out = QStringLiteral("%1: %2\n").arg(path, harSummary(result.harEntries, report));
    for (qsizetype i = 0; i < result.harEntries.size() && size_t(i) < report.parts.size(); ++i) {
        const HarEntry& e = result.harEntries[i];
        const core::PartSummary& node = report.parts[size_t(i)];
        out += QStringLiteral("  %1  %2 %3  -> %4  body %5%6\n")
                   .arg(i)
                   .arg(e.method, printable(e.url),
                        e.status > 0 ? QStringLiteral("%1 %2").arg(e.status).arg(printable(e.statusText))
                                     : QStringLiteral("no response"))
                   .arg(e.body.size())
                   .arg(e.body.isEmpty() ? QString() : QStringLiteral(" bytes, ") + printable(e.contentType)) +
               (e.bodyFromParams ? QStringLiteral("      (made again from the HAR's params: it kept no body text)\n")
                                 : QString());
        printParts(out, node.children, QStringLiteral("      "));
        if (e.bodyError)
            out += QStringLiteral("      did not parse: %1 — %2 (byte %3 of this body)\n")
                       .arg(toQString(core::codeName(e.bodyError->code)),
                            describeError(e.bodyError->code, LimitHint::CliFlag))
                       .arg(e.bodyError->offset);
    }
    QString outcome = notesAndOutcome(report);
    const auto failed = std::count_if(result.harEntries.cbegin(), result.harEntries.cend(),
                                      [](const HarEntry& e) { return e.bodyError.has_value(); });
    if (failed > 0 && outcome.endsWith(QLatin1String("ok\n"))) // the last line agrees with the exit status
        outcome = outcome.chopped(3) + QStringLiteral("not ok: %1 of its uploads did not parse (above)\n").arg(failed);
    printOut(out + outcome);
    return report.ok ? 0 : 1;
}

// A capture folder: its capture.json is the report (values included), whether or not body.raw was kept.
int printCapture(const QString& folder, bool json)
{
    QString why;
    const std::optional<CaptureRecord> capture = CaptureRecord::read(folder, &why);
    if (!capture) {
        printErr(why + QLatin1Char('\n'));
        return 2;
    }
    if (json) {
        printOut(QString::fromUtf8(capture->toJson()));
        return capture->ok() ? 0 : 1;
    }
    printOut(QStringLiteral("capture %1: %2 from %3, %4\n")
                 .arg(QString::number(capture->id), printable(capture->request.target), capture->request.client,
                      captureStateName(capture->state)));
    if (capture->forward) { // forward mode: where it went and what came back
        const ForwardTimings f = capture->forward->timings();
        QString line = QStringLiteral("forwarded to %1: ").arg(capture->forward->upstream);
        line +=
            f.status > 0 ? QStringLiteral("answered %1").arg(f.status) : noAnswerInWords(f.faultStatus, f.faultError);
        if (f.earlyAtByte >= 0)
            line += QStringLiteral(" early, when it had %1 bytes of the body").arg(f.earlyAtByte);
        if (f.serverMs >= 0)
            line += QStringLiteral(", server time %1 ms after it took the last byte").arg(f.serverMs, 0, 'f', 1);
        printOut(line + QLatin1Char('\n'));
    }
    // Each TLS leg: the client's, and the upstream's with the certificate it showed.
    const auto tlsLine = [](const char* leg, const Transport& t) {
        return QStringLiteral("%1: %2, %3%4, certificate \"%5\" issued by \"%6\"\n")
            .arg(QLatin1String(leg), t.protocol.isEmpty() ? QStringLiteral("TLS not agreed") : t.protocol,
                 t.cipher.isEmpty() ? QStringLiteral("no cipher") : t.cipher,
                 t.serverName.isEmpty() ? QString() : QStringLiteral(", SNI ") + printable(t.serverName),
                 printable(t.certificateSubject), printable(t.certificateIssuer));
    };
    if (capture->request.transport && capture->request.transport->tls)
        printOut(tlsLine("client TLS", *capture->request.transport));
    if (capture->forward && capture->forward->upstreamTls)
        printOut(tlsLine("upstream TLS", *capture->forward->upstreamTls));
    if (capture->rawBodyKept)
        printOut(QStringLiteral("kept whole: head.raw and body.raw\n"));
    printOut(readableReport(folder, capture->report, &*capture));
    return capture->ok() ? 0 : 1;
}

namespace {

// parse's options, and the BodyFileRequest they make for a body or request file.
struct ParseOptions {
    void addTo(QCommandLineParser& cl) const;
    // The request for path; nullopt once what is wrong is on stderr (exit status 2).
    std::optional<BodyFileRequest> request(const QCommandLineParser& cl, const QString& path,
                                           core::MatcherKind matcher) const;

    QCommandLineOption contentType{
        QStringLiteral("content-type"),
        QStringLiteral(
            "Content-Type header value with the boundary; guessed from the first delimiter line when absent"),
        QStringLiteral("VALUE")};
    QCommandLineOption strict{QStringLiteral("strict"),
                              QStringLiteral("reject irregular bodies instead of reporting diagnostics")};
    QCommandLineOption matcher{QStringLiteral("matcher"),
                               QStringLiteral("delimiter matcher: kmp, chunked or simd (default)"),
                               QStringLiteral("NAME"), QStringLiteral("simd")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print a JSON report")};
    HashOptions hash{QStringLiteral("digest of each part body")};
    QCommandLineOption rawHttp{
        QStringLiteral("raw-http"),
        QStringLiteral("FILE is a whole HTTP request: request line, head, then the body (Content-Length or chunked)")};
    QCommandLineOption silent{
        {QStringLiteral("s"), QStringLiteral("silent")},
        QStringLiteral("no progress line on the terminal (there is none when stderr is not one)")};
};

void ParseOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(QStringLiteral("Parse a stored multipart request body and list its parts."));
    cl.addHelpOption();
    cl.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("the request body (or, with --raw-http, the whole request), a HAR file, or a capture folder"));
    cl.addOptions({contentType, strict, matcher, json, hash.hash, hash.noHash, rawHttp, silent});
    cl.addOptions(limitOptions(inspectLimits()));
}

std::optional<BodyFileRequest> ParseOptions::request(const QCommandLineParser& cl, const QString& path,
                                                     core::MatcherKind kind) const
{
    BodyFileRequest request;
    request.path = path;
    if (cl.isSet(contentType))
        request.contentType = cl.value(contentType).toStdString();
    const auto hashKind = hash.chosen(cl, "parse");
    if (!hashKind)
        return std::nullopt;
    request.settings.hash = *hashKind;
    // A whole request is recognised by its request line, as extract and the window do; --raw-http insists.
    request.rawHttp = cl.isSet(rawHttp) || detectSource(request.path) == SourceKind::RawHttp;
    request.settings.parser = inspectLimits();
    if (const QString wrong = applyLimitOptions(cl, request.settings.parser); !wrong.isEmpty()) {
        printErr(QStringLiteral("parse: %1\n").arg(wrong));
        return std::nullopt;
    }
    request.settings.parser.strict = cl.isSet(strict);
    request.settings.parser.matcher = kind;
    return request;
}

// A body or request file, parsed and printed; its exit status.
int printBodyFile(BodyFileRequest request, bool json, bool silent)
{
    TerminalProgress meter(silent);
    request.progress = [&meter, path = request.path](qint64 done, qint64 total) {
        meter.update(QStringLiteral("parsing %1").arg(QFileInfo(path).fileName()), quint64(done), quint64(total));
        return true;
    };
    if (const QString empty = emptyFileError(request.path); !empty.isEmpty()) {
        printErr(QStringLiteral("parse: %1\n").arg(empty));
        return 1;
    }
    const BodyFileResult result = parseBodyFile(request);
    meter.clear();
    if (!result.ioError.isEmpty()) {
        printErr(QStringLiteral("%1: %2\n").arg(request.path, result.ioError));
        return 2;
    }
    if (json) {
        QJsonObject doc = reportToJson(result.report);
        if (request.rawHttp)
            doc["request"] = result.request.toJson();
        printOut(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
    } else {
        if (request.rawHttp && !result.request.isEmpty())
            printOut(
                QStringLiteral("%1 %2 %3, %4 framing\n")
                    .arg(result.request.method, result.request.target, result.request.version, result.request.framing));
        printOut(readableReport(request.path, result.report, nullptr, result.request.contentLength));
    }
    return result.report.ok ? 0 : 1;
}

} // namespace

int runParse(const QStringList& arguments)
{
    const ParseOptions options;
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli parse")} + arguments);
    if (cl.positionalArguments().size() != 1) {
        printErr(cl.helpText());
        return 2;
    }
    const QString path = cl.positionalArguments().constFirst();
    const auto matcher = core::matcherFromName(cl.value(options.matcher).toStdString());
    if (!matcher) {
        printErr(QStringLiteral("unknown matcher '%1' (use kmp, chunked or simd)\n").arg(cl.value(options.matcher)));
        return 2;
    }
    if (QFileInfo(path).isDir()) {
        if (options.hash.isSet(cl)) // the capture's digests are the listener's: say so, not silently
            printErr(QStringLiteral("parse: a capture folder is shown as the listener stored it, with its own "
                                    "digests; --hash applies to body files (parse its body.raw to hash again)\n"));
        return printCapture(path, cl.isSet(options.json));
    }
    if (detectSource(path) == SourceKind::Har)
        return printHar(path, cl.isSet(options.json));
    const std::optional<BodyFileRequest> request = options.request(cl, path, *matcher);
    return request ? printBodyFile(*request, cl.isSet(options.json), cl.isSet(options.silent)) : 2;
}

} // namespace upin::app::cli
