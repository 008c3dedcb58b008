#include "tls/tls_identity.h"
#include "tls/certificate_maker.h"
#include "tls/openssl_ptr.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSslSocket>
#include <QStandardPaths>

#include <openssl/pem.h>

namespace upin::app {

using namespace ossl;

namespace {

constexpr long kValidDays = 825; // the longest validity Apple's clients accept for a TLS server certificate

// A self-signed certificate for this machine's loopback names, and its key, as PEM; null on failure.
PemPair makeSelfSigned()
{
    CertificateSpec spec;
    spec.commonName = QStringLiteral("localhost");
    spec.dnsNames = {QStringLiteral("localhost")};
    spec.ipAddresses = {QStringLiteral("127.0.0.1"), QStringLiteral("::1")};
    spec.validSeconds = kValidDays * 24 * 3600;
    return makeCertificate(spec);
}

} // namespace

// Written readable by the user only: the key is a secret, and both stay together.
bool writePrivateFile(const QString& path, const QByteArray& bytes, QString* error)
{
    QFile file(path);
    QFile::remove(path); // created anew with its permissions, never readable by others for a moment
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        file.write(bytes) != bytes.size() || !file.flush()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString certificateFingerprint(const QSslCertificate& certificate)
{
    return QString::fromLatin1(certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

QSslConfiguration serverTlsConfiguration(const TlsIdentity& identity)
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificateChain(identity.chain);
    tls.setPrivateKey(identity.key);
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    tls.setPeerVerifyMode(QSslSocket::QueryPeer); // a client certificate is noted, not asked for
    // No ALPN: HTTP/1.1 is what a client speaks when none is agreed. Qt's server answers a list without any of
    // its protocols (curl --http1.0) with its first anyway, and the client's TLS refuses that ("bad extension"):
    // the listener adds h2 and http/1.1 for a client whose ClientHello asks for h2 (startPortTls).
    return tls;
}

bool makePrivateFolder(const QString& folder, QString* error)
{
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(folder);
        return false;
    }
    QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return true;
}

QString defaultTlsFolder()
{
    // Beside the captures (CaptureStore::defaultRoot), shared by the window and the CLI: a certificate a client
    // was told to trust works with either.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("UploadInspector/tls"));
}

std::optional<TlsIdentity> tlsIdentityFromFiles(const QString& certificateFile, const QString& keyFile, QString* error)
{
    QFile certificateIn(certificateFile), keyIn(keyFile);
    if (!certificateIn.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(certificateFile, certificateIn.errorString());
        return std::nullopt;
    }
    if (!keyIn.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(keyFile, keyIn.errorString());
        return std::nullopt;
    }
    const QByteArray certificateBytes = certificateIn.readAll(), keyBytes = keyIn.readAll();
    const QList<QSslCertificate> chain = QSslCertificate::fromData(certificateBytes, QSsl::Pem);
    if (chain.isEmpty()) {
        *error = QStringLiteral("%1: no PEM certificate in it").arg(certificateFile);
        return std::nullopt;
    }
    // That the key is the certificate's, before any client finds out in a failed handshake.
    BioPtr certificateBio = readBio(certificateBytes);
    BioPtr keyBio = readBio(keyBytes);
    X509Ptr x509(PEM_read_bio_X509(certificateBio.get(), nullptr, nullptr, nullptr));
    // No passphrase: OpenSSL's default would ask for one on the terminal and wait.
    auto noPassphrase = [](char*, int, int, void*) { return 0; };
    PkeyPtr pkey(PEM_read_bio_PrivateKey(keyBio.get(), nullptr, noPassphrase, nullptr));
    if (!pkey) {
        *error = QStringLiteral("%1: not an unencrypted PEM private key").arg(keyFile);
        return std::nullopt;
    }
    if (!x509 || X509_check_private_key(x509.get(), pkey.get()) != 1) {
        *error = QStringLiteral("%1 is not the key of %2").arg(keyFile, certificateFile);
        return std::nullopt;
    }
    const int type = EVP_PKEY_get_base_id(pkey.get());
    QSslKey key(keyBytes, type == EVP_PKEY_EC ? QSsl::Ec : type == EVP_PKEY_RSA ? QSsl::Rsa : QSsl::Opaque, QSsl::Pem);
    if (key.isNull()) {
        *error = QStringLiteral("%1: an RSA or EC key is needed").arg(keyFile);
        return std::nullopt;
    }
    TlsIdentity identity;
    identity.certificate = chain.first();
    identity.chain = chain; // a fullchain.pem's intermediates go out with it
    identity.key = key;
    identity.certificatePath = QFileInfo(certificateFile).absoluteFilePath();
    identity.fingerprint = certificateFingerprint(identity.certificate);
    return identity;
}

std::optional<TlsIdentity> localTlsIdentity(const QString& folder, QString* error)
{
    const QString certificatePath = QDir(folder).filePath(QStringLiteral("cert.pem"));
    const QString keyPath = QDir(folder).filePath(QStringLiteral("key.pem"));
    QString ignored;
    if (auto existing = tlsIdentityFromFiles(certificatePath, keyPath, &ignored);
        existing && existing->certificate.expiryDate() > QDateTime::currentDateTimeUtc().addDays(1)) {
        existing->generated = true;
        QFile::setPermissions(keyPath, QFileDevice::ReadOwner | QFileDevice::WriteOwner); // whoever loosened it
        return existing;
    }
    if (!makePrivateFolder(folder, error))
        return std::nullopt;
    const PemPair made = makeSelfSigned();
    if (made.isNull()) {
        *error = QStringLiteral("OpenSSL could not make a certificate");
        return std::nullopt;
    }
    if (!writePrivateFile(keyPath, made.key, error) || !writePrivateFile(certificatePath, made.certificate, error))
        return std::nullopt;
    auto identity = tlsIdentityFromFiles(certificatePath, keyPath, error);
    if (identity)
        identity->generated = true;
    return identity;
}

} // namespace upin::app
