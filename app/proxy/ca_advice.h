#pragma once
// Where the proxy's certificate authority is and how to make a client trust it, in words the CLI prints
// (`proxy --ca-info`, and when it starts) and the window shows. Pure.

#include <QString>

namespace upin::app {

// caPath: the authority's PEM; fingerprint: its SHA-256; proxyUrl: "http://127.0.0.1:8082".
QString caTrustAdvice(const QString& caPath, const QString& fingerprint, const QString& proxyUrl);

} // namespace upin::app
