#include "server/h2_session.h"

#include "capture/h2_frame_log.h"
#include "server/h2_stream.h"

#include <nghttp2/nghttp2.h>

#include <QTcpSocket>

namespace upin::app {

namespace {

constexpr uint32_t kMaxConcurrentStreams = 100;
// Streams a client may reset before their answer, on one connection, before it is closed with GOAWAY
// (ENHANCE_YOUR_CALM): opening streams and cancelling them at once costs the client one frame each and the server
// a handler, a capture and its folder each (the rapid reset of CVE-2023-44487, which nghttp2 1.52 does not bound
// itself). A browser cancels a few; a page reloaded mid-upload, its uploads once.
constexpr int kMaxResetsByClient = 200;
// nghttp2's own bounds, set rather than assumed (they are its defaults in 1.52 with Debian's fixes): a SETTINGS frame
// of at most 32 entries; at most 1,000 SETTINGS and PING acknowledgements queued for a client that sends them and
// does not read ours (then the session ends: a flood); at most 8 CONTINUATION frames after a HEADERS
// (CVE-2024-28182); and its own rate of stream resets, beside ours above.
constexpr size_t kMaxSettingsEntries = 32;
constexpr size_t kMaxOutboundAcks = 1000;
constexpr size_t kMaxContinuations = 8;
// DATA frames without a byte that do not end their stream, on one connection: each costs the client 9 bytes and
// us a callback and a look at the stream, for nothing (CVE-2019-9518, nginx's and nghttp2's "empty frames").
constexpr int kMaxEmptyFrames = 1000;
// What we write while the client does not read it, before we stop taking frames from nghttp2: Qt's socket
// buffers every write, so a client that never reads (slow read: it never opens the window of its own socket)
// would have our acknowledgements and answers pile up in memory. Past it, nghttp2 queues them, within its bounds.
constexpr qint64 kMaxUnsent = 1 << 20;

QString errorName(uint32_t code)
{
    return QString::fromLatin1(nghttp2_http2_strerror(code));
}

// An answer's body, read by nghttp2 as it makes DATA frames.
struct PendingBody {
    QByteArray bytes;
    qsizetype sent = 0;
    bool resetAfter = false;
    qint64 submittedMs = 0; // the answer deadline counts from here
    bool cancelled = false; // past it: its stream's reset is on its way
};

ssize_t readBody(nghttp2_session* /*session*/, int32_t /*streamId*/, uint8_t* buffer, size_t length, uint32_t* flags,
                 nghttp2_data_source* source, void* /*userData*/)
{
    auto& body = *static_cast<PendingBody*>(source->ptr);
    const qsizetype n = std::min(qsizetype(length), body.bytes.size() - body.sent);
    std::memcpy(buffer, body.bytes.constData() + body.sent, size_t(n));
    body.sent += n;
    if (body.sent == body.bytes.size())
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    return n;
}

} // namespace

struct Http2Session::Answers {
    std::map<int32_t, PendingBody> bodies; // until the stream closes (nghttp2 reads them while it is open)
};

struct Http2Session::Callbacks {
    static Http2Session& self(void* userData) { return *static_cast<Http2Session*>(userData); }
    static int onBeginHeaders(nghttp2_session* session, const nghttp2_frame* frame, void* userData);
    static int onHeader(nghttp2_session* session, const nghttp2_frame* frame, const uint8_t* name, size_t nameLength,
                        const uint8_t* value, size_t valueLength, uint8_t flags, void* userData);
    static int onBeginFrame(nghttp2_session* session, const nghttp2_frame_hd* header, void* userData);
    static int onFrameReceived(nghttp2_session* session, const nghttp2_frame* frame, void* userData);
    static int onFrameSent(nghttp2_session* session, const nghttp2_frame* frame, void* userData);
    static int onDataChunk(nghttp2_session* session, uint8_t flags, int32_t streamId, const uint8_t* data,
                           size_t length, void* userData);
    static int onStreamClose(nghttp2_session* session, int32_t streamId, uint32_t errorCode, void* userData);
};

Http2Session::Http2Session(QTcpSocket& socket, Context context, QObject* parent)
    : QObject(parent), m_socket(socket), m_context(std::move(context)), m_answers(std::make_unique<Answers>())
{
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::onBeginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::onHeader);
    nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, &Callbacks::onBeginFrame);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::onFrameReceived);
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::onFrameSent);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::onDataChunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::onStreamClose);
    // WINDOW_UPDATEs are ours to send (consumed()): at once, or as nghttp2 would, once half a window is used.
    nghttp2_option* options = nullptr;
    nghttp2_option_new(&options);
    nghttp2_option_set_no_auto_window_update(options, 1);
    nghttp2_option_set_max_settings(options, kMaxSettingsEntries);
    nghttp2_option_set_max_outbound_ack(options, kMaxOutboundAcks);
    nghttp2_option_set_max_continuations(options, kMaxContinuations);
    nghttp2_session_server_new2(&m_session, callbacks, this, options);
    nghttp2_option_del(options);
    nghttp2_session_callbacks_del(callbacks);
    const auto& flow = m_context.shared->config.guards.http2;
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, kMaxConcurrentStreams},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, uint32_t(flow.streamWindow)},
                                               {NGHTTP2_SETTINGS_MAX_FRAME_SIZE, uint32_t(flow.maxFrameSize)}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0, flow.connectionWindow);
    m_log =
        std::make_shared<Http2ConnectionLog>(Http2ConnectionLog::Side::Receiver, m_context.transport.http,
                                             flow.updateAtOnce ? QStringLiteral("at-once") : QStringLiteral("half"));
    ping();
    flush(); // our SETTINGS and windows go out before the client's first frames are read, as the client may wait
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(m_context.shared->config.guards.keepAliveTimeoutMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        nghttp2_session_terminate_session(m_session, NGHTTP2_NO_ERROR);
        flush();
        emit ended();
    });
    m_idleTimer.start();
    connect(&m_socket, &QTcpSocket::bytesWritten, this, &Http2Session::flush); // what waited for the client
    m_clock.start();
    m_answerTimer.setSingleShot(true);
    m_answerTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_answerTimer, &QTimer::timeout, this, &Http2Session::answerDeadlinePassed);
}

Http2Session::~Http2Session()
{
    m_streams.clear(); // their handlers end what is in progress, as a connection's do when the server stops
    m_closed.clear();
    nghttp2_session_del(m_session);
}

bool Http2Session::receive(core::ByteView data, const core::BlockPool::Block& block)
{
    m_block = &block;
    m_receiving = true;
    const ssize_t used =
        nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t*>(data.data()), data.size());
    m_receiving = false;
    m_block = nullptr;
    flush(); // the answers the handlers made meanwhile; a GOAWAY for a protocol error goes out before the close
    if (used < 0) {
        endStreams(QStringLiteral("the client broke HTTP/2 (%1), and the connection was closed")
                       .arg(QString::fromLatin1(nghttp2_strerror(int(used)))));
        return false;
    }
    if (nghttp2_session_want_read(m_session) != 0 || nghttp2_session_want_write(m_session) != 0)
        return true;
    endStreams(m_goawaySent ? QStringLiteral("the connection was closed with GOAWAY (%1)").arg(errorName(*m_goawaySent))
                            : QStringLiteral("the connection was closed"));
    return false;
}

// The connection ends with streams open: each is cut, its handler told why (not "the listener stopped").
void Http2Session::endStreams(const QString& how)
{
    for (auto& [id, stream] : m_streams)
        stream->closed(how);
}

// An answer the client has not taken answerTimeoutMs after it was made (a client that never opens its window for
// it: a slow read) has its stream reset, as an HTTP/1.1 connection is dropped: the stream's slot is free, and a
// connection left with none is closed when idle.
void Http2Session::armAnswerDeadline()
{
    qint64 oldest = -1;
    for (const auto& [id, body] : m_answers->bodies)
        if (!body.cancelled && (oldest < 0 || body.submittedMs < oldest))
            oldest = body.submittedMs;
    if (oldest < 0) {
        m_answerTimer.stop();
        return;
    }
    m_answerTimer.start(
        int(std::max<qint64>(0, oldest + m_context.shared->config.guards.answerTimeoutMs - m_clock.elapsed())));
}

void Http2Session::answerDeadlinePassed()
{
    const qint64 due = m_clock.elapsed() - m_context.shared->config.guards.answerTimeoutMs;
    for (auto& [id, body] : m_answers->bodies)
        if (!body.cancelled && body.submittedMs <= due) {
            body.cancelled = true;
            nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
        }
    flush();
    armAnswerDeadline(); // the answers not yet due (a timer may also fire a little early)
}

void Http2Session::clientGone()
{
    endStreams(QStringLiteral("the client closed the connection"));
}

void Http2Session::flush()
{
    const uint8_t* frames = nullptr;
    if (m_receiving)
        return; // receive() sends once nghttp2's call is over
    for (ssize_t n; m_socket.bytesToWrite() < kMaxUnsent && (n = nghttp2_session_mem_send(m_session, &frames)) > 0;)
        m_socket.write(reinterpret_cast<const char*>(frames), n);
}

void Http2Session::submitAnswer(int32_t streamId, int status, const QList<QPair<QByteArray, QByteArray>>& fields,
                                QByteArray body, bool resetAfter)
{
    const QByteArray statusText = QByteArray::number(status);
    static const QByteArray statusName(":status");
    std::vector<nghttp2_nv> nva{http2Field(statusName, statusText)};
    for (const auto& [name, value] : fields)
        nva.push_back(http2Field(name, value));
    PendingBody& pending = m_answers->bodies[streamId];
    pending = PendingBody{std::move(body), 0, resetAfter, m_clock.elapsed()};
    nghttp2_data_provider provider{};
    provider.source.ptr = &pending;
    provider.read_callback = readBody;
    nghttp2_submit_response(m_session, streamId, nva.data(), nva.size(), &provider); // copies the fields
    flush();
    armAnswerDeadline();
}

void Http2Session::submitContinue(int32_t streamId)
{
    static const QByteArray name(":status"), value("100");
    nghttp2_nv status = http2Field(name, value);
    nghttp2_submit_headers(m_session, NGHTTP2_FLAG_NONE, streamId, nullptr, &status, 1, nullptr);
    flush();
}

void Http2Session::resetStream(int32_t streamId, uint32_t errorCode)
{
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, streamId, errorCode);
}

void Http2Session::resetByClient(Http2Stream& stream, uint32_t errorCode)
{
    stream.closed(QStringLiteral("the client reset the stream (%1)").arg(errorName(errorCode)));
    if (++m_resetsByClient == kMaxResetsByClient + 1)
        nghttp2_session_terminate_session(m_session, NGHTTP2_ENHANCE_YOUR_CALM); // then the close
}

// The client's DATA is taken (its pipeline holds the read block, as over HTTP/1.1): the windows it spent are given
// back as the settings say. nghttp2 gives back itself what it drops (padding, DATA of a closed stream).
void Http2Session::consumed(int32_t streamId, size_t bytes)
{
    if (!m_context.shared->config.guards.http2.updateAtOnce) {
        nghttp2_session_consume(m_session, streamId, bytes); // a WINDOW_UPDATE once half of a window is used
        return;
    }
    nghttp2_submit_window_update(m_session, NGHTTP2_FLAG_NONE, 0, int32_t(bytes));
    if (nghttp2_session_get_stream_remote_close(m_session, streamId) == 0)
        nghttp2_submit_window_update(m_session, NGHTTP2_FLAG_NONE, streamId, int32_t(bytes));
}

void Http2Session::ping()
{
    nghttp2_submit_ping(m_session, NGHTTP2_FLAG_NONE, nullptr);
    m_log->pingSent();
}

Http2Stream* Http2Session::stream(int32_t streamId) const
{
    const auto found = m_streams.find(streamId);
    return found == m_streams.end() ? nullptr : found->second.get();
}

void Http2Session::sweepClosed()
{
    m_closed.clear();
}

int Http2Session::Callbacks::onBeginHeaders(nghttp2_session* /*session*/, const nghttp2_frame* frame, void* userData)
{
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
        Http2Session& s = self(userData);
        s.m_idleTimer.stop();
        const auto log = s.m_log->open(frame->hd.stream_id);
        s.m_streams[frame->hd.stream_id] = std::make_unique<Http2Stream>(s, frame->hd.stream_id, log);
        if (!s.m_log->pingOutstanding()) // the round trip as the upload begins
            s.ping();
    }
    return 0;
}

int Http2Session::Callbacks::onHeader(nghttp2_session* /*session*/, const nghttp2_frame* frame, const uint8_t* name,
                                      size_t nameLength, const uint8_t* value, size_t valueLength, uint8_t /*flags*/,
                                      void* userData)
{
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0; // trailers: not kept yet
    if (Http2Stream* stream = self(userData).stream(frame->hd.stream_id))
        stream->addField(QByteArray(reinterpret_cast<const char*>(name), qsizetype(nameLength)),
                         QByteArray(reinterpret_cast<const char*>(value), qsizetype(valueLength)));
    return 0;
}

// DATA is logged as its header comes, before its payload: the payload's last byte may end the upload, and its
// capture's record is made then. (The others once whole, with their values.)
int Http2Session::Callbacks::onBeginFrame(nghttp2_session* /*session*/, const nghttp2_frame_hd* header, void* userData)
{
    Http2Session& s = self(userData);
    if (header->type != NGHTTP2_DATA)
        return 0;
    nghttp2_frame frame{};
    frame.hd = *header;
    s.m_log->frame(frame, false);
    if (header->length == 0 && (header->flags & NGHTTP2_FLAG_END_STREAM) == 0 &&
        ++s.m_emptyFrames == kMaxEmptyFrames + 1)
        nghttp2_session_terminate_session(s.m_session, NGHTTP2_ENHANCE_YOUR_CALM);
    return 0;
}

int Http2Session::Callbacks::onFrameReceived(nghttp2_session* /*session*/, const nghttp2_frame* frame, void* userData)
{
    if (frame->hd.type != NGHTTP2_DATA)
        self(userData).m_log->frame(*frame, false);
    Http2Stream* stream = self(userData).stream(frame->hd.stream_id);
    if (!stream)
        return 0;
    const bool endStream = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
        stream->headersDone(endStream);
    else if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) && endStream)
        stream->endStream();
    else if (frame->hd.type == NGHTTP2_RST_STREAM)
        self(userData).resetByClient(*stream, frame->rst_stream.error_code);
    return 0;
}

// Once an answer whose request was still arriving is out: the stream is reset with NO_ERROR, after it.
int Http2Session::Callbacks::onFrameSent(nghttp2_session* session, const nghttp2_frame* frame, void* userData)
{
    self(userData).m_log->frame(*frame, true);
    if (frame->hd.type == NGHTTP2_GOAWAY)
        self(userData).m_goawaySent = frame->goaway.error_code;
    const bool ended = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (!ended || (frame->hd.type != NGHTTP2_DATA && frame->hd.type != NGHTTP2_HEADERS))
        return 0;
    const auto& bodies = self(userData).m_answers->bodies;
    const auto found = bodies.find(frame->hd.stream_id);
    if (found != bodies.end() && found->second.resetAfter)
        nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, frame->hd.stream_id, NGHTTP2_NO_ERROR);
    return 0;
}

int Http2Session::Callbacks::onDataChunk(nghttp2_session* /*session*/, uint8_t /*flags*/, int32_t streamId,
                                         const uint8_t* data, size_t length, void* userData)
{
    Http2Session& s = self(userData);
    s.consumed(streamId, length);
    if (Http2Stream* stream = s.stream(streamId)) {
        static const core::BlockPool::Block none;
        stream->data({reinterpret_cast<const char*>(data), length}, s.m_block ? *s.m_block : none);
    }
    return 0;
}

int Http2Session::Callbacks::onStreamClose(nghttp2_session* /*session*/, int32_t streamId, uint32_t errorCode,
                                           void* userData)
{
    Http2Session& s = self(userData);
    if (s.m_answers->bodies.erase(streamId) > 0)
        s.armAnswerDeadline();
    s.m_log->close(streamId);
    const auto found = s.m_streams.find(streamId);
    if (found == s.m_streams.end())
        return 0;
    found->second->closed(QStringLiteral("the stream was reset (%1)").arg(errorName(errorCode)));
    // Destroyed later, queued: nghttp2 is still in its call, and the stream may be in one of its own methods.
    if (s.m_closed.empty())
        QMetaObject::invokeMethod(&s, &Http2Session::sweepClosed, Qt::QueuedConnection);
    s.m_closed.push_back(std::move(found->second));
    s.m_streams.erase(found);
    if (s.m_streams.empty())
        s.m_idleTimer.start();
    return 0;
}

} // namespace upin::app
