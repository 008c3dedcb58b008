#include "tls/tls_advice.h"

namespace upin::app {

QString tlsFailureAdvice(const QString& error, const QString& certificatePath)
{
    const auto says = [&error](const char* words) { return error.contains(QLatin1String(words), Qt::CaseInsensitive); };
    // The client's alert: it checked our self-signed certificate against its own trust store.
    if (says("unknown ca") || says("bad certificate") || says("certificate unknown"))
        return QStringLiteral("the client does not trust this certificate: give it --cacert %1 (curl), or add it to "
                              "its trust store")
            .arg(certificatePath);
    // Plain HTTP on the HTTPS port: OpenSSL sees "GET /" or "POST" where a ClientHello should be.
    if (says("http request") || says("wrong version number"))
        return QStringLiteral("the client spoke plain HTTP to the HTTPS port: use an https:// URL, or the http port");
    if (says("no shared cipher") || says("unsupported protocol") || says("version too low"))
        return QStringLiteral("the client offers no TLS version or cipher we accept (TLS 1.2 or later)");
    return {};
}

} // namespace upin::app
