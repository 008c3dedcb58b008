#pragma once
// The certificate and key the TLS listener presents. Either the user's own (e.g. from mkcert: --cert/--key), or
// one made here on first use: self-signed, ECDSA P-256, valid for localhost, 127.0.0.1 and ::1, kept in the
// app's data folder (tls/cert.pem, tls/key.pem, readable by the user only) and reused, so that a client told to
// trust it once (curl --cacert cert.pem) keeps trusting it. Qt cannot make certificates; OpenSSL's API does.

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QString>

#include <optional>

namespace upin::app {

struct TlsIdentity {
    QSslCertificate certificate;
    QList<QSslCertificate> chain; // the certificate first, then any intermediates its file holds
    QSslKey key;
    QString certificatePath; // what a client passes to trust it: curl --cacert PATH
    QString fingerprint;     // SHA-256 of the certificate, "AB:CD:…", as browsers show it
    bool generated = false;  // made here (and perhaps just now), not the user's own
};

// SHA-256 of a certificate, "AB:CD:…", as browsers and `openssl x509 -fingerprint -sha256` show it.
QString certificateFingerprint(const QSslCertificate& certificate);

// The server side of TLS presenting identity: TLS 1.2 or later, no ALPN (the listener adds h2 per client), a
// client certificate noted but not asked for. The TLS port's, and each proxy tunnel's with its host's leaf.
QSslConfiguration serverTlsConfiguration(const TlsIdentity& identity);

// Written anew, readable by the user only (a key is a secret, and its certificate stays with it); false with error.
bool writePrivateFile(const QString& path, const QByteArray& bytes, QString* error);
// Made when absent, and the user's alone (0700); false with error.
bool makePrivateFolder(const QString& folder, QString* error);

// UploadInspector/tls in the user's data folder, beside the captures.
QString defaultTlsFolder();
// folder/cert.pem and folder/key.pem, made when absent (or expired, or unreadable as a pair); nullopt with error.
std::optional<TlsIdentity> localTlsIdentity(const QString& folder, QString* error);
// The user's own PEM files; nullopt with error naming the file that could not be used.
std::optional<TlsIdentity> tlsIdentityFromFiles(const QString& certificateFile, const QString& keyFile, QString* error);

} // namespace upin::app
