// upload-inspector-cli curl SOURCE [--to URL] [--parts-dir DIR]: a curl command that sends a stored upload's parts
// again, with their names, file names, types, field or file kinds and bytes. The Inspect tab's Copy as curl makes
// the same command from the same plan (inspect/part_bytes.h).

#include "cli/cli_args.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"

#include <QCommandLineParser>

namespace upin::app::cli {

int runCurl(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Print a curl command that sends a stored upload's parts again: a capture folder (its part "
                       "files and field values), a raw body, a whole HTTP request or a HAR file (their parts are "
                       "written to --parts-dir first)."));
    cl.addHelpOption();
    cl.addPositionalArgument(QStringLiteral("SOURCE"),
                             QStringLiteral("capture folder, body file, HTTP request or HAR file"));
    QCommandLineOption to(QStringLiteral("to"),
                          QStringLiteral("where to send: a base (http://host:port, the captured path is added) or "
                                         "a whole URL (default: the listener that stored the capture, as its client "
                                         "named it, else http://127.0.0.1:8080)"),
                          QStringLiteral("URL"));
    QCommandLineOption partsDir(QStringLiteral("parts-dir"),
                                QStringLiteral("where the parts of a source that is not a capture are written "
                                               "(default SOURCE.parts)"),
                                QStringLiteral("DIR"));
    QCommandLineOption contentType(QStringLiteral("content-type"),
                                   QStringLiteral("Content-Type with the boundary, when the source has none"),
                                   QStringLiteral("VALUE"));
    QCommandLineOption entry(QStringLiteral("entry"),
                             QStringLiteral("a HAR file's request, from 0 as parse lists them (default: its first "
                                            "multipart request)"),
                             QStringLiteral("N"));
    cl.addOptions({to, partsDir, contentType, entry});
    cl.process(QStringList{QStringLiteral("upload-inspector-cli curl")} + arguments);
    if (cl.positionalArguments().size() != 1) {
        printErr(QStringLiteral("curl: give one SOURCE\n\n") + cl.helpText());
        return 2;
    }
    const auto result = openSource("curl", cl.positionalArguments().constFirst(), cl.value(contentType));
    if (!result)
        return 2;
    QString why;
    const auto command =
        resendCommandFor(*result, cl.value(to), cl.isSet(partsDir) ? cl.value(partsDir) : QString(), &why,
                         QStringLiteral("http://127.0.0.1:8080"), cl.isSet(entry) ? cl.value(entry).toInt() : -1);
    if (!command) {
        printErr(QStringLiteral("curl: %1\n").arg(why));
        return 1;
    }
    printOut(*command + QLatin1Char('\n'));
    return 0;
}

} // namespace upin::app::cli
