#pragma once
// Forward mode (`forward UPSTREAM_URL`): one client connection, on a worker thread, passed on to the user's own
// server. For each request the head is read and rewritten (hop-by-hop fields dropped, Host set to the upstream's
// unless preserved, X-Forwarded-For/-Proto/-Host added), a connection to the upstream is opened on the same thread
// (or the previous request's reused), and the body goes on as it arrives, its bytes unchanged (Content-Length or
// chunked, as sent). While the upstream has not taken what was sent (1 MiB), the client is not read: a slow server
// slows the client through TCP, and memory stays flat. The answer streams back unchanged, the same way.
//
// On the way the body is parsed (UploadSession: parts, hashes, diagnostics, a capture folder; a body that is not
// multipart is counted and hashed whole) and the exchange is recorded in capture.json's "forward": the upstream's
// status, answer headers and first 64 KiB of its answer body, and the timings from the request head's arrival:
// when the client's last byte came, when the upstream took the last request byte (its kernel acknowledged it),
// when the first answer byte came, so the server time (the last two apart) beside the transfer time.
//
// Faults, each answered in JSON saying which (if the client has not had an answer yet): upstream unreachable or
// closed before answering -> 502, no answer within answerTimeoutMs -> 504. An upstream that answers before the
// body's end (a 413 after 1 MiB) gets no more of it; its answer reaches the client whole, the client's remaining
// body is read and dropped (so that the client sees the answer instead of a reset), and the capture says at which
// byte. A client that goes away aborts the upstream request.

#include "capture/forward_record.h"
#include "capture/upload_session.h"
#include "common/http_answer.h"
#include "server/client_deadlines.h"
#include "server/client_side.h"
#include "server/connection_guards.h"
#include "server/listener_shared.h"

#include "upin/core/digest.h"
#include "upin/core/http.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QObject>
#include <QTimer>

#include <memory>

class QTcpSocket;

namespace upin::app {

struct RequestAdmission;

class ForwardConnection final : public QObject {
    Q_OBJECT
public:
    ForwardConnection(qintptr descriptor, std::shared_ptr<ListenerShared> shared, UploadSession::Publish publish,
                      QObject* parent = nullptr);
    ~ForwardConnection() override;

private:
    // Head: reading a request head (or waiting for the next). Connecting: to the upstream, the client not read
    // meanwhile. Body: passing the body on. Answer: the request went whole; relaying the answer. Closing: the
    // answer goes out, then the rest of what the client sends is dropped until it closes (lingering close).
    enum class State : uint8_t { Head, Connecting, Body, Answer, Closing };

    // The client's side (forward_connection.cpp): the listener's guards, deadlines, slots and lingering.
    void onClientReadyRead();
    void consume(core::ByteView data, const core::BlockPool::Block& block);
    void processHead(core::ByteView data);
    void processBody(core::ByteView data, const core::BlockPool::Block& block); // block: where data lies, or null
    void startExchange(const RequestAdmission& admission);
    void startSession(const RequestAdmission& admission);
    void onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why);
    void waitForNextRequest();
    void requestBegins();
    void closeIfWaiting();
    void refuse(int status, const QString& error, std::optional<core::Error> code = std::nullopt,
                const QString& detail = {}, const QByteArray& extra = {});
    void respondJson(int status, const QJsonObject& body, const QByteArray& extraHeaders = {});
    void closeAfterAnswer();

    // The upstream's side (forward_upstream.cpp): connecting, the answer, the record.
    void connectUpstream();
    void sendHead();
    void onUpstreamReadyRead();
    void takeAnswer(const char* data, qint64 size);
    void onFinalHead();
    void onUpstreamGone(const QString& why);
    void checkDelivered();
    quint64 bytesUpstreamHas() const;
    void endExchange();
    // cause: why a body that is not whole stopped (default: it ended early, unexpected_eof where it stopped).
    void finishSession(const QString& detail, const ForwardRecord& forward,
                       std::optional<core::Error> cause = std::nullopt);
    ForwardRecord record() const;
    void failExchange(int status, const QString& error, const QString& detail,
                      std::optional<core::Error> cause = std::nullopt);
    void dropUpstream();
    double msSinceHead() const;
    void sampleUpstream(bool force);

    std::shared_ptr<ListenerShared> m_shared;
    const ForwardSettings& m_settings;
    UploadSession::Publish m_publish;
    QTcpSocket* m_client;
    ClientSide m_clientSide;          // slot, keep-alive wait, answer deadline, lingering close
    QTcpSocket* m_upstream = nullptr; // kept between requests while both sides allow
    QString m_clientAddress;
    ClientDeadlines m_deadlines; // the head's, a pause in the body's, the minimum body rate
    QTimer m_connectTimer;
    QTimer m_answerTimer;
    QTimer m_deliveredTimer; // polls the upstream socket's send queue once the body is written
    State m_state = State::Head;
    core::BlockPool m_blocks; // client reads, held by the hashing pipeline until it has seen them

    // The exchange under way.
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::BodyDecoder m_decoder;
    // The body's bytes go to the session (multipart: parts, hashes; else only counted) and, for a body that is not
    // multipart, to a digest of the whole.
    struct BodyTap final : core::BodySink {
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
    std::unique_ptr<UploadSession> m_session;
    std::unique_ptr<BodyTap> m_tap;
    std::optional<HttpAnswer> m_answer;
    QByteArray m_upstreamHead;  // the rewritten head, as sent
    QByteArray m_pendingClient; // read but not yet passed on (the next request, or bytes held while connecting)
    QElapsedTimer m_clock;      // from the request head's completion
    quint64 m_wireIn = 0;       // request body bytes (as framed) from the client
    quint64 m_wireOut = 0;      // of them, handed to the upstream socket
    QList<ThroughputSample> m_upstreamSamples; // body bytes the upstream had taken, every 50 ms
    qint64 m_lastUpstreamSampleMs = -1;
    ForwardRecord::Moments m_at; // the exchange's moments, as its record names them
    double m_writtenMs = -1;     // the last request byte went to our kernel
    double m_queuedSeenMs = -1;  // the last moment request bytes were seen still unacknowledged
    qint64 m_earlyAtByte = -1;   // the answer came when this many body bytes had gone on
    bool m_requestKeepAlive = true;
    bool m_upstreamReused = false;
};

} // namespace upin::app
