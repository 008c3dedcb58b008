#include "server/tls_identity.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <memory>

namespace upin::app {

namespace {

constexpr long kValidDays = 825; // the longest validity Apple's clients accept for a TLS server certificate

template <typename T, void (*Free)(T*)>
struct Freer {
    void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Freer<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Freer<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Freer<BIO, BIO_free_all>>;
using ExtensionPtr = std::unique_ptr<X509_EXTENSION, Freer<X509_EXTENSION, X509_EXTENSION_free>>;

QByteArray bioBytes(BIO* bio)
{
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return {data, qsizetype(size)};
}

bool addExtension(X509* certificate, int nid, const char* value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    ExtensionPtr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    return extension && X509_add_ext(certificate, extension.get(), -1) == 1;
}

// A self-signed certificate and its key, as PEM; empty on failure.
std::pair<QByteArray, QByteArray> makeSelfSigned()
{
    PkeyPtr key(EVP_EC_gen("P-256"));
    X509Ptr certificate(X509_new());
    if (!key || !certificate)
        return {};
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f; // a positive serial number
    std::unique_ptr<BIGNUM, Freer<BIGNUM, BN_free>> number(BN_bin2bn(serial, sizeof serial, nullptr));
    X509_set_version(certificate.get(), X509_VERSION_3);
    BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(certificate.get()));
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600); // a client clock a little behind still accepts
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), kValidDays * 24 * 3600);
    X509_set_pubkey(certificate.get(), key.get());
    X509_NAME* name = X509_get_subject_name(certificate.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("Upload Inspector"), -1,
                               -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(certificate.get(), name);
    const bool extended = addExtension(certificate.get(), NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1") &&
                          addExtension(certificate.get(), NID_basic_constraints, "critical,CA:FALSE") &&
                          addExtension(certificate.get(), NID_key_usage, "critical,digitalSignature") &&
                          addExtension(certificate.get(), NID_ext_key_usage, "serverAuth");
    if (!extended || X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0)
        return {};
    BioPtr certificatePem(BIO_new(BIO_s_mem())), keyPem(BIO_new(BIO_s_mem()));
    if (PEM_write_bio_X509(certificatePem.get(), certificate.get()) != 1 ||
        PEM_write_bio_PrivateKey(keyPem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return {bioBytes(certificatePem.get()), bioBytes(keyPem.get())};
}

// Written readable by the user only: the key is a secret, and both stay together.
bool writePrivate(const QString& path, const QByteArray& bytes, QString* error)
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

QString fingerprintOf(const QSslCertificate& certificate)
{
    return QString::fromLatin1(certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

} // namespace

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
    BioPtr certificateBio(BIO_new_mem_buf(certificateBytes.constData(), int(certificateBytes.size())));
    BioPtr keyBio(BIO_new_mem_buf(keyBytes.constData(), int(keyBytes.size())));
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
    identity.fingerprint = fingerprintOf(identity.certificate);
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
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(folder);
        return std::nullopt;
    }
    QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const auto [certificatePem, keyPem] = makeSelfSigned();
    if (certificatePem.isEmpty()) {
        *error = QStringLiteral("OpenSSL could not make a certificate");
        return std::nullopt;
    }
    if (!writePrivate(keyPath, keyPem, error) || !writePrivate(certificatePath, certificatePem, error))
        return std::nullopt;
    auto made = tlsIdentityFromFiles(certificatePath, keyPath, error);
    if (made)
        made->generated = true;
    return made;
}

} // namespace upin::app
