// upload-inspector-cli forward UPSTREAM_URL: a reverse proxy on 127.0.0.1 that passes every request on to the
// user's own server as it arrives and inspects it on the way (forwarder/relay.h); one line per
// exchange, with the upstream's status and the server time. upload-inspector-cli proxy: the same relay as a
// forward proxy, each request to the server its URL names (curl -x, a browser's proxy setting).

#include "cli/cli_args.h"
#include "cli/proxy_cli.h"
#include "common/option_rules.h"
#include "modes/server.h"
#include "proxy/proxy_clients.h"

#include <QCommandLineParser>
#include <QDir>

namespace upin::app::cli {

namespace {

// The one UPSTREAM_URL, http:// or https://; else what is wrong with the arguments, in words.
QString upstreamFrom(const QStringList& positional, QUrl& upstream)
{
    if (positional.size() != 1)
        return QStringLiteral("give one UPSTREAM_URL, e.g. http://127.0.0.1:8080 (see --help)");
    if (const QString wrong = checkHttpUrl(positional.first(), &upstream); !wrong.isEmpty())
        return QStringLiteral("%1: %2").arg(positional.first(), wrong);
    return {};
}

QString relayDescription(bool proxy)
{
    return proxy ? QStringLiteral(
                       "A forward proxy (curl -x, a browser's or an SDK's proxy setting) for http:// and https:// "
                       "URLs: each request goes on to the server it names as it arrives, and is inspected on "
                       "the way: parts, hashes, the server's answer, the server time. https is opened with a "
                       "certificate from the proxy's own authority, which the client is to trust "
                       "(--ca-info). Ctrl-C stops.")
                 : QStringLiteral("Pass every request on to UPSTREAM_URL (http:// or https://, with an optional path "
                                  "prefix) as it arrives, and inspect it on the way: parts, hashes, the upstream's "
                                  "answer, the server time. Ctrl-C stops.");
}

// The options of forward and proxy, and what they make: the relay's ServerConfig.
struct RelayOptions {
    explicit RelayOptions(bool proxy);
    void addTo(QCommandLineParser& cl) const;
    // The configuration the options say; nullopt once what is wrong is on stderr (exit status 2).
    std::optional<ServerConfig> config(const QCommandLineParser& cl) const;

    bool proxy;
    const char* command;
    ServerOptions server;
    QCommandLineOption keepRaw{QStringLiteral("keep-raw"),
                               QStringLiteral("keep each request's raw head and body in the capture (a multipart "
                                              "one's parts too)")};
    QCommandLineOption saveParts{QStringLiteral("save-parts"),
                                 QStringLiteral("store the parts' bytes in the capture folder (else parsed and "
                                                "hashed only)")};
    QCommandLineOption keepBodies{QStringLiteral("keep-bodies"),
                                  QStringLiteral("keep the body of a request that is not multipart (JSON, a PUT's "
                                                 "file) whole in its capture (else counted and hashed only)")};
    QCommandLineOption preserveHost{QStringLiteral("preserve-host"),
                                    QStringLiteral("pass the client's Host on (default: the upstream's)")};
    QCommandLineOption cacert{QStringLiteral("cacert"),
                              QStringLiteral("https upstream: also trust the certificates in FILE (PEM)"),
                              QStringLiteral("FILE")};
    QCommandLineOption insecure{{QStringLiteral("k"), QStringLiteral("insecure")},
                                QStringLiteral("https upstream: do not check its certificate")};
    QCommandLineOption connectTimeout{QStringLiteral("connect-timeout"),
                                      QStringLiteral("seconds to reach the upstream, else 502 (default 10)"),
                                      QStringLiteral("S"), QStringLiteral("10")};
    // Not --answer-timeout: that is the guards' (the client's time to take an answer), as listen has it.
    QCommandLineOption answerTimeout{
        QStringLiteral("upstream-timeout"),
        QStringLiteral("seconds from the request's end to the upstream's answer, else 504 (default 60)"),
        QStringLiteral("S"), QStringLiteral("60")};
    HashOptions hash{QStringLiteral("digest of each part (and of a body that is not multipart)")};
    QCommandLineOption caInfo{QStringLiteral("ca-info"),
                              QStringLiteral("say where the proxy's certificate authority is and how to trust it")};
    QCommandLineOption caRegenerate{QStringLiteral("ca-regenerate"),
                                    QStringLiteral("replace the certificate authority (asks first)")};
    QCommandLineOption yes{QStringLiteral("yes"), QStringLiteral("with --ca-regenerate: do not ask")};
    QCommandLineOption noIntercept{
        QStringLiteral("no-intercept"),
        QStringLiteral("pass https to HOST (a name or a glob such as *.bank.example; repeatable; matched against the "
                       "CONNECT's host and the ClientHello's SNI) through unopened: the client sees the server's own "
                       "certificate, only byte counts are recorded"),
        QStringLiteral("HOST")};
    QCommandLineOption allowClient{QStringLiteral("allow-client"),
                                   QStringLiteral("serve clients from NETWORK (10.0.0.0/8, or one address) only; "
                                                  "repeatable (default: this machine, and the networks of the "
                                                  "interfaces --bind listens on)"),
                                   QStringLiteral("NETWORK")};
    QCommandLineOption onlyHost{QStringLiteral("only-host"),
                                QStringLiteral("record only requests for HOST (a name or a glob; repeatable); the "
                                               "rest are relayed and not kept"),
                                QStringLiteral("HOST")};
    QCommandLineOption onlyUploads{QStringLiteral("only-uploads"),
                                   QStringLiteral("record only requests with a body (a browser's GETs are relayed "
                                                  "and not kept)")};
    GuardOptions guards; // the listener's own: deadlines, the rate; --allow-origin for forward's page

private:
    std::optional<ForwardSettings> forwardSettings(const QCommandLineParser& cl) const;
    bool readProxy(const QCommandLineParser& cl, ForwardSettings& forward) const;
};

RelayOptions::RelayOptions(bool proxy)
    : proxy(proxy), command(proxy ? "proxy" : "forward"), server(proxy ? 8082 : 8081), guards(proxy)
{}

void RelayOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(relayDescription(proxy));
    cl.addHelpOption();
    if (!proxy)
        cl.addPositionalArgument(QStringLiteral("UPSTREAM_URL"), QStringLiteral("e.g. http://127.0.0.1:8080"));
    cl.addOptions({server.port, server.bind, server.captureDir, keepRaw, saveParts, keepBodies, cacert, insecure,
                   connectTimeout, answerTimeout, hash.hash, hash.noHash});
    if (proxy)
        cl.addOptions({caInfo, caRegenerate, yes, noIntercept, allowClient, onlyHost, onlyUploads});
    else // a proxy's Host is the URL's authority (RFC 9112 3.2.2)
        cl.addOption(preserveHost);
    guards.addTo(cl);
}

bool RelayOptions::readProxy(const QCommandLineParser& cl, ForwardSettings& forward) const
{
    forward.noIntercept = cl.values(noIntercept);
    forward.onlyHosts = cl.values(onlyHost);
    forward.onlyUploads = cl.isSet(onlyUploads);
    for (const QString& network : cl.values(allowClient)) {
        const auto parsed = parseClientNetwork(network);
        if (!parsed) {
            printErr(QStringLiteral("proxy: --allow-client '%1': give an address or a network such as 10.0.0.0/8\n")
                         .arg(network));
            return false;
        }
        forward.allowedClients.append(*parsed);
    }
    return true;
}

std::optional<ForwardSettings> RelayOptions::forwardSettings(const QCommandLineParser& cl) const
{
    ForwardSettings forward;
    forward.proxy = proxy;
    if (proxy && !readProxy(cl, forward))
        return std::nullopt;
    if (!proxy) {
        if (const QString error = upstreamFrom(cl.positionalArguments(), forward.upstream); !error.isEmpty()) {
            printErr(QStringLiteral("forward: %1\n").arg(error)); // only forward has one
            return std::nullopt;
        }
        forward.preserveHost = cl.isSet(preserveHost);
    }
    forward.saveParts = cl.isSet(saveParts);
    forward.keepBodies = cl.isSet(keepBodies);
    forward.caCertificates = cl.value(cacert);
    forward.insecure = cl.isSet(insecure);
    if (const QString wrong = checkCaFile(forward.caCertificates); !wrong.isEmpty()) {
        printErr(QStringLiteral("%1: %2\n").arg(QLatin1String(command), badValue(cl, QStringLiteral("cacert"), wrong)));
        return std::nullopt;
    }
    return forward;
}

std::optional<ServerConfig> RelayOptions::config(const QCommandLineParser& cl) const
{
    std::optional<ForwardSettings> forward = forwardSettings(cl);
    if (!forward)
        return std::nullopt;
    ServerConfig config;
    QString bad = server.apply(cl, config);
    if (bad.isEmpty())
        bad = guards.apply(cl, config.guards);
    for (const QCommandLineOption* seconds : {&connectTimeout, &answerTimeout}) {
        int* ms = seconds == &connectTimeout ? &forward->connectTimeoutMs : &forward->upstreamAnswerTimeoutMs;
        if (const QString wrong = checkSeconds(cl.value(*seconds), ms); bad.isEmpty() && !wrong.isEmpty())
            bad = badValue(cl, seconds->names().constFirst(), wrong);
    }
    if (!bad.isEmpty()) {
        printErr(QStringLiteral("%1: %2\n").arg(QLatin1String(command), bad));
        return std::nullopt;
    }
    const auto hashKind = hash.chosen(cl, command);
    if (!hashKind)
        return std::nullopt;
    config.hash = *hashKind;
    config.keepRaw = cl.isSet(keepRaw);
    config.maxBodyBytes = std::numeric_limits<qint64>::max(); // the upstream's to limit, not ours
    config.forward = *forward;
    return config;
}

int runRelay(const QStringList& arguments, bool proxy)
{
    const RelayOptions options(proxy);
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli ") + QLatin1String(options.command)} + arguments);
    if (proxy && (cl.isSet(options.caInfo) || cl.isSet(options.caRegenerate))) {
        quint16 port = 0;
        if (const QString wrong = checkPort(cl.value(options.server.port), &port); !wrong.isEmpty()) {
            printErr(QStringLiteral("proxy: %1\n").arg(badValue(cl, options.server.port.names().constFirst(), wrong)));
            return 2;
        }
        const QString url = proxyUrlFor(cl.value(options.server.bind), port);
        return cl.isSet(options.caInfo) ? printCaInfo(url) : regenerateCa(url, cl.isSet(options.yes));
    }
    const std::optional<ServerConfig> config = options.config(cl);
    if (!config)
        return 2;
    Server relay;
    if (!relay.start(*config)) {
        printErr(QStringLiteral("%1: cannot listen on %2: %3\n")
                     .arg(QLatin1String(options.command), cl.value(options.server.bind), relay.errorString()));
        return 1;
    }
    QDir().mkpath(relay.captureRoot());
    if (proxy)
        printProxyStarted(relay);
    else
        printOut(QStringLiteral("forwarding http://%1:%2 -> %3  (captures in %4)\n"
                                "  try: curl -F file=@somefile http://%1:%2/file-part\n")
                     .arg(relay.address().toString())
                     .arg(relay.port())
                     .arg(config->forward->upstream.toString(), relay.captureRoot()));
    return serveUntilStopped(relay);
}

} // namespace

int runForward(const QStringList& arguments)
{
    return runRelay(arguments, false);
}

int runProxy(const QStringList& arguments)
{
    return runRelay(arguments, true);
}

} // namespace upin::app::cli
