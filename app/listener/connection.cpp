#include "listener/connection.h"
#include "capture/outcome.h"
#include "common/qt_text.h"
#include "common/unsent_bytes.h"
#include "server/refusal_record.h"
#include "server/request_admission.h"

#include "inspect/report_json.h"
#include "listener/form_page.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QSslSocket>
#include <QTcpSocket>

namespace upin::app {

namespace {

constexpr qint64 kReadChunk = qint64{256} * 1024;
// Up to 4 MiB of reads in flight while an upload's pipelines hash and store them: with fewer, the reader and the
// hashing thread wait on each other whenever the scheduler runs something else (measured here: 8 blocks took 10%
// longer for /part-event with SHA-256, 4 blocks 40%, and 64 were no faster than 16). Blocks are allocated when a
// pipeline falls behind, beyond the first only from the listener's shared budget (ListenerShared::readBlocks),
// and all but one are given back when the upload ends.
constexpr size_t kReadBlocks = 16;
constexpr qint64 kMaxAnswerBacklog = qint64{64} * 1024;

std::optional<Endpoint> endpointFor(const QString& path)
{
    return kEndpointPaths.find(path.toStdString());
}

int statusFor(CaptureState state)
{
    switch (state) {
    case CaptureState::Complete: return 200;
    case CaptureState::Failed: return 507; // the body was fine; storing it was not
    default: return 400;
    }
}

} // namespace

Connection::Connection(qintptr descriptor, bool tls, std::shared_ptr<ListenerShared> shared,
                       UploadSession::Publish publish, QObject* parent)
    : QObject(parent), m_shared(std::move(shared)), m_publish(std::move(publish)),
      m_socket(tls ? new QSslSocket(this) : new QTcpSocket(this)), m_tls(tls),
      m_clientSide(*m_socket, tls, *m_shared, *this, [this] { closeIfWaiting(); }),
      m_deadlines(
          m_shared->config.guards, [this] { return m_decoder.bodyBytes(); },
          [this](ClientDeadlines::Missed missed, const QString& why) { onDeadlineMissed(missed, why); }),
      m_blocks(size_t(kReadChunk), kReadBlocks, m_shared->readBlocks)
{
    // On the pipeline's thread, when it lets a block go that a read was waiting for.
    m_blocks.setOnAvailable(
        [this] { QMetaObject::invokeMethod(this, &Connection::onReadyRead, Qt::QueuedConnection); });
    // A socket adopted by descriptor reads into Qt's own buffer whatever arrives, Unbuffered or not, and by default
    // without limit: a connection that stops reading (its upload's pipeline holds every block, or answers wait
    // for the client) would hold the whole body in memory. Capped, Qt stops reading when the buffer is full, bytes
    // wait in the kernel, and TCP flow control slows a client that sends faster than we hash and store.
    m_socket->setSocketDescriptor(descriptor, QAbstractSocket::ConnectedState, QIODevice::ReadWrite);
    m_socket->setReadBufferSize(kReadChunk);
    m_client = QStringLiteral("%1:%2").arg(m_socket->peerAddress().toString()).arg(m_socket->peerPort());
    if (m_tls) // a 503 for a client over the connection limit waits for the handshake (within the head deadline)
        m_handshake.emplace(
            *static_cast<QSslSocket*>(m_socket), *m_shared, m_publish, m_client,
            [this] {
                if (std::exchange(m_busyAnswerPending, false))
                    respondBusy();
            },
            [this] {
                m_state = State::Closing;
                m_clientSide.drop();
            });
    auto answerProgress = [this] { // requests held back while the client did not take its answers
        if (!m_unprocessed.isEmpty() && unsentBytes(*m_socket) <= kMaxAnswerBacklog)
            QMetaObject::invokeMethod(this, &Connection::onReadyRead, Qt::QueuedConnection);
    };
    connect(m_socket, &QTcpSocket::bytesWritten, this, answerProgress);
    if (m_tls)
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encryptedBytesWritten, this, answerProgress);
    connect(m_socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &Connection::onDisconnected);
    if (!m_clientSide.admitted()) { // answered, then lingering, as any
        if (m_tls) {                // over TLS, once the handshake is done (within the head deadline, as any)
            m_busyAnswerPending = true;
            m_deadlines.headDeadline();
        } else {
            respondBusy();
        }
        return;
    }
    m_deadlines.headDeadline();
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &Connection::onReadyRead, Qt::QueuedConnection);
}

Transport Connection::transport() const
{
    return m_handshake ? m_handshake->transport() : Transport{};
}

void Connection::respondBusy()
{
    m_busyAnswerPending = false;
    respond(503, "text/plain", "too many connections\n", true, "Retry-After: 2\r\n");
}

Connection::~Connection()
{
    if (m_session) // the listener is stopping mid-upload: keep what arrived, marked incomplete
        m_session->finish(m_decoder, false, core::Error{core::Errc::UnexpectedEof, m_decoder.wireBytes()},
                          QStringLiteral("the listener stopped while the upload was arriving"));
    m_session.reset(); // its pipeline ends: no block comes back after this
    m_blocks.setOnAvailable({});
}

void Connection::onReadyRead()
{
    if (m_state == State::Closing) { // lingering: drop what the client still sends
        m_clientSide.dropArriving();
        return;
    }
    m_deadlines.clientSent();
    if (!m_unprocessed.isEmpty()) {
        const QByteArray held = std::exchange(m_unprocessed, {});
        if (!consume(core::ByteView(held.constData(), size_t(held.size()))))
            return;
    }
    while (m_state != State::Closing && m_unprocessed.isEmpty() && m_socket->bytesAvailable() > 0) {
        m_readBlock = m_blocks.tryAcquire();
        if (!m_readBlock) {
            m_deadlines.waitingOnUs(); // our own pipeline is behind, not the client
            return;                    // all in the upload's pipeline: called again when it lets one go
        }
        qint64 got = m_socket->read(m_readBlock->data(), kReadChunk);
        if (got > 0)
            consume(core::ByteView(m_readBlock->data(), size_t(got)));
        m_readBlock.reset();
        if (got <= 0)
            break;
    }
}

// One read may end one request and start the next (keep-alive, pipelining). A client that sends requests without
// reading the answers would make them pile up here: past kMaxAnswerBacklog the next request waits (in
// m_unprocessed, and the socket is not read, so TCP holds the client back) until the client takes its answers.
bool Connection::consume(core::ByteView data)
{
    while (!data.empty() && m_state != State::Closing) {
        if (m_state == State::Head && unsentBytes(*m_socket) > kMaxAnswerBacklog) {
            m_unprocessed = QByteArray(data.data(), qsizetype(data.size()));
            return false;
        }
        if (m_clientSide.waiting())
            requestBegins();
        size_t used = m_state == State::Head ? processHead(data) : processBody(data);
        data.remove_prefix(std::min(used, data.size()));
    }
    return true;
}

size_t Connection::processHead(core::ByteView data)
{
    if (m_head.headBytes() == 0) { // the request's first byte: its capture's received_at and head time count from here
        m_deadlines.headArrives();
        m_requestRecorded = false;
    }
    auto used = m_head.feed(data);
    if (!used) {
        const bool tooLarge =
            used.error().code == core::Errc::HeadTooLarge || used.error().code == core::Errc::TooManyHeaderFields;
        respondError(tooLarge ? 431 : 400, used.error(), true);
        return data.size();
    }
    if (m_head.complete())
        startRequest();
    return *used;
}

void Connection::startRequest()
{
    m_deadlines.headDone();
    const core::RequestHead& head = m_head.head();
    RequestAdmission admission = admitRequest(head, m_shared->config.guards, "listener", m_tls);
    m_target = admission.target;
    m_requestHost = admission.host;
    m_headOnly = admission.headOnly;
    m_corsHeaders = admission.corsHeaders;
    const QString& path = admission.path;
    const QString& method = admission.method;
    auto& framing = admission.framing;
    const bool keepAlive = framing && framing->keepAlive;
    if (admission.refusal) {
        respond(admission.refusal->status, "text/plain", admission.refusal->text, true);
        return;
    }
    const bool options = method == QLatin1String("OPTIONS");
    if (method == QLatin1String("GET") || method == QLatin1String("HEAD") || options) {
        if (options) { // a CORS preflight (callerAllowed() set the allowing headers), or a plain question
            QByteArray allow = "Allow: GET, HEAD, POST, OPTIONS\r\n";
            if (!m_corsHeaders.isEmpty())
                allow += "Access-Control-Allow-Methods: GET, HEAD, POST\r\nAccess-Control-Allow-Headers: " +
                         toQString(head.field("access-control-request-headers")).toUtf8() +
                         "\r\nAccess-Control-Max-Age: 600\r\n" +
                         // Chrome's Private Network Access: a public page may call a local address only when
                         // the local server says so, here because the user allowed the origin.
                         (head.field("access-control-request-private-network").empty()
                              ? QByteArray()
                              : QByteArray("Access-Control-Allow-Private-Network: true\r\n"));
            respond(204, "text/plain", {}, !keepAlive, allow);
            return;
        }
        if (path == QLatin1String("/"))
            respond(200, "text/html; charset=utf-8", formPage(m_shared->port), !keepAlive);
        else if (path == QLatin1String("/captures"))
            respond(200, "application/json", QJsonDocument(m_shared->store.recent()).toJson(QJsonDocument::Compact),
                    !keepAlive);
        else if (path.startsWith(QLatin1String("/captures/"))) {
            auto report = m_shared->store.report(path.mid(QStringLiteral("/captures/").size()));
            if (report)
                respondJson(200, *report, !keepAlive);
            else
                respond(404, "text/plain", "no such capture\n", !keepAlive);
        } else if (endpointFor(path))
            respond(405, "text/plain", "use POST\n", !keepAlive, "Allow: POST\r\n");
        else
            respond(404, "text/plain", "not found\n", !keepAlive);
        return;
    }
    auto endpoint = endpointFor(path);
    if (!endpoint) {
        respond(404, "text/plain", "not found\n", true);
        return;
    }
    if (method != QLatin1String("POST")) {
        respond(405, "text/plain", "use POST\n", true, "Allow: POST\r\n");
        return;
    }
    if (!framing) {
        const bool coding = framing.error().code == core::Errc::UnsupportedTransferEncoding;
        respondError(coding ? 501 : 400, framing.error(), true);
        return;
    }
    m_framing = *framing;
    if (m_framing.kind == core::BodyFraming::Kind::None) {
        respond(411, "text/plain", "Content-Length or Transfer-Encoding: chunked required\n", true);
        return;
    }
    if (m_framing.kind == core::BodyFraming::Kind::ContentLength &&
        m_framing.contentLength > m_shared->config.maxBodyBytes) {
        respondError(413, {core::Errc::BodyTooLarge, m_shared->config.maxBodyBytes}, true); // without reading it
        return;
    }
    startUpload(*endpoint, QUrlQuery(admission.query));
}

void Connection::startUpload(Endpoint endpoint, const QUrlQuery& query)
{
    SessionRequest request;
    request.endpoint = endpoint;
    request.client = m_client;
    request.target = m_target;
    request.host = m_requestHost;
    request.contentType = toQString(m_head.head().field("content-type"));
    request.keepRaw = m_shared->config.keepRaw;
    request.framing = m_framing;
    request.rawHead = QByteArray(m_head.raw().data(), qsizetype(m_head.raw().size()));
    request.receivedAt = m_deadlines.headStartedAt();
    request.headMs = m_deadlines.headMs();
    request.transport = transport();
    const QString matcher = query.queryItemValue(QStringLiteral("matcher"));
    const QString hash = requestedHashName(query.query(), m_head.head());
    auto kind = core::matcherFromName(matcher.isEmpty() ? "simd" : matcher.toStdString());
    auto hashKind = hash.isEmpty() ? std::optional(m_shared->config.hash) : core::kHashNames.find(hash.toStdString());
    if (!kind || !hashKind) {
        respond(400, "text/plain",
                "matcher must be kmp, chunked or simd; hash (?hash= or " + QByteArray(kHashHeader) +
                    ") must be sha256, xxh3 or none\n",
                true);
        return;
    }
    request.parser = m_shared->config.parser;
    request.parser.matcher = *kind;
    request.parser.maxBodySize = m_shared->config.maxBodyBytes;
    request.hash = *hashKind;
    auto session = UploadSession::start(request, m_shared->store, m_publish);
    if (!session) {
        bool notMultipart =
            session.error().code == core::Errc::NotMultipart || session.error().code == core::Errc::MissingBoundary;
        respondError(notMultipart ? 415 : 400, session.error(), true);
        return;
    }
    m_session = std::move(*session);
    m_requestRecorded = true;  // its capture is its record
    if (m_session->failed()) { // e.g. the capture folder could not be created: say so before any body byte
        endUpload();
        return;
    }
    m_decoder = core::BodyDecoder(m_framing);
    m_state = State::Body;
    m_deadlines.bodyBegins();
    if (m_framing.expectContinue)
        m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    if (m_decoder.done())
        endUpload();
}

size_t Connection::processBody(core::ByteView data)
{
    m_session->setSource(m_readBlock); // none for held-back bytes: the pipeline copies those
    auto used = m_decoder.feed(data, *m_session);
    m_session->flush();
    if (!used) {
        endUpload(used.error(), 400);
        return data.size();
    }
    if (m_decoder.bodyBytes() > m_shared->config.maxBodyBytes) {
        endUpload(core::Error{core::Errc::BodyTooLarge, m_shared->config.maxBodyBytes}, 413);
        return data.size();
    }
    if (m_session->failed()) { // the parser rejected the body or storing it failed: answer now, read no more
        endUpload();
        return data.size();
    }
    if (m_decoder.done())
        endUpload();
    return *used;
}

void Connection::endUpload(std::optional<core::Error> cutShort, int status, const QString& detail)
{
    const QJsonObject answer = m_session->finish(m_decoder, !cutShort, cutShort, detail);
    const CaptureState state = m_session->state();
    m_session.reset();
    m_blocks.releaseIdle(1);
    m_deadlines.stop();
    if (state == CaptureState::Failed || !cutShort) // storing failed (507), or the capture's own outcome
        status = statusFor(state);
    respondJson(status, answer, status != 200 || !m_framing.keepAlive);
}

void Connection::onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why)
{
    if (m_handshake && !m_handshake->done()) {
        m_handshake->fail(QStringLiteral("the TLS handshake did not finish in time: %1").arg(why));
        return;
    }
    if (m_state == State::Closing)
        return;
    if (missed == ClientDeadlines::Missed::BodyRate && m_session) {
        endUpload(core::Error{core::Errc::UnexpectedEof, m_decoder.wireBytes()}, 408, why);
        return;
    }
    if (m_session) {
        m_session->finish(m_decoder, false, core::Error{core::Errc::UnexpectedEof, m_decoder.wireBytes()}, why);
        m_session.reset();
    }
    const QByteArray what = missed == ClientDeadlines::Missed::Head ? "head timeout: " : "idle timeout: ";
    respond(408, "text/plain", what + why.toUtf8() + '\n', true);
}

void Connection::onDisconnected()
{
    if (m_handshake && !m_handshake->done()) {
        m_handshake->fail(QStringLiteral("the client closed the connection during the TLS handshake"));
        return;
    }
    // A client that closed its side right after its last byte: what Qt read before the close may still wait for a
    // block the pipelines hold. Taken here, waiting for them, so that a whole body is not called incomplete.
    while (m_session && m_state == State::Body && m_socket->bytesAvailable() > 0) {
        m_readBlock = m_blocks.acquire();
        const qint64 got = m_socket->read(m_readBlock->data(), kReadChunk);
        if (got > 0)
            consume(core::ByteView(m_readBlock->data(), size_t(got)));
        m_readBlock.reset();
        if (got <= 0)
            break;
    }
    if (m_session) { // client went away mid-body: keep what arrived, marked incomplete, saying so
        m_session->finish(m_decoder, false, core::Error{core::Errc::BodyCutShort, m_decoder.wireBytes()},
                          clientGoneInWords(m_decoder.bodyBytes(), expectedLength(m_framing)));
        m_session.reset();
    }
    m_state = State::Closing;
    m_deadlines.stop();
    deleteLater();
}

void Connection::respond(int status, const QByteArray& contentType, const QByteArray& body, bool close,
                         const QByteArray& extraHeaders, std::optional<core::Error> error)
{
    // A request turned away before an upload began leaves a record of its own (an upload's capture is its record);
    // a connection that sent nothing before its head deadline is not a request.
    if (status >= 400 && !std::exchange(m_requestRecorded, true) && !(status == 408 && m_head.headBytes() == 0))
        recordRefusal(error ? toQString(core::describe(error->code)) : refusalReason(body), status, error);
    m_clientSide.writeAnswer(status, contentType, body, extraHeaders + m_corsHeaders, close, m_headOnly);
    m_headOnly = false;
    m_corsHeaders.clear();
    if (close)
        closeAfterAnswer();
    else
        waitForNextRequest();
}

// Keep-alive: the connection waits for the next request without a head deadline, up to keepAliveTimeoutMs, and
// gives its slot to a new client when all are taken.
void Connection::waitForNextRequest()
{
    m_state = State::Head;
    m_head.reset();
    m_deadlines.stop();
    m_clientSide.waitForNextRequest();
}

void Connection::requestBegins()
{
    m_clientSide.requestBegins();
    m_deadlines.headDeadline();
}

// Between requests nothing is lost by closing: clients retry a request on a kept-alive connection that closed.
void Connection::closeIfWaiting()
{
    if (!m_clientSide.waiting() || m_state != State::Head)
        return; // a request began after the slot was given away: serve it (one over the cap, briefly)
    m_clientSide.stopWaiting();
    if (!m_unprocessed.isEmpty() || m_socket->bytesAvailable() > 0) { // requests held back: unread bytes would
        closeAfterAnswer();                                           // make the close a reset
        return;
    }
    m_state = State::Closing;
    m_socket->disconnectFromHost(); // after any answer bytes still waiting; onDisconnected deletes
}

// The lingering close (ClientSide::closeAfterAnswer says why): the answer goes out, then the rest is dropped.
void Connection::closeAfterAnswer()
{
    m_state = State::Closing;
    m_deadlines.stop();
    m_clientSide.closeAfterAnswer();
}

void Connection::respondJson(int status, const QJsonObject& body, bool close)
{
    respond(status, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n', close);
}

void Connection::respondError(int status, core::Error error, bool close)
{
    respond(status, "application/json",
            QJsonDocument(QJsonObject{{"ok", false}, {"error", errorToJson(error)}}).toJson(QJsonDocument::Compact) +
                '\n',
            close, {}, error);
}

void Connection::recordRefusal(const QString& reason, int status, std::optional<core::Error> error)
{
    RefusedRequest refused = RefusedRequest::fromHead(m_head, status, reason, error);
    refused.receivedAt = m_deadlines.headStartedAt();
    refused.client = m_client;
    refused.tls = transport().label();
    app::recordRefusal(m_shared->store, m_publish, std::move(refused));
}

} // namespace upin::app
