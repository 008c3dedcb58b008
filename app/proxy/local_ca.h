#pragma once
// The proxy's own certificate authority, as mitmproxy keeps one: made once on first use (ECDSA P-256, CA:TRUE with
// path length 0, ten years), kept beside the listener's certificate (folder 0700, key 0600), never sent anywhere,
// and reused, so that a client told to trust it once keeps trusting it. For each host a client opens a tunnel to,
// a leaf certificate is minted on demand, signed by it, and kept in memory for its short life. Safe to share
// between the threads connections run on.

#include "tls/certificate_maker.h"
#include "tls/tls_identity.h"

#include <QCache>
#include <QDateTime>

#include <memory>
#include <mutex>
#include <optional>

namespace upin::app {

class LocalCa {
public:
    static constexpr qint64 kAuthorityValidDays = 3650;
    static constexpr qint64 kLeafValidDays = 7;          // short: a leaf that leaks is soon worthless
    static constexpr qint64 kRenewWithinSeconds = 86400; // a cached leaf this close to its end is minted again
    static constexpr int kCachedLeaves = 1000;

    // folder/proxy-ca.pem and folder/proxy-ca-key.pem: read, or made when absent, unreadable or within a day of
    // expiring (a proxy that stops working a day later would be worse). nullptr with error.
    static std::shared_ptr<LocalCa> open(const QString& folder, QString* error);
    // A new authority in place of the old one, which clients must be told to trust instead.
    static std::shared_ptr<LocalCa> regenerate(const QString& folder, QString* error);

    const QString& certificatePath() const { return m_certificatePath; }
    const QSslCertificate& certificate() const { return m_certificate; }
    QString fingerprint() const; // SHA-256, "AB:CD:…", as browsers show it
    bool madeNow() const { return m_madeNow; }

    // A certificate for host (a DNS name, or an IPv4 or IPv6 address, brackets allowed), signed by this authority,
    // with its key; the chain holds the leaf and the authority. nullopt with error for a name that is not a host's.
    std::optional<TlsIdentity> leafFor(const QString& host, QString* error);

    LocalCa(PemPair authority, QString certificatePath, bool madeNow);

private:
    struct Leaf {
        TlsIdentity identity;
        QDateTime renewAfter;
    };
    PemPair m_authority;
    QSslCertificate m_certificate;
    QString m_certificatePath;
    bool m_madeNow = false;
    QByteArray m_leafKeyPem; // one key for every leaf, as mitmproxy: the authority's signature is what clients check
    QSslKey m_leafKey;
    std::mutex m_mutex; // guards m_leaves
    QCache<QString, Leaf> m_leaves{kCachedLeaves};
};

// host as a certificate names it: lower case, no brackets; empty when it is neither a DNS name nor an IP address.
QString certificateHostName(const QString& host);

} // namespace upin::app
