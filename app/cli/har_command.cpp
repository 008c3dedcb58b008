// upload-inspector-cli har CAPTURE... -o FILE: captures as one HAR file for browsers' devtools and HTTP tools, as
// the window's Export HAR writes it (inspect/har_export.h).

#include "cli/cli_args.h"
#include "common/limits.h"
#include "inspect/har_export.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace upin::app::cli {

int runHar(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Write captures as one HAR 1.2 file (Chromium's and Firefox's Network panels import it, "
                       "and so does this tool's Open): each request's line, header fields and body, and the answer "
                       "its client got."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("CAPTURE"), QStringLiteral("capture folders, in the order wanted"),
                             QStringLiteral("CAPTURE..."));
    QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("the HAR file to write, whole or not at all (-: standard output)"),
                              QStringLiteral("FILE"));
    cl.addOption(output);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli har")} + arguments);
    if (cl.positionalArguments().isEmpty() || !cl.isSet(output)) {
        printErr(QStringLiteral("har: give capture folders and -o FILE\n\n") + cl.helpText());
        return 2;
    }
    for (const QString& folder : cl.positionalArguments())
        if (!QFileInfo(folder).isDir()) {
            printErr(QStringLiteral("har: %1 is not a capture folder\n").arg(folder));
            return 2;
        }
    const HarExport written = writeHar(cl.positionalArguments(), cl.value(output), inspectLimits());
    for (const QString& note : written.notes)
        printErr(QStringLiteral("har: %1\n").arg(note));
    if (!written.error.isEmpty()) {
        printErr(QStringLiteral("har: %1\n").arg(written.error));
        return written.entries == 0 && !written.notes.isEmpty() ? 1 : 2; // none readable, or the file not written
    }
    const QString said = QStringLiteral("%1: %2 of %3 captures\n")
                             .arg(cl.value(output))
                             .arg(written.entries)
                             .arg(cl.positionalArguments().size());
    cl.value(output) == QLatin1String("-") ? printErr(said) : printOut(said); // stdout holds the HAR then
    return written.entries == cl.positionalArguments().size() ? 0 : 1;
}

} // namespace upin::app::cli
