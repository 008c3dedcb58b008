#pragma once
// Small helpers shared by the CLI commands.

#include "inspect/inspect_types.h"
#include "server/server_config.h"

#include "upin/core/digest.h"
#include "upin/core/multipart_parser.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

namespace upin::app {
class Server;
}

namespace upin::app::cli {

// While it lives, Ctrl-C calls cancel on context's thread (a signal handler may only set a flag: it is polled every
// 100 ms); the default handler comes back with its end. For work on a worker thread: send, compare, probe.
class CancelOnCtrlC {
public:
    CancelOnCtrlC(QObject* context, std::function<void()> cancel);
    ~CancelOnCtrlC();
    CancelOnCtrlC(const CancelOnCtrlC&) = delete;
    CancelOnCtrlC& operator=(const CancelOnCtrlC&) = delete;

private:
    QTimer m_poll;
};

void printOut(const QString& text); // UTF-8 to stdout
void printErr(const QString& text); // UTF-8 to stderr

// --max-field-size and the other user limits (common/limits.h), with these defaults shown in --help.
QList<QCommandLineOption> limitOptions(const core::Options& defaults);
// Applies the limits the user set; what is wrong with the first value that is not a size or count (badValue), or
// empty.
QString applyLimitOptions(const QCommandLineParser& cl, core::Options& options);

// --hash NAME and --no-hash, as parse, send, listen and forward take them: sha256 (the default), xxh3 or none.
struct HashOptions {
    explicit HashOptions(const QString& what); // what is hashed, for --help
    bool isSet(const QCommandLineParser& cl) const { return cl.isSet(hash) || cl.isSet(noHash); }
    // The hash chosen with --hash, or none with --no-hash; nullopt, with "--hash: why" in error, for an unknown name.
    std::optional<core::HashKind> chosen(const QCommandLineParser& cl, QString& error) const;
    // The same, with "COMMAND: why" on stderr.
    std::optional<core::HashKind> chosen(const QCommandLineParser& cl, const char* command) const;
    QCommandLineOption hash, noHash;
};

// --port, --bind and --capture-dir, as listen and forward take them.
// "--port '70000': give a port from 0 to 65535 (0: any free one)": an option's value and what is wrong with it, in
// its rule's words (common/option_rules.h, the guards' table).
QString badValue(const QCommandLineParser& cl, const QString& option, const QString& why);

struct ServerOptions {
    explicit ServerOptions(quint16 defaultPort);
    // Sets them in config; returns what is wrong with the first value that is not valid (badValue), or empty.
    QString apply(const QCommandLineParser& cl, ServerConfig& config) const;
    QCommandLineOption port, bind, captureDir;
};

// The guards every server mode keeps (Host and Origin allow-lists, deadlines, the minimum body rate, slots), one
// option each from kGuardSettings: listen and forward take the same ones.
struct GuardOptions {
    // forProxy: without the guards of who may call a server (GuardSetting::serverOnly).
    explicit GuardOptions(bool forProxy = false);
    void addTo(QCommandLineParser& cl) const;
    // Sets them in guards; returns what is wrong with the first value that is not valid (badValue), or empty.
    QString apply(const QCommandLineParser& cl, ListenerGuards& guards) const;
    std::vector<QCommandLineOption> options;
    bool forProxy;
};

// Opens SOURCE (body, HTTP request, HAR file or capture folder) with the inspect limits; nullopt, with
// "COMMAND: why" on stderr, when it does not exist or cannot be read.
std::optional<InspectResult> openSource(const char* command, const QString& source, const QString& contentType);

int runParse(const QStringList& arguments);
int runExtract(const QStringList& arguments);
int runCurl(const QStringList& arguments);
int runBench(const QStringList& arguments);
int runListen(const QStringList& arguments);
// Serves with a started listener (or forwarder) until Ctrl-C or SIGTERM, one line per finished capture.
int serveUntilStopped(Server& listener);
int runForward(const QStringList& arguments);
int runProxy(const QStringList& arguments);
int runSend(const QStringList& arguments);
int runCompare(const QStringList& arguments);
int runResend(const QStringList& arguments);
int runHar(const QStringList& arguments);
int runProbe(const QStringList& arguments);

} // namespace upin::app::cli
