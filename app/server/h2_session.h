#pragma once
// HTTP/2 on one client connection (RFC 9113), the server's side, on libnghttp2: its framing, HPACK, stream states
// and flow control are what curl and Node build on, and checked here by its HTTP messaging rules (pseudo-headers,
// connection-specific fields, a Content-Length the DATA must match). What is ours is the glue: each stream is an
// Http2Stream (h2_stream.h), an Exchange with a handler of its own from the mode's factory, so every endpoint
// answers over HTTP/2 as over HTTP/1.1. nghttp2's own shape, as nghttpd's: one session per connection, driven by
// callbacks from mem_recv, its frames taken with mem_send and written to the socket.
//
// The connection (server_connection.h) hands its socket over once the client's first bytes are the HTTP/2
// preface (prior knowledge on the plain port: h2c), and passes each read here with its pool block: DATA payloads
// reach the handlers inside that block, uncopied. Memory stays bounded as over HTTP/1.1: while the handlers'
// pipelines hold every block, the connection reads no more, and TCP holds the client back. Everything runs on the
// connection's thread.

#include "capture/upload_session.h"
#include "server/exchange.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>
#include <optional>

class QTcpSocket;
struct nghttp2_session;

namespace upin::app {

class Http2ConnectionLog;
class Http2Stream;
class Http2StreamLog;

class Http2Session final : public QObject {
    Q_OBJECT
public:
    // What its streams share: who the client is, how it came, the mode.
    struct Context {
        ServerShared* shared = nullptr;
        UploadSession::Publish publish;
        HandlerFactory makeHandler;
        core::HttpLimits httpLimits;
        const char* modeName = "listener";
        bool jsonRefusals = false;
        QString client;      // "address:port"
        Transport transport; // plain (h2c), or the TLS handshake's
        QHostAddress peer, local;
    };
    Http2Session(QTcpSocket& socket, Context context, QObject* parent);
    ~Http2Session() override;

    // Bytes read from the client, the preface first; false once the session cannot go on (the client broke the
    // protocol, or both sides said GOAWAY): the connection then closes after what is queued.
    bool receive(core::ByteView data, const core::BlockPool::Block& block);
    // The socket closed: every stream still open is cut, its handler told.
    void clientGone();
    const Context& context() const { return m_context; }
    void resumeReading() { emit readingResumed(); }

    // For the streams: an answer's head (status and fields) and its body, sent as HEADERS and DATA frames.
    // resetAfter: the request is still arriving; once the answer is out the stream is reset with NO_ERROR, which
    // tells the client to stop sending without failing the answer (RFC 9113 8.1).
    void submitAnswer(int32_t streamId, int status, const QList<QPair<QByteArray, QByteArray>>& fields, QByteArray body,
                      bool resetAfter);
    void submitContinue(int32_t streamId);
    void resetStream(int32_t streamId, uint32_t errorCode);
    void flush(); // writes the frames nghttp2 has queued

signals:
    void readingResumed(); // a handler takes bytes again
    // The session ended on our side (no stream for the keep-alive time: GOAWAY sent): the connection closes.
    void ended();

private:
    struct Callbacks; // nghttp2's, in h2_session.cpp: its frame type is a union that cannot be declared here
    struct Answers;   // the answers' bodies nghttp2 is sending
    Http2Stream* stream(int32_t streamId) const;
    void consumed(int32_t streamId, size_t bytes);
    void endStreams(const QString& how);
    void armAnswerDeadline();
    void answerDeadlinePassed();
    void ping();                                                 // its answer times the round trip
    void resetByClient(Http2Stream& stream, uint32_t errorCode); // its RST_STREAM, counted
    void sweepClosed(); // streams closed during a callback are destroyed after it, queued

    QTcpSocket& m_socket;
    Context m_context;
    nghttp2_session* m_session = nullptr;
    std::shared_ptr<Http2ConnectionLog> m_log; // every frame, for the streams' captures
    std::map<int32_t, std::unique_ptr<Http2Stream>> m_streams;
    std::vector<std::unique_ptr<Http2Stream>> m_closed;
    std::unique_ptr<Answers> m_answers;
    const core::BlockPool::Block* m_block = nullptr; // the read being received: DATA lies in it
    bool m_receiving = false; // in nghttp2's mem_recv: frames are sent after it, not from its callbacks
    // A connection with no stream open holds a slot as a kept-alive HTTP/1.1 connection does, and for as long:
    // keepAliveTimeoutMs, then GOAWAY and the close (nginx's http2 idle timeout).
    QTimer m_idleTimer;
    int m_resetsByClient = 0;
    std::optional<uint32_t> m_goawaySent; // its error code
    QElapsedTimer m_clock;
    QTimer m_answerTimer;  // the oldest answer the client has not taken
    int m_emptyFrames = 0; // DATA frames without a byte that did not end their stream
};

} // namespace upin::app
