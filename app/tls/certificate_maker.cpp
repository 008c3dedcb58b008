#include "tls/certificate_maker.h"
#include "tls/openssl_ptr.h"

#include <QHostAddress>

#include <openssl/pem.h>
#include <openssl/rand.h>

namespace upin::app {

using namespace ossl;

namespace {

constexpr int kMaxCommonName = 64; // X.520's upper bound: a longer host name is in the subjectAltName only

// Fixed texts only: a host name never goes through OpenSSL's configuration syntax, where a comma would add a name.
bool addExtension(X509* certificate, X509* issuer, int nid, const char* value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    ExtensionPtr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    return extension && X509_add_ext(certificate, extension.get(), -1) == 1;
}

GENERAL_NAME* dnsName(const QString& name)
{
    const QByteArray ascii = name.toLatin1();
    GENERAL_NAME* entry = GENERAL_NAME_new();
    ASN1_IA5STRING* text = ASN1_IA5STRING_new();
    if (!entry || !text || ASN1_STRING_set(text, ascii.constData(), int(ascii.size())) != 1) {
        GENERAL_NAME_free(entry);
        ASN1_IA5STRING_free(text);
        return nullptr;
    }
    GENERAL_NAME_set0_value(entry, GEN_DNS, text);
    return entry;
}

GENERAL_NAME* ipName(const QString& text)
{
    const QHostAddress address(text);
    QByteArray bytes;
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 v4 = address.toIPv4Address();
        const char octets[] = {char(v4 >> 24), char(v4 >> 16), char(v4 >> 8), char(v4)};
        bytes = QByteArray(octets, sizeof octets);
    } else if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        const Q_IPV6ADDR v6 = address.toIPv6Address();
        bytes = QByteArray(reinterpret_cast<const char*>(v6.c), 16);
    } else {
        return nullptr;
    }
    GENERAL_NAME* entry = GENERAL_NAME_new();
    ASN1_OCTET_STRING* octets = ASN1_OCTET_STRING_new();
    if (!entry || !octets ||
        ASN1_OCTET_STRING_set(octets, reinterpret_cast<const unsigned char*>(bytes.constData()), int(bytes.size())) !=
            1) {
        GENERAL_NAME_free(entry);
        ASN1_OCTET_STRING_free(octets);
        return nullptr;
    }
    GENERAL_NAME_set0_value(entry, GEN_IPADD, octets);
    return entry;
}

bool addSubjectAltNames(X509* certificate, const CertificateSpec& spec)
{
    if (spec.dnsNames.isEmpty() && spec.ipAddresses.isEmpty())
        return true;
    std::unique_ptr<GENERAL_NAMES, Freer<GENERAL_NAMES, GENERAL_NAMES_free>> names(sk_GENERAL_NAME_new_null());
    bool ok = bool(names);
    for (const QString& name : spec.dnsNames)
        if (GENERAL_NAME* entry = dnsName(name); ok && entry)
            sk_GENERAL_NAME_push(names.get(), entry);
        else
            ok = false;
    for (const QString& address : spec.ipAddresses)
        if (GENERAL_NAME* entry = ipName(address); ok && entry)
            sk_GENERAL_NAME_push(names.get(), entry);
        else
            ok = false;
    return ok && X509_add1_ext_i2d(certificate, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) == 1;
}

bool setSerialAndValidity(X509* certificate, const CertificateSpec& spec)
{
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1)
        return false;
    serial[0] &= 0x7f; // a positive serial number
    BignumPtr number(BN_bin2bn(serial, sizeof serial, nullptr));
    return number && X509_set_version(certificate, X509_VERSION_3) == 1 &&
           BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(certificate)) &&
           X509_gmtime_adj(X509_getm_notBefore(certificate), -spec.backdateSeconds) &&
           X509_gmtime_adj(X509_getm_notAfter(certificate), long(spec.validSeconds));
}

bool setSubject(X509* certificate, const CertificateSpec& spec)
{
    X509_NAME* name = X509_get_subject_name(certificate);
    const QByteArray commonName = spec.commonName.toUtf8();
    auto add = [name](const char* field, const QByteArray& value) {
        return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                          reinterpret_cast<const unsigned char*>(value.constData()), int(value.size()),
                                          -1, 0) == 1;
    };
    return add("O", QByteArrayLiteral("Upload Inspector")) &&
           (commonName.isEmpty() || commonName.size() > kMaxCommonName || add("CN", commonName));
}

bool addUsage(X509* certificate, X509* issuer, bool authority)
{
    if (authority)
        return addExtension(certificate, issuer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
               addExtension(certificate, issuer, NID_key_usage, "critical,keyCertSign,cRLSign") &&
               addExtension(certificate, issuer, NID_subject_key_identifier, "hash");
    return addExtension(certificate, issuer, NID_basic_constraints, "critical,CA:FALSE") &&
           addExtension(certificate, issuer, NID_key_usage, "critical,digitalSignature") &&
           addExtension(certificate, issuer, NID_ext_key_usage, "serverAuth") &&
           addExtension(certificate, issuer, NID_subject_key_identifier, "hash") &&
           addExtension(certificate, issuer, NID_authority_key_identifier, "keyid:always");
}

PkeyPtr readKey(const QByteArray& pem)
{
    BioPtr bio = readBio(pem);
    auto noPassphrase = [](char*, int, int, void*) { return 0; }; // never a prompt on the terminal
    return PkeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, noPassphrase, nullptr));
}

X509Ptr readCertificate(const QByteArray& pem)
{
    BioPtr bio = readBio(pem);
    return X509Ptr(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

QByteArray keyPemOf(EVP_PKEY* key)
{
    BioPtr pem(BIO_new(BIO_s_mem()));
    if (!pem || PEM_write_bio_PrivateKey(pem.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return bioBytes(pem.get());
}

} // namespace

bool isAuthority(const QByteArray& pem)
{
    const X509Ptr certificate = readCertificate(pem);
    return certificate && X509_check_ca(certificate.get()) == 1;
}

QByteArray makeKey()
{
    PkeyPtr key(EVP_EC_gen("P-256"));
    return key ? keyPemOf(key.get()) : QByteArray();
}

PemPair makeCertificate(const CertificateSpec& spec, const PemPair* issuer, const QByteArray& keyPem)
{
    PkeyPtr key = keyPem.isEmpty() ? PkeyPtr(EVP_EC_gen("P-256")) : readKey(keyPem);
    X509Ptr certificate(X509_new());
    if (!key || !certificate)
        return {};
    X509Ptr issuerCertificate = issuer ? readCertificate(issuer->certificate) : nullptr;
    PkeyPtr issuerKey = issuer ? readKey(issuer->key) : nullptr;
    if (issuer && (!issuerCertificate || !issuerKey))
        return {};
    X509* signer = issuer ? issuerCertificate.get() : certificate.get();
    EVP_PKEY* signingKey = issuer ? issuerKey.get() : key.get();
    const bool made = setSerialAndValidity(certificate.get(), spec) && X509_set_pubkey(certificate.get(), key.get()) &&
                      setSubject(certificate.get(), spec) &&
                      X509_set_issuer_name(certificate.get(), X509_get_subject_name(signer)) == 1 &&
                      addSubjectAltNames(certificate.get(), spec) &&
                      addUsage(certificate.get(), signer, spec.authority);
    if (!made || X509_sign(certificate.get(), signingKey, EVP_sha256()) == 0)
        return {};
    BioPtr certificatePem(BIO_new(BIO_s_mem()));
    if (!certificatePem || PEM_write_bio_X509(certificatePem.get(), certificate.get()) != 1)
        return {};
    return {bioBytes(certificatePem.get()), keyPem.isEmpty() ? keyPemOf(key.get()) : keyPem};
}

} // namespace upin::app
