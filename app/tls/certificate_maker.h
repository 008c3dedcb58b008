#pragma once
// Certificates made with OpenSSL (Qt can read them but not make them): the TLS listener's self-signed one, the
// proxy's certificate authority, and the leaf certificates the authority signs for each host a client asks for.
// ECDSA P-256 keys and SHA-256 signatures throughout. In and out as PEM, so nothing of OpenSSL leaks to callers.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace upin::app {

struct PemPair {
    QByteArray certificate;
    QByteArray key; // unencrypted PKCS#8
    bool isNull() const { return certificate.isEmpty() || key.isEmpty(); }
};

struct CertificateSpec {
    QString commonName;
    QStringList dnsNames;    // subjectAltName DNS entries, as given (the caller checks they are host names)
    QStringList ipAddresses; // subjectAltName IP entries, IPv4 or IPv6 text
    // An authority: CA:TRUE with path length 0 (it signs leaves only), keyCertSign and cRLSign. Else a TLS server's
    // leaf: CA:FALSE, digitalSignature, serverAuth.
    bool authority = false;
    qint64 validSeconds = 0;
    qint64 backdateSeconds = 3600; // a client whose clock is a little behind still accepts it
};

// A new certificate for spec, self-signed when issuer is null. keyPem: the subject's key (PEM), or empty for a new
// one. A null pair when OpenSSL fails or a name cannot be encoded.
PemPair makeCertificate(const CertificateSpec& spec, const PemPair* issuer = nullptr, const QByteArray& keyPem = {});

// Whether pem's certificate is an authority (CA:TRUE), as the proxy's must be.
bool isAuthority(const QByteArray& pem);

// A new P-256 key as PEM (a proxy mints every host's leaf with one, as mitmproxy does: a key per host costs time
// and buys nothing, the authority's signature is what a client checks).
QByteArray makeKey();

} // namespace upin::app
