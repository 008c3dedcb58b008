#include "proxy/local_ca.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QRegularExpression>

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
    return std::make_shared<LocalCa>(std::move(authority), certificateFile(folder), true);
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

std::shared_ptr<LocalCa> LocalCa::open(const QString& folder, QString* error)
{
    QFile certificateIn(certificateFile(folder)), keyIn(keyFile(folder));
    if (certificateIn.open(QIODevice::ReadOnly) && keyIn.open(QIODevice::ReadOnly)) {
        PemPair kept{certificateIn.readAll(), keyIn.readAll()};
        QString ignored;
        // Read back as a pair: tlsIdentityFromFiles checks the key is the certificate's.
        const auto identity = tlsIdentityFromFiles(certificateIn.fileName(), keyIn.fileName(), &ignored);
        if (identity && identity->certificate.expiryDate() > QDateTime::currentDateTimeUtc().addDays(1)) {
            QFile::setPermissions(keyIn.fileName(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            return std::make_shared<LocalCa>(std::move(kept), QFileInfo(certificateIn).absoluteFilePath(), false);
        }
    }
    return makeAndKeep(folder, error);
}

std::shared_ptr<LocalCa> LocalCa::regenerate(const QString& folder, QString* error)
{
    return makeAndKeep(folder, error);
}

QString LocalCa::fingerprint() const
{
    return QString::fromLatin1(m_certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
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
    spec.validSeconds = kLeafValidDays * kDaySeconds;
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
