#pragma once
// The server side of a connection's TLS handshake, for any mode served over TLS: under the request head's
// deadline, with the listener's configuration. A client that does not finish it (plain HTTP sent to this port, a
// version or cipher we do not share, a client that stalls or goes away) is counted, published as
// TlsHandshakeFailed and dropped: it never reaches the request code. Once done, transport() says what was agreed.

#include "capture/upload_session.h"
#include "server/server_shared.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSslSocket>

#include <functional>

namespace upin::app {

// What a finished handshake agreed, on either side of a connection: the server side says the name the client asked
// for (serverName, read from its ClientHello where known) and the certificate it showed; the client side the name it
// asked for and the certificate the server showed.
Transport tlsTransport(const QSslSocket& socket, double handshakeMs, const QString& serverName = {});

// A client's TLS that did not begin or finish: counted, and published as TlsHandshakeFailed.
// noTlsBegun: not one byte of a handshake came (else it began and failed).
void publishHandshakeFailure(ServerShared& shared, const UploadSession::Publish& publish, const QString& client,
                             const QString& why, qint64 elapsedMs = 0, bool noTlsBegun = false);

class TlsHandshake final : public QObject {
    Q_OBJECT
public:
    // onEncrypted: the handshake finished; onFailed: it did not (the connection is to be dropped). config: the
    // listener's, or the one a proxy's tunnel presents (a leaf for the host the client asked for).
    TlsHandshake(QSslSocket& socket, ServerShared& shared, UploadSession::Publish publish, QString client,
                 const QSslConfiguration& config, std::function<void()> onEncrypted, std::function<void()> onFailed,
                 QString serverName = {});
    bool done() const { return m_done; }
    // Counted and published once, however many reasons come (a deadline, the client's close, an error).
    void fail(const QString& why);
    // What the handshake agreed, once done.
    const Transport& transport() const { return m_transport; }

private:
    static Transport tlsPending()
    {
        Transport t;
        t.tls = true;
        return t;
    }
    QSslSocket& m_socket;
    ServerShared& m_shared;
    UploadSession::Publish m_publish;
    QString m_client;
    std::function<void()> m_onFailed;
    QElapsedTimer m_clock;
    Transport m_transport = tlsPending();
    bool m_done = false;
    bool m_failed = false;
};

} // namespace upin::app
