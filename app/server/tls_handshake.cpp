#include "server/tls_handshake.h"

#include <QSslCipher>

namespace upin::app {

TlsHandshake::TlsHandshake(QSslSocket& socket, ListenerShared& shared, UploadSession::Publish publish, QString client,
                           const QSslConfiguration& config, std::function<void()> onEncrypted,
                           std::function<void()> onFailed)
    : m_socket(socket), m_shared(shared), m_publish(std::move(publish)), m_client(std::move(client)),
      m_onFailed(std::move(onFailed))
{
    m_clock.start();
    m_socket.setSslConfiguration(config);
    connect(&m_socket, &QSslSocket::encrypted, this, [this, onEncrypted = std::move(onEncrypted)] {
        m_done = true;
        const QSslCipher cipher = m_socket.sessionCipher();
        const QByteArray alpn = m_socket.sslConfiguration().nextNegotiatedProtocol();
        m_transport = Transport{true,
                                cipher.protocolString(),
                                cipher.name(),
                                QString::fromLatin1(alpn),
                                !m_socket.peerCertificate().isNull(),
                                double(m_clock.nsecsElapsed()) / 1e6};
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

void TlsHandshake::fail(const QString& why)
{
    if (std::exchange(m_failed, true))
        return;
    ++m_shared.tlsHandshakeFailures;
    ListenerEvent e;
    e.kind = ListenerEvent::Kind::TlsHandshakeFailed;
    e.client = m_client;
    e.errorDetail = why;
    e.elapsedMs = m_clock.elapsed();
    m_publish(std::move(e));
    m_onFailed();
}

} // namespace upin::app
