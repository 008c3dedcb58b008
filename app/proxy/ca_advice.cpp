#include "proxy/ca_advice.h"
#include "sender/upload_plan.h"

#include <QRegularExpression>

namespace upin::app {

namespace {
// As it is when a shell reads it so (the common case, easier to read), else quoted.
QString pasteable(const QString& path)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./+:@%=-]+$"));
    return plain.match(path).hasMatch() ? path : shellQuote(path);
}
} // namespace

// One line per kind of client, each trusting the authority for that program alone: a system-wide trust would let
// anyone with the key (anyone who can read the user's files) read any of the user's TLS traffic.
QString caTrustAdvice(const QString& caPath, const QString& fingerprint, const QString& proxyUrl)
{
    const QString nickname = QStringLiteral("\"Upload Inspector proxy CA\"");
    return QStringLiteral(
               "The proxy's certificate authority: %1\n"
               "  SHA-256 %2\n"
               "It was made on this machine and never leaves it. Trust it in the program you inspect, not "
               "system-wide:\n"
               "  curl:             curl -x %3 --cacert %1 -F file=@somefile https://your-server/upload\n"
               "  Python requests:  REQUESTS_CA_BUNDLE=%1  (or verify= the same path)\n"
               "  Node.js:          NODE_EXTRA_CA_CERTS=%1\n"
               "  OpenSSL's users:  SSL_CERT_FILE=%1  (in place of the system's authorities)\n"
               "  Chromium:         certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n %4 -i %1\n"
               "                    then --proxy-server=%3\n"
               "  Firefox:          certutil -d sql:PROFILE_FOLDER -A -t C,, -n %4 -i %1\n"
               "Each program is then pointed at the proxy: curl -x, HTTPS_PROXY=%3 and HTTP_PROXY=%3 for most.\n")
        .arg(pasteable(caPath), fingerprint, proxyUrl, nickname); // pasted into a shell as it is
}

} // namespace upin::app
