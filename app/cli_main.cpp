// upload-inspector-cli: everything the tool does, without a window.

#include "cli/cli_args.h"
#include "common/file_size_limit.h"
#include "common/malloc_tuning.h"
#include "upin_version.h"

#include <QCoreApplication>

using namespace upin::app::cli;

namespace {

const char kUsage[] = R"(Usage: upload-inspector-cli COMMAND [options]

commands:
  parse FILE|CAPTURE_FOLDER [--raw-http] [--content-type VALUE] [--strict] [--matcher kmp|chunked|simd]
        [--hash sha256|xxh3|none] [--json] [--max-field-size SIZE ...]
        inspect a stored multipart body or a capture: parts, headers, values, offsets, sizes, digests, diagnostics
  extract SOURCE --part N|--name NAME [-o FILE|-]
        write one part's bytes from a body, an HTTP request, a HAR file or a capture folder
  curl SOURCE [--to URL] [--parts-dir DIR]
        print a curl command that sends a capture's (or a body's, request's, HAR file's) parts again
  har CAPTURE... -o FILE
        write captures as one HAR file, for browsers' devtools and this tool's Open
  listen [--port N] [--bind ADDR] [--capture-dir DIR] [--keep-raw] [--capture-body-only]
        [--hash sha256|xxh3|none]
        [--tls [--tls-port N] [--tls-only] [--cert FILE --key FILE]] [--keep N] [--keep-bytes SIZE]
        [--head-timeout S] [--idle-timeout S] [--keep-alive-timeout S] [--answer-timeout S] [--min-body-rate SIZE]
        [--allow-origin ORIGIN]... [--allow-host NAME]... [--max-body SIZE ...] (listen --help for all)
        receive uploads on http://127.0.0.1:8080, and with --tls on https://localhost:8443 (/part-event,
        /file-part, /capture, /discard, GET /captures/ID)
  forward UPSTREAM_URL [--port N] [--bind ADDR] [--capture-dir DIR] [--keep-raw] [--save-parts] [--preserve-host]
        [--cacert FILE | --insecure] [--connect-timeout S] [--upstream-timeout S] [--hash sha256|xxh3|none]
        pass every request on to your own server (http or https) as it arrives, on http://127.0.0.1:8081, and
        inspect it on the way: parts, hashes, the upstream's answer and how long the server took after the last byte
  proxy [--port N] [--bind ADDR] [--capture-dir DIR] [--keep-raw] [--save-parts] [--cacert FILE | --insecure]
        [--hash sha256|xxh3|none] [--no-intercept HOST]... [--ca-info] [--ca-regenerate [--yes]]
        a forward proxy on http://127.0.0.1:8082 for http:// and https:// URLs (curl -x, a program's proxy
        setting): each request goes on to the server it names and is inspected on the way, as forward inspects it
  send URL [-F name=@path[;type=T][;filename=F]] [-F name=value] [-F name=<path] [--synthetic name=SIZE] [--runs N]
        [--chunked] [--expect-continue] [--hash sha256|xxh3|none] [-H 'Name: value'] [--cacert FILE] [--insecure]
        [--stall-timeout S]
        [--json|--csv] [--print-curl]
        upload a streamed multipart body; time it; check part hashes against the listener's answer
  compare --target URL --target URL ... [same part options] [--runs N] [--csv]
        the same upload to several targets, interleaved, with a median/min/max table
  resend CAPTURE [--to URL] [-H 'Name: value']... [same options as send]
        send a captured upload again (its parts, method and header fields), a header edited or none
  probe URL [--field NAME] [-F SPEC]... [-H HEADER]... [--size SIZE] [--shapes LIST] [--concurrency LIST]
        [--pid PID] [--baseline URL] [--max-bytes SIZE] [--max-time S] [--json] [--fail-on KINDS] [--against FILE]
        find what is slow or broken in your server's upload path: body shapes, scaling, parallel clients, memory
  bench [--size N] [--input random|mixed|nearmiss|crlf|manyparts|all] [--matcher kmp|chunked|simd|all]
        [--runs N] [--chunk N] [--json]
        time the parser with each matcher strategy against a memchr ceiling
  --version
        print the version (git describe's, as the Debian package numbers it; the window's Help > About says it too)

Run 'upload-inspector-cli COMMAND --help' for a command's options.
)";

} // namespace

int main(int argc, char** argv)
{
    upin::app::keepFreedMemory();
    upin::app::failWritesPastFileSizeLimit();
    // Qt's own event dispatcher rather than GLib's: a command line tool needs no GLib main loop, and the QNAM
    // engine's 16 KiB cross-thread hand-offs (common/same_core.h) ran 10% faster on it (send --engine qnam, 200 MiB).
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("upload-inspector-cli"));
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty() || arguments.first() == QLatin1String("--help") ||
        arguments.first() == QLatin1String("-h")) {
        printOut(QString::fromLatin1(kUsage));
        return arguments.isEmpty() ? 2 : 0;
    }
    if (arguments.first() == QLatin1String("--version")) {
        printOut(QStringLiteral("upload-inspector-cli %1\n").arg(QStringLiteral(UPIN_VERSION)));
        return 0;
    }
    const QString command = arguments.takeFirst();
    if (command == QLatin1String("parse"))
        return runParse(arguments);
    if (command == QLatin1String("extract"))
        return runExtract(arguments);
    if (command == QLatin1String("curl"))
        return runCurl(arguments);
    if (command == QLatin1String("bench"))
        return runBench(arguments);
    if (command == QLatin1String("listen"))
        return runListen(arguments);
    if (command == QLatin1String("forward"))
        return runForward(arguments);
    if (command == QLatin1String("proxy"))
        return runProxy(arguments);
    if (command == QLatin1String("send"))
        return runSend(arguments);
    if (command == QLatin1String("compare"))
        return runCompare(arguments);
    if (command == QLatin1String("resend"))
        return runResend(arguments);
    if (command == QLatin1String("har"))
        return runHar(arguments);
    if (command == QLatin1String("probe"))
        return runProbe(arguments);
    printErr(QStringLiteral("unknown command '%1'\n\n").arg(command) + QString::fromLatin1(kUsage));
    return 2;
}
