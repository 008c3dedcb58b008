// upload-inspector-cli extract SOURCE --part N|--name NAME [-o FILE|-] [--decoded]: one part's bytes out of
// whatever holds them: a raw body, a whole HTTP request, a HAR file or a capture folder (body.raw, part files or
// inline values); the bytes as received, or with the part's Content-Transfer-Encoding undone.

#include "cli/cli_args.h"
#include "common/qt_text.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"

#include <QCommandLineParser>

#include <unistd.h>

namespace upin::app::cli {

namespace {
// The coding to undo: none unless asked; nullopt (said on stderr) for a coding we cannot undo.
std::optional<core::PartEncoding> chosenEncoding(const core::PartSummary& part, bool decode)
{
    if (!decode)
        return core::PartEncoding::Identity;
    const std::string named = part.transferEncoding.value_or(std::string());
    const auto encoding = core::partEncodingFromName(named);
    if (!encoding)
        printErr(QStringLiteral("extract: part %1's Content-Transfer-Encoding '%2' is not one --decoded undoes "
                                "(base64, quoted-printable); without --decoded its bytes are written as received\n")
                     .arg(part.index)
                     .arg(toQString(named)));
    else if (*encoding == core::PartEncoding::Identity)
        printErr(QStringLiteral("extract: part %1 has no transfer encoding to undo (%2); its bytes are written as "
                                "received\n")
                     .arg(part.index)
                     .arg(named.empty() ? QStringLiteral("no Content-Transfer-Encoding") : toQString(named)));
    return encoding;
}
} // namespace

namespace {

struct ExtractOptions {
    void addTo(QCommandLineParser& cl) const;

    QCommandLineOption part{QStringLiteral("part"), QStringLiteral("the part's index, from 0 (as parse lists them)"),
                            QStringLiteral("N")};
    QCommandLineOption name{QStringLiteral("name"), QStringLiteral("the first part with this field name"),
                            QStringLiteral("NAME")};
    QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("file to write, or - for standard output"),
                              QStringLiteral("FILE")};
    QCommandLineOption contentType{QStringLiteral("content-type"),
                                   QStringLiteral("Content-Type with the boundary, when the source has none"),
                                   QStringLiteral("VALUE")};
    QCommandLineOption decoded{QStringLiteral("decoded"),
                               QStringLiteral("undo the part's Content-Transfer-Encoding (base64 or quoted-printable); "
                                              "without it the bytes are written as received")};
    QCommandLineOption entry{QStringLiteral("entry"),
                             QStringLiteral("a HAR file's request, from 0 as parse lists them (default: its first "
                                            "multipart request; --name looks in every request)"),
                             QStringLiteral("N")};
};

void ExtractOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(
        QStringLiteral("Write one part's bytes from a raw body, a whole HTTP request (recognised by its request "
                       "line), a HAR file (its first multipart request, or --entry N) or a capture folder."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("SOURCE"),
                             QStringLiteral("body file, HTTP request, HAR file or capture folder"));
    cl.addOptions({part, name, output, contentType, decoded, entry});
}

// The part --part or --name asks for; in a HAR file, in the request --entry names, the first upload, or (--name)
// any. Its entry's parts are counted in *available for the message when there is none.
const core::PartSummary* chosenPart(const QCommandLineParser& cl, const ExtractOptions& options,
                                    const InspectResult& result, qsizetype* available)
{
    QList<int> entries{-1};
    if (cl.isSet(options.entry))
        entries = {cl.value(options.entry).toInt()};
    else if (cl.isSet(options.name))
        for (qsizetype i = 0; i < result.harEntries.size(); ++i)
            entries.append(int(i));
    const core::PartSummary* chosen = nullptr;
    bool indexOk = false;
    const uint index = cl.value(options.part).toUInt(&indexOk);
    for (int e : entries)
        for (const auto& p : numberedParts(result, e))
            if (!chosen &&
                (cl.isSet(options.part) ? indexOk && p.index == index : p.name == cl.value(options.name).toStdString()))
                chosen = &p;
    *available = qsizetype(numberedParts(result, entries.first()).size());
    return chosen;
}

// The part's bytes to target; the exit status (1 when they could not all be written, or were not all kept).
int writePart(const InspectResult& result, const core::PartSummary& chosen, const QString& target, bool decode)
{
    const auto encoding = chosenEncoding(chosen, decode);
    if (!encoding)
        return 1;
    const PartBytes where = locatePart(result, chosen);
    QString error;
    if (!copyPartBytes(where, target, &error, *encoding)) {
        printErr(QStringLiteral("extract: part %1: %2\n").arg(chosen.index).arg(error));
        return 1;
    }
    if (where.available < chosen.size || !chosen.complete) { // written, but it is not the whole part
        printErr(QStringLiteral("extract: part %1 did not arrive whole (%2); the %3 bytes that were kept were "
                                "written\n")
                     .arg(chosen.index)
                     .arg(where.available < chosen.size ? QStringLiteral("only the first bytes were kept")
                                                        : QStringLiteral("the upload ended or failed inside it"))
                     .arg(where.available));
        return 1;
    }
    return 0;
}

} // namespace

int runExtract(const QStringList& arguments)
{
    const ExtractOptions options;
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli extract")} + arguments);
    if (cl.positionalArguments().size() != 1 || cl.isSet(options.part) == cl.isSet(options.name)) {
        printErr(QStringLiteral("extract: give SOURCE and one of --part N or --name NAME\n\n") + cl.helpText());
        return 2;
    }
    const QString target = cl.isSet(options.output) ? cl.value(options.output) : QStringLiteral("-");
    if (target == QLatin1String("-") && !cl.isSet(options.output) && isatty(STDOUT_FILENO)) {
        printErr(
            QStringLiteral("extract: standard output is a terminal; use -o FILE, or -o - to write there anyway\n"));
        return 2;
    }
    const QString source = cl.positionalArguments().constFirst();
    const auto opened = openSource("extract", source, cl.value(options.contentType));
    if (!opened)
        return 2;
    qsizetype available = 0;
    const core::PartSummary* chosen = chosenPart(cl, options, *opened, &available);
    if (!chosen) {
        printErr(QStringLiteral("extract: %1 has no part %2 (it has %3 parts)\n")
                     .arg(source, cl.isSet(options.part) ? cl.value(options.part)
                                                         : QStringLiteral("named '%1'").arg(cl.value(options.name)))
                     .arg(available));
        return 1;
    }
    return writePart(*opened, *chosen, target, cl.isSet(options.decoded));
}

} // namespace upin::app::cli
