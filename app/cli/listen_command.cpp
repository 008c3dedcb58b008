// upload-inspector-cli listen: the HTTP listener without a window; one line per finished capture.

#include "cli/cli_args.h"
#include "common/byte_size.h"
#include "common/limit_hint.h"
#include "common/limits.h"
#include "common/option_rules.h"
#include "common/qt_text.h"
#include "modes/server.h"
#include "tls/tls_advice.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QTimer>

#include <atomic>
#include <csignal>

namespace upin::app::cli {
namespace {

std::atomic<bool> g_stop{false};

void onSignal(int)
{
    g_stop = true;
}

// When the request came, as the window's Time column says it (a slow upload's line is printed when it ends).
QString receivedAt(const CaptureSummary& e)
{
    return (e.received.isValid() ? e.received.toLocalTime() : QDateTime::currentDateTime())
        .toString(QStringLiteral("HH:mm:ss"));
}

// "12:04:31  127.0.0.1:53972  PUT /file-part  refused 405  use POST"
QString refusedLine(const CaptureSummary& e)
{
    // One arg() call: a target's own "%2F" must not be taken for a place to fill.
    QString line = QStringLiteral("%1  %2  %3  refused %4  %5")
                       .arg(receivedAt(e), e.client, e.endpoint, QString::number(e.answerStatus), e.errorDetail);
    if (e.error)
        line += QStringLiteral("  error=%1@%2").arg(toQString(core::codeName(e.error->code))).arg(e.error->offset);
    return line + QLatin1Char('\n');
}

QString captureLine(const CaptureSummary& e)
{
    if (e.state == CaptureState::Refused)
        return refusedLine(e);
    double seconds = double(e.elapsedMs) / 1000.0;
    double mbps = seconds > 0 ? double(e.bytes) / 1e6 / seconds : 0;
    // One arg() call: an endpoint's own "%2F" must not be taken for a place to fill.
    QString line =
        QStringLiteral("%1  %2  %3  %4  %5 bytes  %6 parts  %7 ms  %8 MB/s  matcher=%9")
            .arg(receivedAt(e), e.client, e.endpoint, captureStateName(e.state), QString::number(e.bytes),
                 QString::number(e.parts), QString::number(e.elapsedMs), QString::number(mbps, 'f', 1), e.matcher);
    if (!e.tls.isEmpty())
        line += QStringLiteral("  over %1").arg(e.tls);
    if (!e.flowStalls.isEmpty())
        line += QStringLiteral("  (%1)").arg(e.flowStalls);
    if (e.forward && e.forward->status > 0)
        line += QStringLiteral("  upstream=%1").arg(e.forward->status);
    if (e.forward && e.forward->earlyAtByte >= 0)
        line += QStringLiteral("  answered-early-at=%1").arg(e.forward->earlyAtByte);
    if (e.forward && e.forward->serverMs >= 0)
        line += QStringLiteral("  server=%1ms").arg(e.forward->serverMs, 0, 'f', 1);
    if (e.forward && e.forward->unverified)
        line += QStringLiteral("  upstream-certificate=unchecked"); // --insecure: said on every line
    if (e.error) {
        auto name = core::codeName(e.error->code);
        line += QStringLiteral("  error=%1@%2").arg(toQString(name)).arg(e.error->offset);
    }
    if (!e.errorDetail.isEmpty())
        line += QStringLiteral("  (%1)").arg(e.errorDetail);
    else if (e.error && limitPassed(e.error->code)) // how to raise it, with this command's flag
        line += QStringLiteral("  (%1)").arg(describeError(e.error->code, LimitHint::CliFlag));
    if (!e.folder.isEmpty())
        line += QStringLiteral("  %1").arg(e.folder);
    return line + QLatin1Char('\n');
}

} // namespace

// Runs a started listener (or forwarder) until Ctrl-C or SIGTERM: one line per finished capture.
int serveUntilStopped(Server& listener)
{
    std::fflush(stdout);
    const auto tls = listener.tlsIdentity();
    const QString certificate = tls ? tls->certificatePath : QString();
    QObject::connect(&listener, &Server::events, [certificate](const QList<CaptureEvent>& batch) {
        for (const auto& e : batch) {
            if (e.kind == CaptureEvent::Kind::CaptureFinished) {
                printOut(captureLine(e.capture));
            } else if (e.kind == CaptureEvent::Kind::TlsHandshakeFailed) {
                const QString advice = tlsFailureAdvice(e.capture.errorDetail, certificate);
                printOut(QStringLiteral("%1  %2  TLS handshake failed: %3%4\n")
                             .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), e.capture.client,
                                  e.capture.errorDetail,
                                  advice.isEmpty() ? QString() : QStringLiteral("\n    ") + advice));
            }
        }
        std::fflush(stdout);
    });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QTimer stopPoll;
    QObject::connect(&stopPoll, &QTimer::timeout, [] {
        if (g_stop)
            QCoreApplication::quit();
    });
    stopPoll.start(100);
    int rc = QCoreApplication::exec();
    const int failedHandshakes = listener.tlsHandshakeFailures();
    listener.stop();                   // uploads in progress end as incomplete...
    QCoreApplication::processEvents(); // ...and their lines are printed before we go
    printOut(failedHandshakes > 0 ? QStringLiteral("stopped (%1 TLS handshakes failed)\n").arg(failedHandshakes)
                                  : QStringLiteral("stopped\n"));
    return rc;
}

namespace {

// listen's options, and the ServerConfig they make.
struct ListenOptions {
    void addTo(QCommandLineParser& cl) const;
    // The configuration the options say; nullopt once what is wrong is on stderr (exit status 2).
    std::optional<ServerConfig> config(const QCommandLineParser& cl) const;

    ServerOptions server{8080};
    // One meaning with forward's --keep-raw: the request's raw head and body in its capture folder.
    QCommandLineOption keepRaw{QStringLiteral("keep-raw"),
                               QStringLiteral("keep each request's raw head and body in its capture (/capture always "
                                              "does; this adds /file-part)")};
    QCommandLineOption bodyOnly{QStringLiteral("capture-body-only"),
                                QStringLiteral("/capture keeps each body once, in body.raw (parts are read from it), "
                                               "not each file part in a file as well")};
    QCommandLineOption keep{QStringLiteral("keep"),
                            QStringLiteral("finished captures kept; older ones are deleted (default 200)"),
                            QStringLiteral("N"), QStringLiteral("200")};
    QCommandLineOption keepBytes{QStringLiteral("keep-bytes"),
                                 QStringLiteral("total size of finished captures kept, e.g. 10G; older ones are "
                                                "deleted (default 5G; 0: no limit)"),
                                 QStringLiteral("SIZE")};
    HashOptions hash{QStringLiteral("digest of each part when the request has no ?hash=")};
    QCommandLineOption tls{QStringLiteral("tls"),
                           QStringLiteral("also serve the endpoints over HTTPS (TLS 1.2/1.3) on --tls-port; without "
                                          "--cert, with a self-signed certificate for localhost made on first use")};
    QCommandLineOption tlsPort{QStringLiteral("tls-port"), QStringLiteral("HTTPS port (default 8443; 0 picks one)"),
                               QStringLiteral("N"), QStringLiteral("8443")};
    QCommandLineOption tlsOnly{QStringLiteral("tls-only"), QStringLiteral("HTTPS only: no plain HTTP on --port")};
    QCommandLineOption cert{QStringLiteral("cert"),
                            QStringLiteral("your certificate (PEM, a full chain too), e.g. from mkcert; implies --tls"),
                            QStringLiteral("FILE")};
    QCommandLineOption key{QStringLiteral("key"), QStringLiteral("its private key (PEM)"), QStringLiteral("FILE")};
    GuardOptions guards;

private:
    QString applyRetention(const QCommandLineParser& cl, ServerConfig& config) const; // badValue's, when wrong
    bool applyTls(const QCommandLineParser& cl, ServerConfig& config) const;
};

void ListenOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(
        QStringLiteral("Receive uploads over HTTP/1.1 and parse them as they stream in. Ctrl-C stops."));
    cl.addHelpOption();
    cl.addOptions({server.port, server.bind, server.captureDir, keepRaw, bodyOnly, keep, keepBytes, hash.hash,
                   hash.noHash, tls, tlsPort, tlsOnly, cert, key});
    guards.addTo(cl);
    cl.addOptions(limitOptions(listenerLimits()));
}

QString ListenOptions::applyRetention(const QCommandLineParser& cl, ServerConfig& config) const
{
    bool keepOk = false;
    config.retention.keepCaptures = cl.value(keep).toInt(&keepOk);
    const auto keepSize = cl.isSet(keepBytes) ? parseByteSize(cl.value(keepBytes))
                                              : std::optional<qulonglong>(RetentionPolicy{}.keepBytes);
    if (!keepOk || config.retention.keepCaptures < 1)
        return badValue(cl, keep.names().constFirst(), QStringLiteral("give a number of captures, 1 or more"));
    if (!keepSize)
        return badValue(cl, keepBytes.names().constFirst(), QStringLiteral("give a size such as 500M or 10G"));
    config.retention.keepBytes = *keepSize;
    return {};
}

bool ListenOptions::applyTls(const QCommandLineParser& cl, ServerConfig& config) const
{
    config.tls = cl.isSet(tls) || cl.isSet(tlsOnly) || cl.isSet(cert);
    config.plain = !cl.isSet(tlsOnly);
    config.certificateFile = cl.value(cert);
    config.keyFile = cl.value(key);
    if (const QString wrong = checkPort(cl.value(tlsPort), &config.tlsPort); !wrong.isEmpty()) {
        printErr(QStringLiteral("listen: %1\n").arg(badValue(cl, tlsPort.names().constFirst(), wrong)));
        return false;
    }
    if (cl.isSet(cert) != cl.isSet(key)) {
        printErr(QStringLiteral("listen: --cert and --key go together\n"));
        return false;
    }
    return true;
}

std::optional<ServerConfig> ListenOptions::config(const QCommandLineParser& cl) const
{
    ServerConfig config;
    QString bad = server.apply(cl, config);
    if (bad.isEmpty())
        bad = applyRetention(cl, config);
    if (bad.isEmpty())
        bad = guards.apply(cl, config.guards);
    if (!bad.isEmpty()) {
        printErr(QStringLiteral("listen: %1\n").arg(bad));
        return std::nullopt;
    }
    config.parser = listenerLimits();
    if (const QString wrong = applyLimitOptions(cl, config.parser); !wrong.isEmpty()) {
        printErr(QStringLiteral("listen: %1\n").arg(wrong));
        return std::nullopt;
    }
    config.maxBodyBytes = config.parser.maxBodySize;
    config.keepRaw = cl.isSet(keepRaw);
    config.captureBodyOnly = cl.isSet(bodyOnly);
    const auto hashKind = hash.chosen(cl, "listen");
    if (!hashKind || !applyTls(cl, config))
        return std::nullopt;
    config.hash = *hashKind;
    return config;
}

// Where it listens, and a curl command to try each address with.
void printListening(const Server& listener)
{
    const QString host = listener.address().protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(listener.address().toString())
                             : listener.address().toString();
    if (listener.port() != 0)
        printOut(QStringLiteral("listening on http://%1:%2  (captures in %3)\n  try: curl -F file=@somefile "
                                "http://%1:%2/file-part\n")
                     .arg(host)
                     .arg(listener.port())
                     .arg(listener.captureRoot()));
    if (auto tls = listener.tlsIdentity())
        printOut(
            QStringLiteral("listening on https://%1:%2  (TLS 1.2/1.3; captures in %3)\n"
                           "  certificate %4%5\n  SHA-256 fingerprint %6\n"
                           "  try: curl --cacert %4 -F file=@somefile https://%7:%2/file-part\n")
                .arg(host)
                .arg(listener.tlsPort())
                .arg(listener.captureRoot(), tls->certificatePath,
                     tls->generated ? QStringLiteral(" (self-signed for localhost, 127.0.0.1 and ::1)") : QString(),
                     tls->fingerprint,
                     // the local certificate names localhost and the loopback addresses, not a bound address
                     tls->generated && host == QLatin1String("127.0.0.1") ? QStringLiteral("localhost") : host));
}

} // namespace

int runListen(const QStringList& arguments)
{
    const ListenOptions options;
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli listen")} + arguments);
    const std::optional<ServerConfig> config = options.config(cl);
    if (!config)
        return 2;
    Server listener;
    if (!listener.start(*config)) {
        printErr(QStringLiteral("listen: cannot listen on %1: %2\n")
                     .arg(cl.value(options.server.bind), listener.errorString()));
        return 1;
    }
    if (!QDir().mkpath(listener.captureRoot())) // the listener runs; /file-part and /capture will answer 507
        printErr(QStringLiteral("listen: warning: cannot create the captures folder %1; uploads that store files will "
                                "fail with 507 (use --capture-dir)\n")
                     .arg(listener.captureRoot()));
    printListening(listener);
    return serveUntilStopped(listener);
}

} // namespace upin::app::cli
