// upload-inspector-cli parse FILE: inspect a stored request body.

#include "cli/cli_args.h"
#include "common/qt_text.h"
#include "inspect/body_file.h"
#include "inspect/report_json.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace upin::app::cli {
namespace {

QString optionalText(const std::optional<std::string>& value)
{
    return value ? QString::fromStdString(*value) : QStringLiteral("-");
}

void printParts(QString& out, const std::vector<core::PartSummary>& parts, const QString& indent)
{
    for (const auto& part : parts) {
        out += QStringLiteral("%1%2  %3  %4  %5  @%6  %7 bytes%8  %9\n")
                   .arg(indent)
                   .arg(part.index)
                   .arg(optionalText(part.name), optionalText(part.filename), optionalText(part.contentType))
                   .arg(part.bodyOffset)
                   .arg(part.size)
                   .arg(part.complete ? QString() : QStringLiteral(" (incomplete)"))
                   .arg(part.sha256.empty() ? QStringLiteral("-") : QString::fromStdString(part.sha256));
        printParts(out, part.children, indent + QStringLiteral("    "));
    }
}

QString readableReport(const QString& path, const core::ParseReport& report)
{
    QString out = QStringLiteral("%1: %2 parts, %3 bytes, boundary \"%4\"\n")
                      .arg(path)
                      .arg(report.parts.size())
                      .arg(report.bytes)
                      .arg(QString::fromStdString(report.boundary));
    if (!report.parts.empty()) {
        out += QStringLiteral("  #  name  filename  content-type  @body-offset  size  sha256\n");
        printParts(out, report.parts, QStringLiteral("  "));
    }
    for (const auto& d : report.diagnostics)
        out += QStringLiteral("  note @%1 %2: %3\n")
                   .arg(d.offset)
                   .arg(toQString(core::codeName(d.code)), toQString(core::describe(d.code)));
    if (report.error)
        out += QStringLiteral("error @%1 %2: %3\n")
                   .arg(report.error->offset)
                   .arg(toQString(core::codeName(report.error->code)), toQString(core::describe(report.error->code)));
    else
        out += QStringLiteral("ok\n");
    return out;
}

} // namespace

int runParse(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(QStringLiteral("Parse a stored multipart request body and list its parts."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("FILE"),
                             QStringLiteral("the request body (or, with --raw-http, the whole request)"));
    QCommandLineOption contentType(
        QStringLiteral("content-type"),
        QStringLiteral(
            "Content-Type header value with the boundary; guessed from the first delimiter line when absent"),
        QStringLiteral("VALUE"));
    QCommandLineOption strict(QStringLiteral("strict"),
                              QStringLiteral("reject irregular bodies instead of reporting diagnostics"));
    QCommandLineOption matcher(QStringLiteral("matcher"),
                               QStringLiteral("delimiter matcher: kmp, chunked or simd (default)"),
                               QStringLiteral("NAME"), QStringLiteral("simd"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print a JSON report"));
    QCommandLineOption noHash(QStringLiteral("no-hash"), QStringLiteral("skip SHA-256 of part bodies"));
    QCommandLineOption rawHttp(
        QStringLiteral("raw-http"),
        QStringLiteral("FILE is a whole HTTP request: request line, head, then the body (Content-Length or chunked)"));
    cl.addOptions({contentType, strict, matcher, json, noHash, rawHttp});
    cl.process(QStringList{QStringLiteral("upload-inspector-cli parse")} + arguments);
    if (cl.positionalArguments().size() != 1) {
        printErr(cl.helpText());
        return 2;
    }
    auto kind = core::matcherFromName(cl.value(matcher).toStdString());
    if (!kind) {
        printErr(QStringLiteral("unknown matcher '%1' (use kmp, chunked or simd)\n").arg(cl.value(matcher)));
        return 2;
    }
    BodyFileRequest request;
    request.path = cl.positionalArguments().constFirst();
    if (cl.isSet(contentType))
        request.contentType = cl.value(contentType).toStdString();
    request.settings.hash = !cl.isSet(noHash);
    request.rawHttp = cl.isSet(rawHttp);
    request.settings.parser.strict = cl.isSet(strict);
    request.settings.parser.matcher = *kind;
    BodyFileResult result = parseBodyFile(request);
    if (!result.ioError.isEmpty()) {
        printErr(QStringLiteral("%1: %2\n").arg(request.path, result.ioError));
        return 2;
    }
    if (cl.isSet(json)) {
        QJsonObject doc = reportToJson(result.report);
        if (request.rawHttp)
            doc["request"] = result.request;
        printOut(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
    } else {
        if (request.rawHttp && !result.request.isEmpty())
            printOut(QStringLiteral("%1 %2 %3, %4 framing\n")
                         .arg(result.request["method"].toString(), result.request["target"].toString(),
                              result.request["version"].toString(), result.request["framing"].toString()));
        printOut(readableReport(request.path, result.report));
    }
    return result.report.ok ? 0 : 1;
}

} // namespace upin::app::cli
