#include "server/tls_handshake.h"

#include <QSslCertificate>
#include <QSslCipher>

namespace upin::app {

namespace {
// "CN=localhost, O=Upload Inspector": the attributes in the order Qt lists them (not always the certificate's).
QString distinguishedName(const QSslCertificate& certificate, bool issuer)
{
    QStringList parts;
    const QList<QByteArray> attributes =
        issuer ? certificate.issuerInfoAttributes() : certificate.subjectInfoAttributes();
    for (const QByteArray& attribute : attributes)
        for (const QString& value : issuer ? certificate.issuerInfo(attribute) : certificate.subjectInfo(attribute))
            parts << QString::fromLatin1(attribute) + QLatin1Char('=') + value;
    return parts.join(QStringLiteral(", "));
}
} // namespace

Transport tlsTransport(const QSslSocket& socket, double handshakeMs, const QString& serverName)
{
    const bool serverSide = socket.mode() == QSslSocket::SslServerMode;
    const QSslCipher cipher = socket.sessionCipher();
    const QSslCertificate shown = serverSide ? socket.sslConfiguration().localCertificate() : socket.peerCertificate();
    Transport t;
    t.tls = true;
    t.protocol = cipher.protocolString();
    t.cipher = cipher.name();
    t.alpn = QString::fromLatin1(socket.sslConfiguration().nextNegotiatedProtocol());
    t.clientCertificate = serverSide && !socket.peerCertificate().isNull();
    t.handshakeMs = handshakeMs;
    t.serverName = serverSide ? serverName : socket.peerVerifyName();
    t.certificateSubject = distinguishedName(shown, false);
    t.certificateIssuer = distinguishedName(shown, true);
    return t;
}

TlsHandshake::TlsHandshake(QSslSocket& socket, ServerShared& shared, UploadSession::Publish publish, QString client,
                           const QSslConfiguration& config, std::function<void()> onEncrypted,
                           std::function<void()> onFailed, QString serverName)
    : m_socket(socket), m_shared(shared), m_publish(std::move(publish)), m_client(std::move(client)),
      m_onFailed(std::move(onFailed))
{
    m_clock.start();
    m_socket.setSslConfiguration(config);
    connect(&m_socket, &QSslSocket::encrypted, this,
            [this, onEncrypted = std::move(onEncrypted), serverName = std::move(serverName)] {
                m_done = true;
                m_transport = tlsTransport(m_socket, double(m_clock.nsecsElapsed()) / 1e6, serverName);
                onEncrypted();
            });
    // Server side, no client certificate is asked for or checked: nothing here is a reason to refuse.
    connect(&m_socket, &QSslSocket::sslErrors, this, [this] { m_socket.ignoreSslErrors(); });
    connect(&m_socket, &QAbstractSocket::errorOccurred, this, [this] {
        if (!m_done)
            fail(m_socket.errorString());
    });
    m_socket.startServerEncryption();
}

void publishHandshakeFailure(ServerShared& shared, const UploadSession::Publish& publish, const QString& client,
                             const QString& why, qint64 elapsedMs, bool noTlsBegun)
{
    ++shared.tlsHandshakeFailures;
    CaptureEvent e;
    e.kind = CaptureEvent::Kind::TlsHandshakeFailed;
    e.capture.client = client;
    e.capture.received = QDateTime::currentDateTimeUtc().addMSecs(-elapsedMs);
    e.capture.errorDetail = why;
    e.capture.elapsedMs = elapsedMs;
    e.noTlsBegun = noTlsBegun;
    publish(std::move(e));
}

void TlsHandshake::fail(const QString& why)
{
    if (std::exchange(m_failed, true))
        return;
    publishHandshakeFailure(m_shared, m_publish, m_client, why, m_clock.elapsed());
    m_onFailed();
}

} // namespace upin::app
