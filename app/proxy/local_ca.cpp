#include "proxy/local_ca.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QLockFile>
#include <QRegularExpression>
#include <algorithm>

namespace upin::app {

namespace {

constexpr qint64 kDaySeconds = qint64{24} * 3600;

QString certificateFile(const QString& folder)
{
    return QDir(folder).filePath(QStringLiteral("proxy-ca.pem"));
}

QString keyFile(const QString& folder)
{
    return QDir(folder).filePath(QStringLiteral("proxy-ca-key.pem"));
}

std::shared_ptr<LocalCa> makeAndKeep(const QString& folder, QString* error)
{
    CertificateSpec spec;
    spec.commonName = QStringLiteral("Upload Inspector proxy CA");
    spec.authority = true;
    spec.validSeconds = LocalCa::kAuthorityValidDays * kDaySeconds;
    PemPair authority = makeCertificate(spec);
    if (authority.isNull()) {
        *error = QStringLiteral("OpenSSL could not make a certificate authority");
        return nullptr;
    }
    if (!makePrivateFolder(folder, error) || !writePrivateFile(keyFile(folder), authority.key, error) ||
        !writePrivateFile(certificateFile(folder), authority.certificate, error))
        return nullptr;
    return std::make_shared<LocalCa>(std::move(authority), QFileInfo(certificateFile(folder)).absoluteFilePath(), true);
}

// The kept authority, checked: the key is the certificate's (tlsIdentityFromFiles), it is an authority, and it has
// a leaf's life left. nullptr with why in error.
std::shared_ptr<LocalCa> readKept(const QString& folder, QString* error)
{
    const auto identity = tlsIdentityFromFiles(certificateFile(folder), keyFile(folder), error);
    if (!identity)
        return nullptr;
    PemPair kept{identity->certificate.toPem(), identity->key.toPem()};
    if (!isAuthority(kept.certificate)) {
        *error = QStringLiteral("%1 is not a certificate authority").arg(certificateFile(folder));
        return nullptr;
    }
    if (identity->certificate.expiryDate() < QDateTime::currentDateTimeUtc().addDays(LocalCa::kLeafValidDays)) {
        *error = QStringLiteral("%1 expires on %2")
                     .arg(certificateFile(folder), identity->certificate.expiryDate().toString(Qt::ISODate));
        return nullptr;
    }
    QFile::setPermissions(keyFile(folder), QFileDevice::ReadOwner | QFileDevice::WriteOwner); // whoever loosened it
    return std::make_shared<LocalCa>(std::move(kept), identity->certificatePath, false);
}

// Two first starts at once (a proxy and proxy --ca-info) would write halves of two pairs: one at a time.
std::unique_ptr<QLockFile> lockFolder(const QString& folder, QString* error)
{
    if (!makePrivateFolder(folder, error))
        return nullptr;
    auto lock = std::make_unique<QLockFile>(QDir(folder).filePath(QStringLiteral("proxy-ca.lock")));
    if (!lock->tryLock(10'000)) {
        *error = lock->error() == QLockFile::LockFailedError
                     ? QStringLiteral("%1: another process holds the lock").arg(lock->fileName())
                     : QStringLiteral("%1: cannot be created (the folder is not writable?)").arg(lock->fileName());
        return nullptr;
    }
    return lock;
}

// A leaf lives a week, and never past its authority.
qint64 leafSeconds(const QSslCertificate& authority)
{
    return std::clamp(QDateTime::currentDateTimeUtc().secsTo(authority.expiryDate()), qint64{0},
                      LocalCa::kLeafValidDays * kDaySeconds);
}

} // namespace

QString certificateHostName(const QString& host)
{
    QString name = host.trimmed().toLower();
    if (name.startsWith(QLatin1Char('[')) && name.endsWith(QLatin1Char(']')))
        name = name.mid(1, name.size() - 2);
    if (QHostAddress address; address.setAddress(name))
        return address.toString();
    // Letters, digits, hyphens and underscores in dot-separated labels of 1-63, 253 in all: anything else (a comma,
    // a space, a NUL) is not a host a client could have asked for.
    static const QRegularExpression label(QStringLiteral("^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$"));
    if (name.endsWith(QLatin1Char('.')))
        name.chop(1);
    if (name.isEmpty() || name.size() > 253)
        return {};
    for (const QString& part : name.split(QLatin1Char('.')))
        if (!label.match(part).hasMatch())
            return {};
    return name;
}

LocalCa::LocalCa(PemPair authority, QString certificatePath, bool madeNow)
    : m_authority(std::move(authority)), m_certificate(m_authority.certificate, QSsl::Pem),
      m_certificatePath(std::move(certificatePath)), m_madeNow(madeNow), m_leafKeyPem(makeKey()),
      m_leafKey(m_leafKeyPem, QSsl::Ec, QSsl::Pem)
{}

// Made only when there is none: an authority clients were told to trust is never replaced without being asked
// (--ca-regenerate), even when it cannot be read.
std::shared_ptr<LocalCa> LocalCa::open(const QString& folder, QString* error)
{
    const auto lock = lockFolder(folder, error);
    if (!lock)
        return nullptr;
    if (!QFile::exists(certificateFile(folder)) && !QFile::exists(keyFile(folder)))
        return makeAndKeep(folder, error);
    QString why;
    auto kept = readKept(folder, &why);
    if (!kept)
        *error = QStringLiteral("%1; a new one, which clients must be told to trust: upload-inspector-cli proxy "
                                "--ca-regenerate")
                     .arg(why);
    return kept;
}

std::shared_ptr<LocalCa> LocalCa::regenerate(const QString& folder, QString* error)
{
    const auto lock = lockFolder(folder, error);
    return lock ? makeAndKeep(folder, error) : nullptr;
}

QString LocalCa::fingerprint() const
{
    return certificateFingerprint(m_certificate);
}

std::optional<TlsIdentity> LocalCa::leafFor(const QString& host, QString* error)
{
    const QString name = certificateHostName(host);
    if (name.isEmpty()) {
        *error = QStringLiteral("'%1' is not a host name or an IP address").arg(host.left(100));
        return std::nullopt;
    }
    const std::lock_guard lock(m_mutex);
    if (const Leaf* cached = m_leaves.object(name); cached && cached->renewAfter > QDateTime::currentDateTimeUtc())
        return cached->identity;
    CertificateSpec spec;
    spec.commonName = name;
    (QHostAddress(name).isNull() ? spec.dnsNames : spec.ipAddresses) = QStringList{name};
    spec.validSeconds = leafSeconds(m_certificate);
    const PemPair leaf = makeCertificate(spec, &m_authority, m_leafKeyPem);
    if (leaf.isNull() || m_leafKey.isNull()) {
        *error = QStringLiteral("OpenSSL could not make a certificate for %1").arg(name);
        return std::nullopt;
    }
    auto made = std::make_unique<Leaf>();
    made->identity.certificate = QSslCertificate(leaf.certificate, QSsl::Pem);
    made->identity.chain = {made->identity.certificate, m_certificate};
    made->identity.key = m_leafKey;
    made->identity.certificatePath = m_certificatePath; // what a client is to trust: the authority
    made->identity.fingerprint = fingerprint();
    made->identity.generated = true;
    made->renewAfter = made->identity.certificate.expiryDate().addSecs(-kRenewWithinSeconds);
    TlsIdentity identity = made->identity;
    m_leaves.insert(name, made.release());
    return identity;
}

} // namespace upin::app
