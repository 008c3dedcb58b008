#include "forwarder/forward_connection.h"

#include "common/qt_text.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "inspect/report_json.h"
#include "listener/listener_guards.h"

#include <QJsonDocument>
#include <QSslCertificate>
#include <QSslSocket>

#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <array>

namespace upin::app {

namespace {
// Reads of up to 1 MiB: a quarter as many wakeups as the listener's 256 KiB, which measured 1.34x -> 1.16x curl
// straight to the upstream (200 MiB, no hash). 4 per connection, beyond the first from the shared budget (16).
constexpr qint64 kReadChunk = qint64{1024} * 1024;
constexpr size_t kReadBlocks = 4;
// Bytes waiting in one side's socket before the other side is read no more: the backpressure that keeps memory
// flat whatever the sizes and speeds.
constexpr qint64 kMaxBacklog = qint64{1} << 20;
constexpr qsizetype kPreviewBytes = qsizetype{64} * 1024;
constexpr qsizetype kMaxAnswerHead = qsizetype{64} * 1024;
constexpr int kSampleIntervalMs = 50;
constexpr int kDeliveredPollMs = 1;
constexpr int kLingerMs = 2000;

// Fields for one connection only (RFC 9110 7.6.1), never passed on; so is any field the Connection header names.
// Transfer-Encoding is not among them here: the body goes on framed as it came.
constexpr std::array<const char*, 7> kHopByHop{"connection", "keep-alive",          "proxy-connection",  "te",
                                               "upgrade",    "proxy-authorization", "proxy-authenticate"};

core::ByteView view(const QByteArray& data)
{
    return {data.constData(), size_t(data.size())};
}

struct NoSink final : core::BodySink {
    void onBody(core::ByteView) override {}
};
} // namespace

struct ForwardConnection::BodyTap final : core::BodySink {
    UploadSession* session = nullptr;
    std::optional<core::Digest> digest; // a body that is not multipart: hashed whole
    QString digestHex;                  // once the body is whole
    void onBody(core::ByteView data) override
    {
        session->onBody(data);
        if (digest)
            digest->update(data);
    }
};

ForwardConnection::ForwardConnection(qintptr descriptor, std::shared_ptr<ListenerShared> shared,
                                     UploadSession::Publish publish, QObject* parent)
    : QObject(parent), m_shared(std::move(shared)), m_settings(*m_shared->config.forward),
      m_publish(std::move(publish)), m_client(new QTcpSocket(this)),
      m_blocks(size_t(kReadChunk), kReadBlocks, m_shared->readBlocks)
{
    // On the pipeline's thread, when it lets a block go that a read was waiting for.
    m_blocks.setOnAvailable(
        [this] { QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection); });
    ++m_shared->activeConnections;
    m_client->setSocketDescriptor(descriptor, QAbstractSocket::ConnectedState, QIODevice::ReadWrite);
    // Qt keeps almost nothing: reads take the kernel's bytes straight into blocks (readSocketInto), and while none
    // is taken they wait in the kernel, so TCP slows the client.
    m_client->setReadBufferSize(1);
    m_clientAddress = QStringLiteral("%1:%2").arg(m_client->peerAddress().toString()).arg(m_client->peerPort());
    for (QTimer* timer : {&m_headTimer, &m_idleTimer, &m_connectTimer, &m_answerTimer, &m_lingerTimer})
        timer->setSingleShot(true);
    connect(&m_headTimer, &QTimer::timeout, this, [this] {
        if (m_head.headBytes() > 0)
            respondJson(408, {{"error", "the request head did not arrive in time"}});
        closeClient();
    });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (m_state == State::Body && m_earlyAtByte < 0)
            failExchange(408, QStringLiteral("client too slow"),
                         QStringLiteral("no byte of the body for %1 ms; the upstream request was cut off")
                             .arg(m_shared->config.guards.idleTimeoutMs));
    });
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        failExchange(502, QStringLiteral("upstream unreachable"),
                     QStringLiteral("no connection to %1 within %2 ms")
                         .arg(m_settings.upstream.authority())
                         .arg(m_settings.connectTimeoutMs));
    });
    connect(&m_answerTimer, &QTimer::timeout, this, [this] {
        if (m_status >= 200) { // mid-answer: the upstream stopped sending, or the client stopped taking it
            failExchange(504, QStringLiteral("answer stalled"),
                         QStringLiteral("no progress for %1 ms after %2 bytes of the answer")
                             .arg(m_settings.answerTimeoutMs)
                             .arg(m_answerBytes));
            return;
        }
        failExchange(504, QStringLiteral("upstream too slow"),
                     QStringLiteral("no answer from %1 within %2 ms of the request's end")
                         .arg(m_settings.upstream.authority())
                         .arg(m_settings.answerTimeoutMs));
    });
    connect(&m_lingerTimer, &QTimer::timeout, this, &ForwardConnection::closeClient);
    m_answerTimer.setTimerType(Qt::PreciseTimer); // a 504 says "within N ms": not 5% early
    m_connectTimer.setTimerType(Qt::PreciseTimer);
    m_deliveredTimer.setInterval(kDeliveredPollMs);
    m_deliveredTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deliveredTimer, &QTimer::timeout, this, &ForwardConnection::checkDelivered);
    connect(m_client, &QTcpSocket::readyRead, this, &ForwardConnection::onClientReadyRead);
    connect(m_client, &QTcpSocket::bytesWritten, this, [this] {
        if (m_answerTimer.isActive() && m_status >= 200) // the client takes the answer: its deadline restarts
            m_answerTimer.start(m_settings.answerTimeoutMs);
        if (m_upstream && unsentBytes(*m_client) <= kMaxBacklog) // the answer's relay resumes
            onUpstreamReadyRead();
        if (m_state == State::Closing && unsentBytes(*m_client) == 0 && !m_lingerTimer.isActive())
            closeClient();
    });
    connect(m_client, &QTcpSocket::disconnected, this, [this] {
        if (m_session) { // mid-exchange: the upstream request is aborted with it
            dropUpstream();
            finishSession(QStringLiteral("the client went away"), record());
        }
        deleteLater();
    });
    if (m_shared->activeConnections > m_shared->config.maxConnections) {
        respondJson(503, {{"error", "too many connections"}});
        m_state = State::Closing;
        return;
    }
    m_headTimer.start(m_shared->config.guards.headTimeoutMs);
    if (m_client->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
}

ForwardConnection::~ForwardConnection()
{
    m_blocks.setOnAvailable({});
    if (m_session) // the forwarder stopped mid-exchange
        finishSession(QStringLiteral("the forwarder stopped"), record());
    --m_shared->activeConnections;
}

double ForwardConnection::msSinceHead() const
{
    return double(m_clock.nsecsElapsed()) / 1e6;
}

// Reads go into blocks of a pool, straight from the kernel: the body's bytes are then written to the upstream from
// the block (straight to the kernel too, when it takes them) and the hashing pipeline holds the block instead of
// copying. While the pool is empty or the upstream has not taken what it has, the client is not read.
void ForwardConnection::onClientReadyRead()
{
    while (true) {
        if (m_state == State::Closing && m_lingerTimer.isActive()) { // dropping what a client still sends
            char scratch[65536];
            if (readSocketInto(*m_client, scratch, qint64(sizeof scratch)) <= 0)
                return;
            m_lingerTimer.start(kLingerMs);
            continue;
        }
        if (m_state != State::Head && m_state != State::Body)
            return; // Connecting, Answer: the next request waits in the socket until this exchange ends
        // The answer came early: the rest is read and dropped, so that the client sees the answer, not a reset.
        const bool dropping = m_state == State::Body && m_earlyAtByte >= 0;
        if (m_state == State::Body && !dropping && (!m_upstream || unsentBytes(*m_upstream) > kMaxBacklog)) {
            m_idleTimer.stop(); // waiting for the upstream, not the client: a slow server is no slow client
            return;             // resumes when the upstream takes what it has
        }
        if (!m_pendingClient.isEmpty()) { // read with the head: not in a block, so the pipeline copies it
            const QByteArray held = std::exchange(m_pendingClient, {});
            consume(view(held), nullptr);
            continue;
        }
        core::BlockPool::Block block = m_blocks.tryAcquire();
        if (!block) {
            m_idleTimer.stop(); // waiting for our own hashing: called again when it lets a block go
            return;
        }
        const qint64 got = readSocketInto(*m_client, block->data(), kReadChunk);
        if (got <= 0) {
            if (m_state == State::Body && !m_idleTimer.isActive()) // the client's turn: its deadline runs
                m_idleTimer.start(m_shared->config.guards.idleTimeoutMs);
            return;
        }
        if (m_state == State::Body)
            m_idleTimer.start(m_shared->config.guards.idleTimeoutMs);
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
    auto used = m_head.feed(data);
    if (!used) {
        respondJson(400, {{"error", "bad request head"}, {"detail", errorToJson(used.error())}});
        m_state = State::Closing;
        return;
    }
    if (!m_head.complete())
        return;
    m_pendingClient = QByteArray(data.data() + *used, qsizetype(data.size() - *used));
    // As the listener: a DNS-rebinding page would otherwise reach the user's server through 127.0.0.1.
    const QString host = toQString(m_head.head().field("host"));
    if (!host.isEmpty() && !hostAllowed(host, m_shared->config.guards.allowedHosts)) {
        respondJson(421, {{"error", "this forwarder is not " + host},
                          {"detail", "name it by an IP address or localhost, or allow the name (--allow-host)"}});
        m_state = State::Closing;
        return;
    }
    auto framing = core::bodyFraming(m_head.head());
    if (!framing) {
        respondJson(400, {{"error", "bad request framing"}, {"detail", errorToJson(framing.error())}});
        m_state = State::Closing;
        return;
    }
    m_framing = *framing;
    startExchange();
}

void ForwardConnection::startExchange()
{
    m_headTimer.stop();
    m_clock.start();
    const core::RequestHead& head = m_head.head();
    m_decoder = core::BodyDecoder(m_framing);
    m_requestKeepAlive = m_framing.keepAlive;
    m_headRequest = head.method == "HEAD";
    m_wireIn = m_wireOut = m_upstreamTaken = 0;
    m_upstreamSamples = {};
    m_lastUpstreamSampleMs = -1;
    m_requestDoneMs = m_deliveredMs = m_firstAnswerMs = m_answerHeadMs = m_answerDoneMs = -1;
    m_writtenMs = m_queuedSeenMs = -1;
    m_earlyAtByte = -1;
    m_answerHeadBuffer.clear();
    m_status = 0;
    m_answerHeaders = {};
    m_preview.clear();
    m_answerBytes = 0;
    m_answerDecoder.reset();
    m_answerUntilClose = false;
    m_answerKeepAlive = true;
    m_answerComplete = false;

    // The target in origin form (an absolute-form target's path and query), after the upstream URL's own path.
    QString target = toQString(head.target);
    if (!target.startsWith(QLatin1Char('/'))) {
        const QUrl absolute(target);
        target = absolute.path(QUrl::FullyEncoded) +
                 (absolute.hasQuery() ? QLatin1Char('?') + absolute.query(QUrl::FullyEncoded) : QString());
        if (!target.startsWith(QLatin1Char('/')))
            target.prepend(QLatin1Char('/'));
    }
    QString prefix = m_settings.upstream.path(QUrl::FullyEncoded);
    if (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    const QString upstreamTarget = prefix + target;

    // The head as the upstream gets it.
    QList<QByteArray> dropped; // hop-by-hop, and what Connection names
    for (const char* name : kHopByHop)
        dropped.append(name);
    for (const QByteArray& token :
         QByteArray(head.field("connection").data(), qsizetype(head.field("connection").size())).split(','))
        if (!token.trimmed().isEmpty())
            dropped.append(token.trimmed().toLower());
    const QByteArray clientHost(head.field("host").data(), qsizetype(head.field("host").size()));
    QByteArray forwardedFor = m_client->peerAddress().toString().toLatin1();
    QByteArray out =
        QByteArray(head.method.data(), qsizetype(head.method.size())) + ' ' + upstreamTarget.toUtf8() + " HTTP/1.1\r\n";
    const QByteArray upstreamHost = m_settings.upstream.authority(QUrl::FullyEncoded).toUtf8();
    out += "Host: " + (m_settings.preserveHost && !clientHost.isEmpty() ? clientHost : upstreamHost) + "\r\n";
    for (const core::HttpField& field : head.fields) {
        const QByteArray name = QByteArray(field.name.data(), qsizetype(field.name.size())).toLower();
        const QByteArray value(field.value.data(), qsizetype(field.value.size()));
        if (name == "host" || dropped.contains(name))
            continue;
        if (name == "x-forwarded-for") { // a chain: ours goes last
            forwardedFor = value + ", " + forwardedFor;
            continue;
        }
        out += QByteArray(field.name.data(), qsizetype(field.name.size())) + ": " + value + "\r\n";
    }
    out += "X-Forwarded-For: " + forwardedFor + "\r\n";
    out += "X-Forwarded-Proto: http\r\n";
    if (!clientHost.isEmpty())
        out += "X-Forwarded-Host: " + clientHost + "\r\n";
    m_upstreamHead = out + "\r\n";

    // Inspected on the way: a multipart body parsed as /part-event parses it (or stored as /file-part with
    // --save-parts), any other body counted and hashed whole.
    SessionRequest request;
    request.client = m_clientAddress;
    request.target = target;
    request.host = toQString(head.field("host"));
    request.contentType = toQString(head.field("content-type"));
    request.keepRaw = m_shared->config.keepRaw;
    request.framing = m_framing;
    request.head = requestHeadToJson(head, m_head.headBytes());
    request.rawHead = QByteArray(m_head.raw().data(), qsizetype(m_head.raw().size()));
    request.receivedAt = QDateTime::currentDateTimeUtc();
    request.transport = QJsonObject{{"tls", false}};
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
    connectUpstream();
}

void ForwardConnection::connectUpstream()
{
    m_state = State::Connecting;
    if (m_upstream && m_upstream->state() == QAbstractSocket::ConnectedState) {
        m_upstreamReused = true;
        sendHead();
        return;
    }
    if (m_upstream)
        m_upstream->deleteLater();
    m_upstreamReused = false;
    const bool https = m_settings.upstream.scheme() == QLatin1String("https");
    m_upstream = https ? new QSslSocket(this) : new QTcpSocket(this);
    // Plain: Qt keeps almost nothing, drainSocket reads the kernel (an early answer survives the reset that may
    // follow it). TLS: Qt decrypts into a bounded buffer.
    m_upstream->setReadBufferSize(https ? kReadChunk : 1);
    QTcpSocket* upstream = m_upstream;
    connect(upstream, &QTcpSocket::readyRead, this, &ForwardConnection::onUpstreamReadyRead);
    auto progress = [this, upstream] {
        if (upstream != m_upstream)
            return;
        sampleUpstream(false);
        if (m_state == State::Body && unsentBytes(*m_upstream) <= kMaxBacklog)
            QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
        if (m_state == State::Answer && m_deliveredMs < 0 && unsentBytes(*m_upstream) == 0) {
            if (m_writtenMs < 0)
                m_writtenMs = msSinceHead(); // the last request byte went to the kernel
            m_deliveredTimer.start();
        }
        if (m_answerTimer.isActive() && m_status >= 200) // a stalled answer's deadline counts from progress
            m_answerTimer.start(m_settings.answerTimeoutMs);
    };
    connect(upstream, &QTcpSocket::bytesWritten, this, progress);
    connect(upstream, &QTcpSocket::errorOccurred, this, [this, upstream] {
        if (upstream != m_upstream)
            return;
        drainSocket(*upstream, std::numeric_limits<qint64>::max(),
                    [this](const char* data, qint64 size) { takeAnswer(data, size); });
        if (m_upstream == upstream) // the answer may have ended the exchange and let the socket go
            onUpstreamGone(upstream->errorString());
    });
    connect(upstream, &QTcpSocket::disconnected, this, [this, upstream] {
        if (upstream == m_upstream)
            onUpstreamGone(QStringLiteral("the upstream closed the connection"));
    });
    m_connectTimer.start(m_settings.connectTimeoutMs);
    const QString host = m_settings.upstream.host();
    if (https) {
        auto* tls = static_cast<QSslSocket*>(upstream);
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        if (m_settings.insecure)
            config.setPeerVerifyMode(QSslSocket::VerifyNone);
        if (!m_settings.caCertificates.isEmpty())
            config.addCaCertificates(QSslCertificate::fromPath(m_settings.caCertificates, QSsl::Pem));
        config.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")}); // what is passed on is HTTP/1.1
        tls->setSslConfiguration(config);
        connect(tls, &QSslSocket::encrypted, this, [this, upstream] {
            if (upstream == m_upstream)
                sendHead();
        });
        connect(tls, &QSslSocket::encryptedBytesWritten, this, progress);
        tls->connectToHostEncrypted(host, quint16(m_settings.upstream.port(443)));
    } else {
        connect(upstream, &QTcpSocket::connected, this, [this, upstream] {
            if (upstream == m_upstream)
                sendHead();
        });
        upstream->connectToHost(host, quint16(m_settings.upstream.port(80)));
    }
}

void ForwardConnection::sendHead()
{
    m_connectTimer.stop();
    m_upstream->write(m_upstreamHead);
    m_state = State::Body;
    m_idleTimer.start(m_shared->config.guards.idleTimeoutMs);
    if (m_decoder.done()) { // no body
        m_requestDoneMs = msSinceHead();
        m_state = State::Answer;
        m_answerTimer.start(m_settings.answerTimeoutMs);
        return;
    }
    QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
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
                         .arg(used.error().offset));
        return;
    }
    const size_t n = *used;
    m_wireIn += n;
    if (m_earlyAtByte < 0 && m_upstream) {
        writeSocketDirect(*m_upstream, data.data(), qint64(n));
        m_wireOut += n;
        sampleUpstream(false);
    }
    if (!m_decoder.done())
        return;
    m_requestDoneMs = msSinceHead();
    m_idleTimer.stop();
    m_pendingClient = QByteArray(data.data() + n, qsizetype(data.size() - n)); // the next request's first bytes
    if (m_tap->digest)
        m_tap->digestHex = toQString(m_tap->digest->finishHex());
    m_state = State::Answer;
    if (m_earlyAtByte >= 0) // the answer went first; the body was only being dropped
        return;
    if (m_status == 0 || m_status < 200) // no final answer yet: it has this long from here
        m_answerTimer.start(m_settings.answerTimeoutMs);
    if (m_upstream && unsentBytes(*m_upstream) == 0) {
        m_writtenMs = msSinceHead();
        m_deliveredTimer.start();
    }
}

void ForwardConnection::sampleUpstream(bool force)
{
    const qint64 now = qint64(msSinceHead());
    const quint64 body = m_wireOut - std::min<quint64>(m_wireOut, quint64(unsentBytes(*m_upstream)));
    if (force || m_lastUpstreamSampleMs < 0 || now - m_lastUpstreamSampleMs >= kSampleIntervalMs) {
        m_upstreamSamples.append(QJsonArray{now, qint64(body)});
        m_lastUpstreamSampleMs = now;
    }
}

// Body bytes the upstream's kernel has acknowledged: those handed on, less what Qt and our kernel still hold.
quint64 ForwardConnection::bytesUpstreamHas() const
{
    int queued = 0;
    const qintptr fd = m_upstream ? m_upstream->socketDescriptor() : -1;
    if (fd >= 0 && ::ioctl(int(fd), SIOCOUTQ, &queued) != 0)
        queued = 0;
    const quint64 held = quint64(queued) + quint64(m_upstream ? unsentBytes(*m_upstream) : 0);
    return m_wireOut - std::min(m_wireOut, held);
}

// The moment the upstream's kernel has acknowledged every byte of the request: Qt's buffer empty is not enough,
// the kernel's send queue may still hold megabytes a slow server has not taken.
void ForwardConnection::checkDelivered()
{
    if (!m_upstream || m_deliveredMs >= 0) {
        m_deliveredTimer.stop();
        return;
    }
    int queued = 0;
    const qintptr fd = m_upstream->socketDescriptor();
    if (unsentBytes(*m_upstream) > 0 || (fd >= 0 && ::ioctl(int(fd), SIOCOUTQ, &queued) == 0 && queued > 0)) {
        m_queuedSeenMs = msSinceHead(); // not yet: it came after this
        return;
    }
    m_deliveredMs = msSinceHead();
    m_deliveredTimer.stop();
    sampleUpstream(true);
}

void ForwardConnection::onUpstreamReadyRead()
{
    if (!m_upstream || unsentBytes(*m_client) > kMaxBacklog)
        return; // resumes when the client takes what it has
    drainSocket(*m_upstream, kReadChunk, [this](const char* data, qint64 size) { takeAnswer(data, size); });
}

void ForwardConnection::takeAnswer(const char* data, qint64 size)
{
    if (size <= 0 || m_answerComplete || !m_session)
        return;
    if (m_firstAnswerMs < 0)
        m_firstAnswerMs = msSinceHead();
    QByteArray body;
    if (m_status < 200) { // the head is still arriving (or an interim answer came first)
        m_answerHeadBuffer.append(data, qsizetype(size));
        if (!parseAnswerHead())
            return;
        body = std::exchange(m_answerHeadBuffer, {});
        data = body.constData();
        size = body.size();
    }
    if (m_answerUntilClose) {
        writeSocketDirect(*m_client, data, size);
    } else {
        NoSink none;
        auto used = m_answerDecoder->feed({data, size_t(size)}, none);
        const qint64 n = used ? qint64(*used) : size; // a broken answer goes on as it is
        writeSocketDirect(*m_client, data, n);
        size = n;
        if (!used || m_answerDecoder->done()) {
            m_answerKeepAlive = m_answerKeepAlive && used; // bytes past its end: the connection is not reused
            m_answerComplete = true;
        }
    }
    m_answerBytes += quint64(size);
    if (!m_answerComplete) // the rest has as long, from this progress
        m_answerTimer.start(m_settings.answerTimeoutMs);
    if (m_preview.size() < kPreviewBytes)
        m_preview.append(data, qsizetype(std::min<qint64>(size, kPreviewBytes - m_preview.size())));
    if (m_answerComplete)
        endExchange();
}

// Takes interim answers (100 Continue) and the final head from m_answerHeadBuffer, passing each on to the client;
// true once the final head is in (m_answerHeadBuffer then holds what followed it: body bytes).
bool ForwardConnection::parseAnswerHead()
{
    while (true) {
        const qsizetype end = m_answerHeadBuffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_answerHeadBuffer.size() > kMaxAnswerHead)
                failExchange(502, QStringLiteral("bad answer from upstream"),
                             QStringLiteral("its head is longer than %1 bytes").arg(kMaxAnswerHead));
            return false;
        }
        const QByteArray head = m_answerHeadBuffer.left(end + 4);
        m_answerHeadBuffer.remove(0, end + 4);
        const QList<QByteArray> lines = head.left(end).split('\n');
        const QList<QByteArray> status = lines.first().trimmed().split(' ');
        const int code = status.size() >= 2 && status.first().startsWith("HTTP/1.") ? status[1].toInt() : 0;
        if (code < 100) {
            failExchange(502, QStringLiteral("bad answer from upstream"),
                         QStringLiteral("not an HTTP/1.x status line: %1")
                             .arg(printable(QString::fromLatin1(lines.first().left(80)))));
            return false;
        }
        writeSocketDirect(*m_client, head.constData(), head.size()); // passed on as it came, interim or final
        if (code < 200 && code != 101) { // 100 Continue and its kind: the final answer follows
            if (m_answerHeadBuffer.isEmpty())
                m_firstAnswerMs = -1; // the final answer's first byte is yet to come
            continue;
        }
        m_status = code;
        m_answerHeadMs = msSinceHead();
        m_answerTimer.stop();
        // HTTP/1.0 closes unless it says keep-alive; 1.1 keeps the connection unless it says close.
        const bool http10 = status.first() == "HTTP/1.0";
        m_answerKeepAlive = !http10;
        if (m_deliveredMs < 0 && m_state == State::Answer) {
            // A whole answer means the upstream had the whole request: at the latest now, and not before the
            // last moment we saw bytes of it still unacknowledged (or our last write to its kernel).
            m_deliveredMs = std::max(m_writtenMs, m_queuedSeenMs);
            if (m_deliveredMs < 0)
                m_deliveredMs = m_firstAnswerMs;
            m_deliveredTimer.stop();
        }
        core::BodyFraming framing;
        bool chunked = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            m_answerHeaders.append(QJsonArray{QString::fromLatin1(name), QString::fromUtf8(value)});
            const QByteArray lower = name.toLower();
            if (lower == "content-length") {
                framing.kind = core::BodyFraming::Kind::ContentLength;
                framing.contentLength = value.toULongLong();
            } else if (lower == "transfer-encoding") {
                chunked = value.toLower().contains("chunked");
            } else if (lower == "connection") {
                m_answerKeepAlive =
                    http10 ? value.toLower().contains("keep-alive") : !value.toLower().contains("close");
            }
        }
        if (chunked)
            framing.kind = core::BodyFraming::Kind::Chunked;
        const bool noBody = m_headRequest || code == 204 || code == 304 || code == 101;
        if (noBody)
            framing = core::BodyFraming{};
        m_answerUntilClose = !noBody && framing.kind == core::BodyFraming::Kind::None;
        if (!m_answerUntilClose)
            m_answerDecoder.emplace(framing);
        if (m_state == State::Body || m_state == State::Connecting) { // before the body's end: it goes no further
            m_earlyAtByte = qint64(bytesUpstreamHas());
            m_requestKeepAlive = false;
            sampleUpstream(true);
        }
        if (!m_answerUntilClose && m_answerDecoder->done())
            m_answerComplete = true;
        return true;
    }
}

void ForwardConnection::onUpstreamGone(const QString& why)
{
    if (!m_session) { // between exchanges: a kept connection the upstream closed
        m_upstream->deleteLater();
        m_upstream = nullptr;
        return;
    }
    if (m_upstreamReused && m_firstAnswerMs < 0 && m_wireOut == 0) {
        // A kept connection the upstream closed as we used it (its idle timeout): nothing of the body went, so the
        // request goes again on a new one, once.
        QTcpSocket* stale = std::exchange(m_upstream, nullptr);
        stale->deleteLater();
        if (m_state == State::Answer) // no body: the head goes again
            m_state = State::Connecting;
        connectUpstream();
        return;
    }
    if (m_state == State::Connecting && m_status == 0) {
        failExchange(502, QStringLiteral("upstream unreachable"),
                     QStringLiteral("%1: %2").arg(m_settings.upstream.authority(), why));
        return;
    }
    if (m_status >= 200 && m_answerUntilClose) { // the close ends such an answer
        m_answerComplete = true;
        m_answerKeepAlive = false;
        endExchange();
        return;
    }
    failExchange(502, QStringLiteral("upstream closed the connection"),
                 m_status >= 200
                     ? QStringLiteral("in the middle of its answer, after %1 bytes of it").arg(m_answerBytes)
                     : QStringLiteral("before answering, after %1 bytes of the body: %2").arg(m_wireOut).arg(why));
}

QJsonObject ForwardConnection::record() const
{
    auto at = [](double ms) { return ms >= 0 ? QJsonValue(ms) : QJsonValue(QJsonValue::Null); };
    QJsonObject forward{
        {"upstream", m_settings.upstream.toString()},
        {"request_head", QString::fromUtf8(m_upstreamHead)},
        {"reused_connection", m_upstreamReused},
        {"status", m_status >= 200 ? QJsonValue(m_status) : QJsonValue(QJsonValue::Null)},
        {"headers", m_answerHeaders},
        {"answer_bytes", qint64(m_answerBytes)},
        {"early_at_byte", m_earlyAtByte >= 0 ? QJsonValue(m_earlyAtByte) : QJsonValue(QJsonValue::Null)},
        {"body_bytes_to_upstream", qint64(m_wireOut)}};
    const bool text = QString::fromUtf8(m_preview).toUtf8() == m_preview;
    forward["answer_preview"] = text ? QString::fromUtf8(m_preview) : QString::fromLatin1(m_preview.toBase64());
    forward["answer_preview_encoding"] = text ? "utf-8" : "base64";
    forward["timings_ms"] = QJsonObject{{"client_last_byte", at(m_requestDoneMs)},
                                        {"upstream_took_last_byte", at(m_deliveredMs)},
                                        {"first_answer_byte", at(m_firstAnswerMs)},
                                        {"answer_head", at(m_answerHeadMs)},
                                        {"answer_done", at(m_answerDoneMs)}};
    // Server time: from the moment the upstream had the whole request to its first answer byte. Transfer time:
    // from the request's head to that moment. Neither for an answer that came before the body's end.
    const bool timed = m_earlyAtByte < 0 && m_deliveredMs >= 0 && m_firstAnswerMs >= 0;
    forward["server_ms"] =
        timed ? QJsonValue(std::max(0.0, m_firstAnswerMs - m_deliveredMs)) : QJsonValue(QJsonValue::Null);
    forward["transfer_ms"] = at(m_deliveredMs);
    forward["upstream_throughput"] = m_upstreamSamples;
    if (m_tap && m_tap->digest && !m_tap->digestHex.isEmpty())
        forward["body_" + toQString(core::kHashNames.name(m_tap->digest->kind()))] = m_tap->digestHex;
    return forward;
}

// Ends the exchange's capture with the body's own outcome: whole (complete; what went wrong, if anything, is in
// forward), or cut off at the byte where it stopped. detail says why in words.
void ForwardConnection::finishSession(const QString& detail, const QJsonObject& forward)
{
    const bool whole = m_decoder.done();
    m_session->finish(m_decoder, whole,
                      whole ? std::nullopt
                            : std::optional(core::Error{core::Errc::UnexpectedEof, m_decoder.wireBytes()}),
                      detail, forward);
    m_session.reset();
    m_tap.reset();
}

void ForwardConnection::endExchange()
{
    m_answerDoneMs = msSinceHead();
    m_answerTimer.stop();
    m_deliveredTimer.stop();
    if (m_state == State::Body && m_earlyAtByte >= 0 && !m_decoder.done()) {
        // Early: the client is still sending the body no one reads; it is dropped until it ends, or pauses.
        m_lingerTimer.start(kLingerMs);
    }
    finishSession(
        m_decoder.done()
            ? QString()
            : QStringLiteral("the upstream answered %1 after %2 bytes of the body").arg(m_status).arg(m_wireOut),
        record());
    const bool upstreamReusable = m_answerKeepAlive && !m_answerUntilClose && m_earlyAtByte < 0;
    if (!upstreamReusable)
        dropUpstream();
    if (m_requestKeepAlive && upstreamReusable) {
        m_state = State::Head;
        m_head.reset();
        m_headTimer.start(m_shared->config.guards.headTimeoutMs);
        QMetaObject::invokeMethod(this, &ForwardConnection::onClientReadyRead, Qt::QueuedConnection);
        return;
    }
    m_state = State::Closing;
    if (!m_lingerTimer.isActive() && unsentBytes(*m_client) == 0)
        closeClient();
}

void ForwardConnection::failExchange(int status, const QString& error, const QString& detail)
{
    if (!m_session)
        return;
    m_idleTimer.stop();
    m_connectTimer.stop();
    m_answerTimer.stop();
    m_deliveredTimer.stop();
    if (m_status == 0 && m_firstAnswerMs < 0) // the client has had nothing of an answer: it gets ours
        respondJson(status, {{"error", error},
                             {"detail", detail},
                             {"upstream", m_settings.upstream.toString()},
                             {"body_bytes_to_upstream", qint64(m_wireOut)}});
    QJsonObject forward = record();
    forward["error"] = QJsonObject{{"status", status}, {"error", error}, {"detail", detail}};
    finishSession(QStringLiteral("%1: %2").arg(error, detail), forward);
    dropUpstream();
    m_state = State::Closing;
    if (m_decoder.done() || m_status != 0) {
        if (unsentBytes(*m_client) == 0)
            closeClient();
    } else { // the client may still be sending: read and drop it, so that it reads our answer
        m_lingerTimer.start(kLingerMs);
    }
}

// Closes the upstream connection at once. m_upstream is cleared first: the signals the abort sends find it gone.
void ForwardConnection::dropUpstream()
{
    if (QTcpSocket* upstream = std::exchange(m_upstream, nullptr)) {
        upstream->abort();
        upstream->deleteLater();
    }
}

void ForwardConnection::respondJson(int status, const QJsonObject& body)
{
    static const QHash<int, QByteArray> reasons{{400, "Bad Request"},         {408, "Request Timeout"},
                                                {421, "Misdirected Request"}, {502, "Bad Gateway"},
                                                {503, "Service Unavailable"}, {504, "Gateway Timeout"}};
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n';
    m_client->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reasons.value(status, "Error") +
                    "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(json.size()) +
                    "\r\nConnection: close\r\n\r\n" + json);
}

void ForwardConnection::closeClient()
{
    m_lingerTimer.stop();
    m_client->disconnectFromHost(); // after what is still to be written; disconnected() ends this object
    // A client that never takes the rest would hold the connection: it has the answer deadline to.
    QTimer::singleShot(m_shared->config.guards.answerTimeoutMs, this, [this] { m_client->abort(); });
}

} // namespace upin::app
