#include "forwarder/forward_connection.h"
#include "capture/outcome.h"

#include "common/qt_text.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "inspect/report_json.h"
#include "server/refusal_record.h"
#include "server/request_admission.h"

#include "upin/core/http_relay.h"

#include <QJsonDocument>

#include <sys/socket.h>

namespace upin::app {

namespace {
// Reads of up to 1 MiB: a quarter as many wakeups as the listener's 256 KiB, which measured 1.34x -> 1.16x curl
// straight to the upstream (200 MiB, no hash). 4 per connection, beyond the first from the shared budget (16).
constexpr qint64 kReadChunk = qint64{1024} * 1024;
constexpr size_t kReadBlocks = 4;
// Bytes waiting in one side's socket before the other side is read no more: the backpressure that keeps memory
// flat whatever the sizes and speeds.
constexpr qint64 kMaxBacklog = qint64{1} << 20;

core::ByteView view(const QByteArray& data)
{
    return {data.constData(), size_t(data.size())};
}

// A relay reads strictly: a line that ends in LF alone, which the upstream may split differently, is refused.
core::HttpLimits relayLimits()
{
    core::HttpLimits limits;
    limits.strictLineEnds = true;
    return limits;
}
} // namespace

ForwardConnection::ForwardConnection(qintptr descriptor, std::shared_ptr<ListenerShared> shared,
                                     UploadSession::Publish publish, QObject* parent)
    : QObject(parent), m_shared(std::move(shared)), m_settings(*m_shared->config.forward),
      m_publish(std::move(publish)), m_client(new QTcpSocket(this)),
      m_clientSide(*m_client, false, *m_shared, *this, [this] { closeIfWaiting(); }),
      m_deadlines(
          m_shared->config.guards, [this] { return m_decoder.bodyBytes(); },
          [this](ClientDeadlines::Missed missed, const QString& why) { onDeadlineMissed(missed, why); }),
      m_blocks(size_t(kReadChunk), kReadBlocks, m_shared->readBlocks), m_head(relayLimits())
{
    // On the pipeline's thread, when it lets a block go that a read was waiting for.
    m_blocks.setOnAvailable(
        [this] { QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection); });
    m_client->setSocketDescriptor(descriptor, QAbstractSocket::ConnectedState, QIODevice::ReadWrite);
    // Qt keeps almost nothing: reads take the kernel's bytes straight into blocks (readSocketInto), and while none
    // is taken they wait in the kernel, so TCP slows the client.
    m_client->setReadBufferSize(1);
    m_clientAddress = QStringLiteral("%1:%2").arg(m_client->peerAddress().toString()).arg(m_client->peerPort());
    // Held back now, the upstream not having taken what it has: not the client's fault.
    m_deadlines.setHeldBackNow([this] { return m_upstream && unsentBytes(*m_upstream) > kMaxBacklog; });
    for (QTimer* timer : {&m_connectTimer, &m_answerTimer})
        timer->setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        failExchange(502, QStringLiteral("upstream unreachable"),
                     QStringLiteral("no connection to %1 within %2 ms")
                         .arg(m_settings.upstream.authority())
                         .arg(m_settings.connectTimeoutMs));
    });
    connect(&m_answerTimer, &QTimer::timeout, this, [this] {
        if (m_answer && m_answer->headRelayed()) { // mid-answer: the upstream stopped sending, or the client
            failExchange(504, QStringLiteral("answer stalled"), // stopped taking it
                         QStringLiteral("no progress for %1 ms after %2 bytes of the answer")
                             .arg(m_settings.answerTimeoutMs)
                             .arg(m_answer->bytes()));
            return;
        }
        if (m_state == State::Body && m_earlyAtByte < 0) { // the upstream took nothing more of the body
            failExchange(504, QStringLiteral("upstream stopped taking the body"),
                         QStringLiteral("%1 took nothing more of the body for %2 ms, after %3 bytes of it")
                             .arg(m_settings.upstream.authority())
                             .arg(m_settings.answerTimeoutMs)
                             .arg(bytesUpstreamHas()));
            return;
        }
        if (m_answer && m_answer->started()) { // bytes came, but never a whole head
            failExchange(502, QStringLiteral("bad answer from upstream"),
                         QStringLiteral("its head did not end within %1 ms").arg(m_settings.answerTimeoutMs));
            return;
        }
        failExchange(504, QStringLiteral("upstream too slow"),
                     QStringLiteral("no answer from %1 within %2 ms of the request's end")
                         .arg(m_settings.upstream.authority())
                         .arg(m_settings.answerTimeoutMs));
    });
    m_answerTimer.setTimerType(Qt::PreciseTimer); // a 504 says "within N ms": not 5% early
    m_connectTimer.setTimerType(Qt::PreciseTimer);
    m_deliveredTimer.setInterval(1);
    m_deliveredTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deliveredTimer, &QTimer::timeout, this, &ForwardConnection::checkDelivered);
    connect(m_client, &QTcpSocket::readyRead, this, &ForwardConnection::onClientReadyRead);
    connect(m_client, &QTcpSocket::bytesWritten, this, [this] {
        if (m_answerTimer.isActive() && m_answer && m_answer->headRelayed()) // the client takes the answer
            m_answerTimer.start(m_settings.answerTimeoutMs);
        if (m_upstream && unsentBytes(*m_client) <= kMaxBacklog) // the answer's relay resumes
            onUpstreamReadyRead();
    });
    connect(m_client, &QTcpSocket::disconnected, this, [this] {
        if (m_session) { // mid-exchange: the upstream request is aborted with it
            dropUpstream();
            if (m_decoder.done())
                finishSession(QStringLiteral("the client closed the connection before the whole answer"), record());
            else
                finishSession(clientGoneInWords(m_decoder.bodyBytes(), expectedLength(m_framing)), record(),
                              core::Error{core::Errc::BodyCutShort, m_decoder.wireBytes()});
        }
        deleteLater();
    });
    // Every slot taken: the longest-waiting kept-alive connection gives its own, else a 503 the client can read.
    if (!m_clientSide.admitted()) {
        refuse(503, QStringLiteral("too many connections"), {}, {}, "Retry-After: 2\r\n");
        return;
    }
    m_deadlines.headDeadline();
    if (m_client->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
}

ForwardConnection::~ForwardConnection()
{
    m_blocks.setOnAvailable({});
    if (m_session) // the forwarder stopped mid-exchange
        finishSession(QStringLiteral("the forwarder stopped"), record());
}

// Reads go into blocks of a pool, straight from the kernel: the body's bytes are then written to the upstream from
// the block (straight to the kernel too, when it takes them) and the hashing pipeline holds the block instead of
// copying. While the pool is empty or the upstream has not taken what it has, the client is not read.
void ForwardConnection::onClientReadyRead()
{
    while (true) {
        if (m_state == State::Closing) { // lingering: drop what the client still sends, within the caps
            m_clientSide.dropArriving();
            return;
        }
        if (m_state != State::Head && m_state != State::Body)
            return; // Connecting, Answer: the next request waits in the socket until this exchange ends
        // The answer came early: the rest is read and dropped, so that the client sees the answer, not a reset.
        const bool dropping = m_state == State::Body && m_earlyAtByte >= 0;
        if (m_state == State::Body && !dropping && (!m_upstream || unsentBytes(*m_upstream) > kMaxBacklog)) {
            m_deadlines.waitingOnUs();     // waiting for the upstream, not the client: a slow server is no slow client
            if (!m_answerTimer.isActive()) // but the upstream has as long as for an answer to take more
                m_answerTimer.start(m_settings.answerTimeoutMs);
            return; // resumes when the upstream takes what it has
        }
        if (m_state == State::Body && !dropping && m_upstream) {
            // As curl does: look for an answer before each write, so that an early one stops the body at once
            // rather than after whatever this loop could pass on before the event loop came round to it.
            onUpstreamReadyRead();
            if (m_state != State::Body || m_earlyAtByte >= 0)
                continue;
        }
        if (!m_pendingClient.isEmpty()) { // read with the head: not in a block, so the pipeline copies it
            const QByteArray held = std::exchange(m_pendingClient, {});
            consume(view(held), nullptr);
            continue;
        }
        core::BlockPool::Block block = m_blocks.tryAcquire();
        if (!block) {
            m_deadlines.waitingOnUs(); // waiting for our own hashing: called again when it lets a block go
            return;
        }
        const qint64 got = readSocketInto(*m_client, block->data(), kReadChunk);
        if (got <= 0) {
            m_deadlines.clientsTurn(); // its idle deadline runs
            return;
        }
        m_deadlines.clientSent();
        consume({block->data(), size_t(got)}, block);
    }
}

void ForwardConnection::consume(core::ByteView data, const core::BlockPool::Block& block)
{
    if (m_state == State::Head)
        processHead(data);
    else if (m_state == State::Body)
        processBody(data, block);
    else // the next request's first bytes, read with the end of this one
        m_pendingClient.append(data.data(), qsizetype(data.size()));
}

void ForwardConnection::processHead(core::ByteView data)
{
    if (m_head.headBytes() == 0) {
        if (m_clientSide.waiting())
            requestBegins();
        m_deadlines.headArrives();
    }
    auto used = m_head.feed(data);
    if (!used) {
        const bool tooLarge =
            used.error().code == core::Errc::HeadTooLarge || used.error().code == core::Errc::TooManyHeaderFields;
        refuse(tooLarge ? 431 : 400, QStringLiteral("bad request head"), used.error());
        return;
    }
    if (!m_head.complete())
        return;
    m_deadlines.headDone();
    m_pendingClient = QByteArray(data.data() + *used, qsizetype(data.size() - *used));
    // The listener's guards, word for word: Host, Origin, bodies on GET/HEAD/OPTIONS.
    const RequestAdmission admission = admitRequest(m_head.head(), m_shared->config.guards, "forwarder", false);
    if (admission.refusal) {
        refuse(admission.refusal->status, QString::fromUtf8(admission.refusal->text).trimmed());
        return;
    }
    if (!admission.framing) {
        const core::Errc code = admission.framing.error().code;
        refuse(code == core::Errc::UnsupportedTransferEncoding ? 501 : 400, QStringLiteral("bad request framing"),
               admission.framing.error());
        return;
    }
    m_framing = admission.framing.value();
    if (m_framing.kind == core::BodyFraming::Kind::ContentLength &&
        m_framing.contentLength > m_shared->config.maxBodyBytes) { // without reading it
        refuse(413, QStringLiteral("body too large"),
               core::Error{core::Errc::BodyTooLarge, m_shared->config.maxBodyBytes});
        return;
    }
    startExchange(admission);
}

void ForwardConnection::startExchange(const RequestAdmission& admission)
{
    const core::RequestHead& head = m_head.head();
    core::RelayTarget target;
    const QByteArray prefix = m_settings.upstream.path(QUrl::FullyEncoded).toUtf8();
    const QByteArray upstreamHost = m_settings.upstream.authority(QUrl::FullyEncoded).toUtf8();
    const QByteArray client = m_client->peerAddress().toString().toLatin1();
    target.pathPrefix = {prefix.constData(), size_t(prefix.size())};
    target.upstreamHost = {upstreamHost.constData(), size_t(upstreamHost.size())};
    target.preserveHost = m_settings.preserveHost;
    target.clientAddress = {client.constData(), size_t(client.size())};
    auto relayed = core::relayHead(head, target);
    if (!relayed) { // Connection names the framing: passing the body on would smuggle a request
        refuse(400, QStringLiteral("bad request head"), relayed.error());
        return;
    }
    m_upstreamHead = QByteArray::fromStdString(*relayed);
    m_clock.start();
    m_decoder = core::BodyDecoder(m_framing, relayLimits());
    m_requestKeepAlive = m_framing.keepAlive;
    HttpAnswer::Options answer;
    answer.answersHead = head.method == "HEAD";
    m_answer.emplace(answer);
    m_wireIn = m_wireOut = 0;
    m_upstreamSamples = {};
    m_lastUpstreamSampleMs = -1;
    m_at = {};
    m_writtenMs = m_queuedSeenMs = -1;
    m_earlyAtByte = -1;
    startSession(admission);
    connectUpstream();
}

// Inspected on the way: a multipart body parsed as /part-event parses it (or stored as /file-part with
// --save-parts), any other body counted and hashed whole.
void ForwardConnection::startSession(const RequestAdmission& admission)
{
    const core::RequestHead& head = m_head.head();
    const QString& target = admission.target;
    QString prefix = m_settings.upstream.path(QUrl::FullyEncoded);
    if (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    SessionRequest request;
    request.client = m_clientAddress;
    request.target = target;
    request.host = admission.host;
    request.contentType = toQString(head.field("content-type"));
    request.keepRaw = m_shared->config.keepRaw;
    request.framing = m_framing;
    request.rawHead = QByteArray(m_head.raw().data(), qsizetype(m_head.raw().size()));
    request.receivedAt = m_deadlines.headStartedAt();
    request.parser = m_shared->config.parser;
    request.parser.maxBodySize = m_shared->config.maxBodyBytes;
    // The hash as the listener chooses it: ?hash=, else the client's Upload-Inspector-Hash (our sender's), else
    // --hash; both go on unchanged, so an upstream listener computes the same digests.
    const QString hash = requestedHashName(QUrl(target).query(), head);
    request.hash = core::kHashNames.find(hash.toStdString()).value_or(m_shared->config.hash);
    QUrl shown = m_settings.upstream;
    shown.setPath(prefix + QUrl(target).path());
    shown.setQuery(QUrl(target).query());
    request.forwardedTo = shown.toString();
    m_tap = std::make_unique<BodyTap>();
    if (request.contentType.startsWith(QLatin1String("multipart/"), Qt::CaseInsensitive)) {
        request.endpoint = request.keepRaw        ? Endpoint::Capture
                           : m_settings.saveParts ? Endpoint::FilePart
                                                  : Endpoint::PartEvent;
        auto session = UploadSession::start(request, m_shared->store, m_publish);
        if (session)
            m_session = std::move(*session);
    }
    if (!m_session) { // not multipart, or a multipart type the parser cannot use: still forwarded
        request.endpoint = Endpoint::Discard;
        m_session = std::move(*UploadSession::start(request, m_shared->store, m_publish));
        if (m_framing.kind != core::BodyFraming::Kind::None && request.hash != core::HashKind::None)
            m_tap->digest.emplace(request.hash);
    }
    m_tap->session = m_session.get();
}

void ForwardConnection::processBody(core::ByteView data, const core::BlockPool::Block& block)
{
    m_session->setSource(block);
    auto used = m_decoder.feed(data, *m_tap);
    m_session->flush();
    if (!used) { // the client's framing is broken: what came before went on; the upstream request is cut off
        failExchange(400, QStringLiteral("bad request body framing"),
                     QStringLiteral("%1 at byte %2 of the body")
                         .arg(toQString(core::codeName(used.error().code)))
                         .arg(used.error().offset),
                     used.error()); // the capture says the same code and byte
        return;
    }
    const size_t n = *used;
    m_wireIn += n;
    if (m_earlyAtByte < 0 && m_upstream) {
        writeSocketDirect(*m_upstream, data.data(), qint64(n));
        m_wireOut += n;
        sampleUpstream(false);
    } else if (m_earlyAtByte >= 0 && !m_clientSide.dropped(n)) { // read only to be dropped: the linger caps hold
        return;
    }
    if (!m_decoder.done())
        return;
    m_at.clientLastByte = msSinceHead();
    m_deadlines.stop();
    m_pendingClient = QByteArray(data.data() + n, qsizetype(data.size() - n)); // the next request's first bytes
    if (m_tap->digest)
        m_tap->digestHex = toQString(m_tap->digest->finishHex());
    m_state = State::Answer;
    if (m_earlyAtByte >= 0) // the answer went first; the body was only being dropped
        return;
    if (!m_answer->headRelayed()) // no final answer yet: it has this long from here
        m_answerTimer.start(m_settings.answerTimeoutMs);
    if (m_upstream && unsentBytes(*m_upstream) == 0) {
        m_writtenMs = msSinceHead();
        m_deliveredTimer.start();
    }
}

void ForwardConnection::onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why)
{
    if (missed == ClientDeadlines::Missed::Head) {
        if (m_state != State::Head)
            return;
        if (m_head.headBytes() > 0)
            refuse(408, QStringLiteral("head timeout"), {}, why);
        else
            closeAfterAnswer(); // a connection that sent nothing is not a request
        return;
    }
    if (m_state == State::Body && m_earlyAtByte < 0)
        failExchange(
            408, QStringLiteral("client too slow"),
            missed == ClientDeadlines::Missed::Idle ? why + QStringLiteral("; the upstream request was cut off") : why);
}

// Keep-alive: the connection waits for the next request up to keepAliveTimeoutMs, and gives its slot to a new
// client when all are taken.
void ForwardConnection::waitForNextRequest()
{
    m_state = State::Head;
    m_head.reset();
    m_clientSide.waitForNextRequest();
    QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
}

void ForwardConnection::requestBegins()
{
    m_clientSide.requestBegins();
    m_deadlines.headDeadline();
}

// Between requests nothing is lost by closing: clients retry a request on a kept-alive connection that closed.
void ForwardConnection::closeIfWaiting()
{
    if (!m_clientSide.waiting() || m_state != State::Head || m_head.headBytes() > 0)
        return; // a request began after the slot was given away: serve it (one over the cap, briefly)
    m_clientSide.stopWaiting();
    dropUpstream();
    closeAfterAnswer();
}

// Our own answer to a request turned away before it went on, in JSON, with the connection closed after it; the
// request leaves a refusal record (a connection that sent nothing before its head deadline is not a request).
void ForwardConnection::refuse(int status, const QString& error, std::optional<core::Error> code, const QString& detail,
                               const QByteArray& extra)
{
    QJsonObject body{{"error", error}};
    if (code)
        body["detail"] = errorToJson(*code);
    else if (!detail.isEmpty())
        body["detail"] = detail;
    respondJson(status, body, extra);
    if (!(status == 408 && m_head.headBytes() == 0)) {
        RefusedRequest refused =
            RefusedRequest::fromHead(m_head, status,
                                     code ? QStringLiteral("%1: %2").arg(error, toQString(core::describe(code->code)))
                                     : detail.isEmpty() ? error
                                                        : QStringLiteral("%1: %2").arg(error, detail),
                                     code);
        refused.receivedAt = m_deadlines.headStartedAt();
        refused.client = m_clientAddress;
        recordRefusal(m_shared->store, m_publish, std::move(refused));
    }
    closeAfterAnswer();
}

void ForwardConnection::respondJson(int status, const QJsonObject& body, const QByteArray& extraHeaders)
{
    m_clientSide.writeAnswer(status, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n',
                             extraHeaders, true);
}

// The lingering close (ClientSide::closeAfterAnswer says why): the answer goes out, then the rest is dropped.
void ForwardConnection::closeAfterAnswer()
{
    m_state = State::Closing;
    m_deadlines.stop();
    m_clientSide.closeAfterAnswer();
    QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
}

} // namespace upin::app
