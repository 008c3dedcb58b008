#include "server/client_side.h"

#include "common/http_answer.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"

#include <QSslSocket>

#include <sys/socket.h>

namespace upin::app {

ClientSide::ClientSide(QTcpSocket& socket, ServerShared& shared, QObject& connection, bool admitted,
                       std::function<void()> closeIfWaiting)
    : m_socket(socket), m_shared(shared), m_connection(connection), m_admitted(admitted)
{
    for (QTimer* timer : {&m_keepAliveTimer, &m_answerTimer, &m_lingerTimer})
        timer->setSingleShot(true);
    connect(&m_keepAliveTimer, &QTimer::timeout, this, [this] { m_waitingClose(); });
    connect(&m_answerTimer, &QTimer::timeout, this, [this] {
        drop(QStringLiteral("the client was dropped: it took nothing more of the answer for %1 ms")
                 .arg(m_shared.config.guards.answerTimeoutMs));
    });
    connect(&m_lingerTimer, &QTimer::timeout, this, &ClientSide::endLinger);
    auto progress = [this] {
        if (unsentBytes(m_socket) == 0)
            m_answerTimer.stop();
        else if (m_answerTimer.isActive()) // taking it: the deadline counts from the latest progress
            m_answerTimer.start(m_shared.config.guards.answerTimeoutMs);
        if (m_closing)
            shutdownWhenSent();
    };
    connect(&m_socket, &QTcpSocket::bytesWritten, this, progress);
    if (auto* tls = qobject_cast<QSslSocket*>(&m_socket)) // the TLS port's, or a proxy's that may open a tunnel
        connect(tls, &QSslSocket::encryptedBytesWritten, this, progress);
    m_waitingClose = std::move(closeIfWaiting);
}

ClientSide::~ClientSide()
{
    if (m_waiting)
        m_shared.waiting.remove(&m_connection);
    releaseSlot();
    if (m_lingering)
        --m_shared.lingeringConnections;
}

void ClientSide::releaseSlot()
{
    if (std::exchange(m_holdsSlot, false))
        --m_shared.activeConnections;
}

QByteArray ClientSide::answerHead(int status, const QByteArray& contentType, qsizetype length,
                                  const QByteArray& extraFields, bool close)
{
    const QByteArray framing =
        status == 204 // RFC 9110: a 204 has no content, and no Content-Length
            ? QByteArray()
            : "Content-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(length) + "\r\n";
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n" + framing + extraFields +
           (close ? "Connection: close\r\n" : "") + "\r\n";
}

void ClientSide::writeAnswer(int status, const QByteArray& contentType, const QByteArrayList& body,
                             const QByteArray& extraFields, bool close, bool headOnly)
{
    qsizetype length = 0;
    for (const QByteArray& piece : body)
        length += piece.size();
    m_socket.write(answerHead(status, contentType, length, extraFields, close));
    if (!headOnly) // a HEAD answer has the head a GET would get, and no body
        for (const QByteArray& piece : body)
            m_socket.write(piece); // apart from the head: a large answer is not copied once more
    // To the kernel now, not at the event loop's next turn: a client that shut its sending side after its request
    // (nc -N, socat) makes Qt close the socket, dropping what its buffer holds, as soon as it reads that end. Not
    // over TLS: QSslSocket's flush also reads, and would hand this connection its next bytes from inside here.
    if (!carriesTls(m_socket))
        m_socket.flush();
    answerWritten();
}

void ClientSide::answerWritten()
{
    if (unsentBytes(m_socket) > 0 && !m_answerTimer.isActive())
        m_answerTimer.start(m_shared.config.guards.answerTimeoutMs);
}

// Keep-alive: the connection waits for the next request up to keepAliveTimeoutMs, and gives its slot to a new
// client when all are taken.
void ClientSide::waitForNextRequest()
{
    if (!std::exchange(m_waiting, true)) // once: the list's order is the order the waits began
        m_shared.waiting.add(&m_connection, m_waitingClose);
    m_keepAliveTimer.start(m_shared.config.guards.keepAliveTimeoutMs);
}

void ClientSide::requestBegins()
{
    stopWaiting();
}

void ClientSide::stopWaiting()
{
    if (std::exchange(m_waiting, false))
        m_shared.waiting.remove(&m_connection);
    m_keepAliveTimer.stop();
}

// Lingering close, as nginx and Kestrel do it: the client may still be sending a body we will not read, and
// closing with unread bytes makes the kernel send RST, which can destroy our answer before the client reads it.
void ClientSide::closeAfterAnswer(bool endsAtClose)
{
    if (std::exchange(m_closing, true))
        return;
    m_endsAtClose = endsAtClose;
    stopWaiting();
    releaseSlot();
    answerWritten();
    if (++m_shared.lingeringConnections > Linger::kMaxPerSlot * m_shared.config.maxConnections) {
        --m_shared.lingeringConnections; // too many already: the answer is sent, then the connection closed
        m_answerTimer.start(m_shared.config.guards.answerTimeoutMs); // within the answer's deadline
        m_socket.disconnectFromHost();
        return;
    }
    m_lingering = true;
    m_socket.flush();
    shutdownWhenSent();
}

// The linger time counts from the end of the answer; until then the answer deadline applies.
void ClientSide::shutdownWhenSent()
{
    if (!m_lingering || m_linger.started() || unsentBytes(m_socket) > 0 ||
        m_socket.state() != QAbstractSocket::ConnectedState)
        return;
    // Over TLS the sending side stays open: shutting the descriptor's would cut the TLS stream (and only Qt can
    // send close_notify, with a full close). The client reads the answer, which has a length, and closes; or the
    // linger limits end the connection.
    if (!carriesTls(m_socket)) {
        ::shutdown(int(m_socket.socketDescriptor()), SHUT_WR);
    } else if (m_endsAtClose) {
        endLinger(); // the answer's end is the close: now
        return;
    }
    m_lingerTimer.start(Linger::kQuietMs);
    m_linger.start();
}

// The client was quiet for the linger's pause: the connection ends. Over TLS it is told so with close_notify
// (Qt sends it only with a full close), so that it can tell our end from a cut connection; the answer deadline
// bounds that close as it bounds an answer.
void ClientSide::endLinger()
{
    if (!carriesTls(m_socket) || m_socket.state() != QAbstractSocket::ConnectedState) {
        drop();
        return;
    }
    m_answerTimer.start(m_shared.config.guards.answerTimeoutMs);
    m_socket.disconnectFromHost(); // its disconnected() ends the connection
}

QString ClientSide::goneInWords() const
{
    return m_droppedWhy.isEmpty() ? QStringLiteral("the client closed the connection") : m_droppedWhy;
}

bool ClientSide::dropped(quint64 bytes)
{
    if (m_lingerTimer.isActive()) // the answer is out: the pause counts from now
        m_lingerTimer.start(Linger::kQuietMs);
    if (m_linger.dropped(bytes))
        return true;
    drop();
    return false;
}

void ClientSide::dropArriving()
{
    char scratch[65536];
    for (qint64 got; (got = readSocketInto(m_socket, scratch, qint64(sizeof scratch))) > 0;)
        if (!dropped(quint64(got)))
            return; // a cap ended it
}

void ClientSide::drop(const QString& why)
{
    m_droppedWhy = why;
    m_socket.abort();
    m_connection.deleteLater();
}

} // namespace upin::app
