#include "cli/proxy_cli.h"

#include "cli/cli_args.h"
#include "modes/server.h"
#include "proxy/ca_advice.h"
#include "proxy/local_ca.h"

#include <QTextStream>
#include <QUrl>

#include <unistd.h>

namespace upin::app::cli {

namespace {

QString advice(const LocalCa& ca, const QString& proxyUrl)
{
    return caTrustAdvice(ca.certificatePath(), ca.fingerprint(), proxyUrl);
}

} // namespace

QString proxyUrlFor(const QString& host, quint16 port)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host);
    if (port == 0) // not known before it starts
        return url.toString() + QStringLiteral(":PORT");
    url.setPort(port);
    return url.toString();
}

int printCaInfo(const QString& proxyUrl)
{
    QString error;
    const auto ca = LocalCa::open(defaultTlsFolder(), &error);
    if (!ca) {
        printErr(QStringLiteral("proxy: %1\n").arg(error));
        return 1;
    }
    if (ca->madeNow())
        printOut(QStringLiteral("(made now: there was none)\n"));
    printOut(advice(*ca, proxyUrl));
    return 0;
}

int regenerateCa(const QString& proxyUrl, bool confirmed)
{
    const QString folder = defaultTlsFolder();
    if (!confirmed) {
        // A replaced authority breaks every client told to trust the old one: asked, never assumed.
        if (!::isatty(STDIN_FILENO)) {
            printErr(QStringLiteral("proxy: --ca-regenerate replaces the authority clients trust; add --yes to do it "
                                    "without a terminal to ask on\n"));
            return 2;
        }
        printOut(QStringLiteral("Replace the proxy's certificate authority in %1? Every client told to trust the old "
                                "one will refuse the proxy until it trusts the new one. [y/N] ")
                     .arg(folder));
        const QString answer = QTextStream(stdin).readLine().trimmed().toLower();
        if (answer != QLatin1String("y") && answer != QLatin1String("yes")) {
            printOut(QStringLiteral("Kept as it was.\n"));
            return 1;
        }
    }
    QString error;
    const auto ca = LocalCa::regenerate(folder, &error);
    if (!ca) {
        printErr(QStringLiteral("proxy: %1\n").arg(error));
        return 1;
    }
    printOut(QStringLiteral("A new certificate authority replaces the old one; a proxy running now keeps the old one "
                            "until it is started again.\n") +
             advice(*ca, proxyUrl));
    return 0;
}

void printProxyStarted(const Server& proxy)
{
    const QString url = proxyUrlFor(proxy.address().toString(), proxy.port());
    // Bound to every address, it is reached from here at 127.0.0.1: the lines to paste say so, not 0.0.0.0.
    // Qt listens on "::" for IPv6 clients only: there it is [::1].
    const QHostAddress bound = proxy.address();
    const QString local = bound == QHostAddress::AnyIPv6 ? proxyUrlFor(QStringLiteral("::1"), proxy.port())
                          : bound == QHostAddress::AnyIPv4 || bound == QHostAddress::Any
                              ? proxyUrlFor(QStringLiteral("127.0.0.1"), proxy.port())
                              : url;
    QStringList networks;
    for (const auto& [address, prefix] : proxy.proxyClients())
        networks.append(address.toString() + QLatin1Char('/') + QString::number(prefix));
    printOut(
        QStringLiteral("proxy on %1 for http:// and https:// URLs  (captures in %2)\n").arg(url, proxy.captureRoot()) +
        QStringLiteral("Clients served: %1; others get a 403 (--allow-client NETWORK says which)\n")
            .arg(networks.join(QLatin1String(", "))) +
        advice(*proxy.proxyCa(), local));
}

} // namespace upin::app::cli
