#include "server/server_connection.h"

#include "capture/report_json.h"
#include "common/qt_text.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "server/h2_session.h"
#include "server/refusal_record.h"
#include "server/request_admission.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QSslSocket>
#include <QTcpSocket>

namespace upin::app {

namespace {
// Answers the client has not taken before its next request waits (pipelining without reading the answers).
constexpr qint64 kMaxAnswerBacklog = qint64{64} * 1024;

core::ByteView view(const QByteArray& data)
{
    return {data.constData(), size_t(data.size())};
}
} // namespace

ServerConnection::ServerConnection(AcceptedSocket accepted, std::shared_ptr<ServerShared> shared,
                                   UploadSession::Publish publish, Mode mode, const HandlerFactory& makeHandler,
                                   QObject* parent)
    : QObject(parent), m_shared(std::move(shared)), m_publish(std::move(publish)), m_mode(mode),
      m_socket(accepted.tls || mode.proxy ? new QSslSocket(this) : new QTcpSocket(this)), m_tls(accepted.tls),
      m_clientSide(*m_socket, *m_shared, *this, accepted.admitted, [this] { closeIfWaiting(); }),
      m_deadlines(
          m_shared->config.guards, [this] { return m_decoder.bodyBytes(); },
          [this](ClientDeadlines::Missed missed, const QString& why) { onDeadlineMissed(missed, why); }),
      m_head(mode.httpLimits), m_blocks(size_t(mode.readChunk), mode.readBlocks, m_shared->readBlocks)
{
    // On the pipeline's thread, when it lets a block go that a read was waiting for.
    m_blocks.setOnAvailable([this] { resumeReading(); });
    m_socket->setSocketDescriptor(accepted.descriptor, QAbstractSocket::ConnectedState, QIODevice::ReadWrite);
    // A socket adopted by descriptor reads into Qt's own buffer whatever arrives, by default without limit: a
    // connection that stops reading (the pipeline holds every block, the upstream is behind, answers wait for the
    // client) would hold the whole body in memory. Plain: Qt keeps almost nothing, reads take the kernel's bytes
    // straight into blocks (readSocketInto), and while none is taken they wait in the kernel, so TCP slows the
    // client. TLS: Qt decrypts into a buffer of one read.
    m_socket->setReadBufferSize(m_tls ? mode.readChunk : 1);
    // Each write goes out at once, as nginx's tcp_nodelay: an answer relayed in two writes (its head, then its body)
    // had its body held by Nagle's algorithm until the client's delayed ACK of the head, 40 ms later. curl's
    // Expect: 100-continue uploads through the forwarder took 50 ms where they took 7 ms direct.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_client = QStringLiteral("%1:%2").arg(m_socket->peerAddress().toString()).arg(m_socket->peerPort());
    m_makeHandler = makeHandler;
    m_handler = makeHandler(*this); // before any hook can be called: a 503 below ends in onClosing()
    if (m_tls) // the ClientHello first, for the protocols it offers (readClientHello), then the handshake
        m_state = State::Hello;
    auto answerProgress = [this] { // requests held back while the client did not take its answers
        if (!m_held.isEmpty() && unsentBytes(*m_socket) <= kMaxAnswerBacklog)
            resumeReading();
    };
    connect(m_socket, &QTcpSocket::bytesWritten, this, answerProgress);
    connect(m_socket, &QTcpSocket::bytesWritten, m_handler.get(), &ExchangeHandler::onAnswerTaken);
    if (auto* tlsSocket = qobject_cast<QSslSocket*>(m_socket))
        connect(tlsSocket, &QSslSocket::encryptedBytesWritten, this, answerProgress);
    connect(m_socket, &QTcpSocket::readyRead, this, &ServerConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &ServerConnection::onDisconnected);
    m_deadlines.headDeadline();
    // Every slot taken: a 503 the client can read, then lingering, as any. (On a plain port this answers from
    // the constructor: the handler's onClosing() comes before any request.)
    if (!m_clientSide.admitted()) {
        if (!m_tls) {
            respondBusy();
            return;
        }
        m_busyAnswerPending = true; // over TLS, once the handshake is done (within the head deadline, as any)
    }
    if (m_socket->bytesAvailable() > 0)
        resumeReading();
}

ServerConnection::~ServerConnection()
{
    m_http2.reset();   // its streams' handlers end their uploads as the connection's own does
    m_handler.reset(); // it ends an upload or an exchange in progress, with this connection's decoder
    m_blocks.setOnAvailable({});
}

QHostAddress ServerConnection::peerAddress() const
{
    return m_socket->peerAddress();
}

QHostAddress ServerConnection::localAddress() const
{
    return m_socket->localAddress();
}

Transport ServerConnection::transport() const
{
    return m_handshake ? m_handshake->transport() : Transport{};
}

void ServerConnection::respondBusy()
{
    m_busyAnswerPending = false;
    refuse(503, QStringLiteral("too many connections"), {}, {}, "Retry-After: 2\r\n");
}

void ServerConnection::resumeReading()
{
    QMetaObject::invokeMethod(this, &ServerConnection::onReadyRead, Qt::QueuedConnection);
}

// Reads go into blocks of the pool, straight from the kernel; the mode's pipeline then holds the block instead of
// copying it. While the pool is empty, or the mode does not take bytes, the client is not read.
void ServerConnection::onReadyRead()
{
    if (m_state == State::Hello) {
        readClientHello();
        return;
    }
    while (m_state != State::HandedOver) {
        if (m_state == State::Closing) { // lingering: drop what the client still sends, within the caps
            m_clientSide.dropArriving();
            return;
        }
        if (!m_held.isEmpty()) {
            const QByteArray held = std::exchange(m_held, {});
            if (!consume(view(held), nullptr))
                return; // held again
            continue;
        }
        if (m_state == State::Request && !takesBody())
            return; // the mode holds the client back, and resumes reading
        core::BlockPool::Block block = m_blocks.tryAcquire();
        if (!block) {
            m_deadlines.waitingOnUs(); // our own pipeline is behind, not the client: called again when it lets go
            return;
        }
        const qint64 got = readSocketInto(*m_socket, block->data(), m_mode.readChunk);
        if (got <= 0) {
            m_deadlines.clientsTurn(); // its idle deadline runs
            return;
        }
        m_deadlines.clientSent();
        if (!consume({block->data(), size_t(got)}, block))
            return;
    }
}

// One read may end one request and start the next (keep-alive, pipelining). What the connection cannot handle now
// waits in m_held: the next request while the client has not taken kMaxAnswerBacklog of answers (the socket is
// not read meanwhile, so TCP holds it back), or bytes the mode does not take yet. False when bytes were held.
bool ServerConnection::consume(core::ByteView data, const core::BlockPool::Block& block)
{
    while (!data.empty() && m_state != State::Closing && m_state != State::HandedOver) {
        const bool hold = (m_state == State::Head && unsentBytes(*m_socket) > kMaxAnswerBacklog) ||
                          (m_state == State::Request && !takesBody());
        if (m_state == State::Closing) // the mode's look at its peer ended the request: the rest is dropped
            break;
        if (hold) {
            m_held = QByteArray(data.data(), qsizetype(data.size()));
            return false;
        }
        const size_t used = m_state == State::Head    ? processHead(data)
                            : m_state == State::Http2 ? receiveHttp2(data, block)
                                                      : onBody(data, block);
        data.remove_prefix(std::min(used, data.size()));
        if (m_tunnelPending)
            beginTunnel(!data.empty());
    }
    return true;
}

size_t ServerConnection::processHead(core::ByteView data)
{
    if (startsHttp2(data))
        return 0;                  // the same bytes go to the HTTP/2 session
    if (m_head.headBytes() == 0) { // the request's first byte: its received_at and head time count from here
        if (m_clientSide.waiting()) {
            m_clientSide.requestBegins();
            m_deadlines.headDeadline();
        }
        m_deadlines.headArrives();
        // What the last request asked of our answers is not this one's (a relayed answer ends a request without
        // respond(), which would have cleared them).
        m_requestRecorded = false;
        m_headOnly = false;
        m_corsHeaders.clear();
    }
    auto used = m_head.feed(data);
    if (!used) {
        const core::Errc code = used.error().code;
        const bool tooLarge = code == core::Errc::HeadTooLarge || code == core::Errc::TooManyHeaderFields;
        refuse(tooLarge ? 431 : 400, QStringLiteral("bad request head"), used.error());
        return data.size();
    }
    if (m_head.complete())
        admit();
    return *used;
}

// What every mode asks of a request before it handles it: the guards, then a body it can frame within the limit.
void ServerConnection::admit()
{
    m_deadlines.headDone();
    m_state = State::Request;
    m_admittedOne = true;
    const RequestAdmission admission = admitRequest(m_head.head(), m_shared->config.guards, m_mode.name, m_tls,
                                                    m_tunnel       ? Admit::Tunnel
                                                    : m_mode.proxy ? Admit::Proxy
                                                                   : Admit::Server);
    m_headOnly = admission.headOnly;
    m_corsHeaders = admission.corsHeaders;
    if (const auto refusal = headRefusal(admission, m_shared->config.maxBodyBytes)) {
        refuse(refusal->status, refusal->reason, refusal->error);
        return;
    }
    m_framing = *admission.framing;
    m_decoder = core::BodyDecoder(m_framing, m_mode.httpLimits);
    m_handler->onRequest(admission);
}

SessionRequest ServerConnection::sessionRequest(const RequestAdmission& admission) const
{
    return sessionRequestFor(m_head, admission, m_framing, *m_shared, m_client, m_deadlines, transport());
}

void ServerConnection::beginBody()
{
    m_deadlines.bodyBegins();
    resumeReading();
}

void ServerConnection::sendContinue()
{
    m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
}

void ServerConnection::writeAnswer(const char* data, qint64 size)
{
    writeSocketDirect(*m_socket, data, size);
}

qint64 ServerConnection::answerBacklog() const
{
    return unsentBytes(*m_socket);
}

void ServerConnection::onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why)
{
    if (m_handshake && !m_handshake->done()) {
        m_handshake->fail(QStringLiteral("the TLS handshake did not finish in time: %1").arg(why));
        return;
    }
    if (m_state == State::Closing || m_state == State::Http2) // HTTP/2 streams keep their own deadlines
        return;
    if (m_state == State::Hello) { // no ClientHello in time: no TLS to answer in, said as a failed handshake
        const bool nothing = m_socket->bytesAvailable() == 0; // what came of it is peeked, not taken
        const QString what = nothing
                                 ? (m_tunnel ? QStringLiteral("no TLS ClientHello in the tunnel in time: %1")
                                             : QStringLiteral("no TLS ClientHello in time: %1"))
                                 : (m_tunnel ? QStringLiteral("the tunnel's TLS ClientHello did not come whole in "
                                                              "time: %1")
                                             : QStringLiteral("the TLS ClientHello did not come whole in time: %1"));
        publishHandshakeFailure(*m_shared, m_publish, m_client, what.arg(why), 0, nothing);
        m_state = State::Closing;
        m_clientSide.drop();
        return;
    }
    if (m_state == State::Request) {
        m_handler->onBodyDeadline(missed, why);
        return;
    }
    if (m_head.headBytes() == 0) { // a connection that sent nothing is not a request: no record, no answer
        closeAfterAnswer();
        return;
    }
    refuse(408, QStringLiteral("head timeout"), {}, why);
}

void ServerConnection::onDisconnected()
{
    if (m_state == State::HandedOver) // the relay's: it ends the connection once the server's side is closed too
        return;
    if (m_handshake && !m_handshake->done()) {
        m_handshake->fail(QStringLiteral("the client closed the connection during the TLS handshake"));
        return;
    }
    if (m_state == State::Http2)
        m_http2->clientGone();
    if (m_state == State::Request) { // a client that closed right after its last byte: a whole body is not cut
        m_handler->onClientClosed();
        takeWhatWasRead();
        if (m_state == State::Request)
            m_handler->onClientGone(m_clientSide.goneInWords());
    }
    m_state = State::Closing;
    m_deadlines.stop();
    deleteLater();
}

void ServerConnection::takeWhatWasRead()
{
    if (!m_held.isEmpty() && m_state == State::Request && takesBody()) {
        const QByteArray held = std::exchange(m_held, {});
        consume(view(held), nullptr);
    }
    while (m_state == State::Request && m_held.isEmpty() && takesBody() && m_socket->bytesAvailable() > 0) {
        core::BlockPool::Block block = m_blocks.acquire();
        const qint64 got = m_socket->read(block->data(), m_mode.readChunk);
        if (got <= 0 || !consume({block->data(), size_t(got)}, block))
            break;
    }
}

void ServerConnection::respond(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                               const QByteArray& extraHeaders, std::optional<core::Error> error)
{
    // The reason, unless a capture recorded the request: the error's, or the body's first line.
    answer(status, contentType, body, close, extraHeaders, error,
           error ? toQString(core::describe(error->code)) : refusalReason(body.value(0)));
}

void ServerConnection::answer(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                              const QByteArray& extraHeaders, std::optional<core::Error> error, const QString& reason)
{
    const QByteArray fields = extraHeaders + m_corsHeaders;
    if (status >= 400 && !std::exchange(m_requestRecorded, true)) {
        qsizetype length = 0;
        for (const QByteArray& piece : body)
            length += piece.size();
        QByteArray sent = ClientSide::answerHead(status, contentType, length, fields, close);
        for (const QByteArray& piece : body)
            if (sent.size() < RefusedRequest::kMaxAnswerKept && !m_headOnly)
                sent += piece.left(RefusedRequest::kMaxAnswerKept - sent.size());
        recordRefusal(reason, status, error, sent);
    }
    // Listed as waiting before the answer reaches the client, which may open another connection as soon as it reads
    // it: a connection listed after that one would be taken for the newer (a slot given away is taken from the
    // longest-waiting). A close for the slot runs on this thread, after this.
    if (!close)
        m_clientSide.waitForNextRequest();
    m_clientSide.writeAnswer(status, contentType, body, fields, close, m_headOnly);
    m_headOnly = false;
    m_corsHeaders.clear();
    if (close)
        closeAfterAnswer();
    else
        waitForNextRequest();
}

void ServerConnection::refuse(int status, const QString& reason, std::optional<core::Error> error,
                              const QString& detail, const QByteArray& extraHeaders)
{
    const RefusalAnswer refusal = refusalAnswer(reason, error, detail, m_mode.jsonRefusals);
    answer(status, refusal.contentType, {refusal.body}, true, extraHeaders, error, refusal.recorded);
}

void ServerConnection::waitForNextRequest()
{
    m_state = State::Head;
    m_blocks.releaseIdle(1); // the request is over: all but one block back to the shared budget
    m_head.reset();
    m_deadlines.stop();
    m_clientSide.waitForNextRequest(); // listed already, unless the answer's writing ended the wait
    resumeReading();                   // the next request may be here already
}

// Between requests nothing is lost by closing: clients retry a request on a kept-alive connection that closed.
void ServerConnection::closeIfWaiting()
{
    if (!m_clientSide.waiting() || m_state != State::Head || m_head.headBytes() > 0)
        return; // a request began after the slot was given away: serve it (one over the cap, briefly)
    m_clientSide.stopWaiting();
    if (!m_held.isEmpty() || m_socket->bytesAvailable() > 0) { // requests held back: unread bytes would make the
        closeAfterAnswer();                                    // close a reset
        return;
    }
    m_state = State::Closing;
    m_handler->onClosing();
    m_socket->disconnectFromHost(); // after any answer bytes still waiting; onDisconnected deletes
}

// The lingering close (ClientSide::closeAfterAnswer says why): the answer goes out, then the rest is dropped.
void ServerConnection::closeAfterAnswer(bool endsAtClose)
{
    m_state = State::Closing;
    m_held.clear();
    m_blocks.releaseIdle(1);
    m_deadlines.stop();
    m_handler->onClosing();
    m_clientSide.closeAfterAnswer(endsAtClose);
    resumeReading();
}

void ServerConnection::recordRefusal(const QString& reason, int status, std::optional<core::Error> error,
                                     const QByteArray& answer)
{
    RefusedRequest refused = RefusedRequest::fromHead(m_head, status, reason, error);
    refused.answer = answer;
    refused.receivedAt = m_deadlines.headStartedAt();
    refused.client = m_client;
    refused.tls = transport().label();
    app::recordRefusal(m_shared->store, m_publish, std::move(refused));
}

} // namespace upin::app
