#pragma once
// One client connection, on a worker thread, whatever the mode: the HTTP/1.1 transport of exchanges (exchange.h).
// What every mode shares is done here once; the mode is a handler it makes by a factory and whose hooks it calls.
// Here: the socket (plain or TLS, with its handshake), reading into pool blocks, the request head (HeadReader), the
// admission checks (strict heads, Host and Origin guards, CORS, bodies on GET/HEAD/OPTIONS, framing, the body
// size limit), every client deadline and the minimum body rate, the slot with keep-alive reclaim and a lingered
// 503, our own answers with a record for every refused request, requests held back while the client does not
// take its answers, and the lingering close.
//
// The handler gets each admitted request (onRequest) and, while it takes them (takesBody), the bytes after the head
// (onBody); it answers with respond() or refuse(), then the connection waits for the next request or closes.
// Everything runs on the connection's thread; none of it is thread-safe.

#include "capture/upload_session.h"
#include "server/client_deadlines.h"
#include "server/client_side.h"
#include "server/exchange.h"
#include "server/server_shared.h"
#include "server/tls_handshake.h"

#include "upin/core/http.h"
#include "upin/core/part_pipeline.h"
#include "upin/core/tls_client_hello.h"

#include <QObject>

#include <memory>
#include <optional>

class QTcpSocket;

namespace upin::app {

class Http2Session;
struct RequestAdmission;

class ServerConnection final : public QObject, public Exchange {
    Q_OBJECT
public:
    // What differs between modes in how their requests are read and refused, as values.
    struct Mode {
        const char* name = "listener";         // in the words of a refusal ("... may not use this forwarder")
        qint64 readChunk = qint64{256} * 1024; // one read, one pool block
        size_t readBlocks = 16;                // blocks of this connection's pool (beyond one, from the shared budget)
        core::HttpLimits httpLimits = {};      // heads and body framing; a relay reads strictly (bare LF refused)
        bool jsonRefusals = false;             // the forwarder's refusals are JSON, told apart from the upstream's
        bool proxy = false; // a forward proxy's: absolute-form targets and CONNECT (request_admission.h)
        // HTTP/2 for a client whose first bytes are its preface (h2c, prior knowledge): a mode whose handlers
        // use only what an HTTP/2 stream gives (h2_stream.h), the listener's; a relay's not yet.
        bool http2 = false;
    };
    // accepted.tls: the TLS port's connection: a QSslSocket, whose handshake comes first. makeHandler: the mode.
    ServerConnection(AcceptedSocket accepted, std::shared_ptr<ServerShared> shared, UploadSession::Publish publish,
                     Mode mode, const HandlerFactory& makeHandler, QObject* parent);
    ~ServerConnection() override;

    // Closes the connection if it is still waiting for its next request (its slot was given to a new client).
    void closeIfWaiting();

    // Exchange (exchange.h says what each does).
    const core::RequestHead& requestHead() const override { return m_head.head(); }
    const core::BodyFraming& framing() const override { return m_framing; }
    core::BodyDecoder& decoder() override { return m_decoder; }
    SessionRequest sessionRequest(const RequestAdmission& admission) const override;
    QHostAddress peerAddress() const override;
    QHostAddress localAddress() const override;
    bool tls() const override { return m_tls; }
    ServerShared& shared() const override { return *m_shared; }
    const UploadSession::Publish& publisher() const override { return m_publish; }
    ClientDeadlines& deadlines() override { return m_deadlines; }
    using Exchange::respond;
    void respond(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                 const QByteArray& extraHeaders = {}, std::optional<core::Error> error = std::nullopt) override;
    void refuse(int status, const QString& reason, std::optional<core::Error> error = std::nullopt,
                const QString& detail = {}, const QByteArray& extraHeaders = {}) override;
    void markRecorded() override { m_requestRecorded = true; }
    void beginBody() override;
    void sendContinue() override;
    void resumeReading() override;
    // What was read but not taken yet is held back and then in Qt's buffer (over TLS a whole read's worth, on a
    // plain socket at most a byte), read here waiting for pool blocks.
    void takeWhatWasRead() override;
    void writeAnswer(const char* data, qint64 size) override;
    qint64 answerBacklog() const override;
    void answerProgress() override { m_clientSide.answerWritten(); }
    // Keep-alive, once the handler's answer went out whole (respond() does it for ours): the connection waits for
    // the next request without a head deadline, up to keepAliveTimeoutMs, and gives its slot to a new client
    // when all are taken.
    void waitForNextRequest() override;
    void closeAfterAnswer(bool endsAtClose = false) override; // ClientSide::closeAfterAnswer
    bool closing() const override { return m_state == State::Closing; }
    bool dropBody(quint64 bytes) override { return m_clientSide.dropped(bytes); }
    // A proxy's CONNECT, admitted: the client is told "200 Connection established", its ClientHello is read
    // (not taken) for the server name it asks for (SNI; empty when it names none or cannot be read), and TLS
    // begins on the connection with tlsFor(that name): the certificate to present. Then requests come as on the
    // TLS port, each admitted as the tunnel's (Admit::Tunnel), until the connection ends. Bytes the client sent
    // after CONNECT without waiting for its answer cannot reach the handshake: the CONNECT is refused (400).
    // A client that speaks plain HTTP in its tunnel (its first byte is no TLS record's) has its requests read as on
    // the plain port, tlsFor unused. tlsFor may instead pass the tunnel through as it is (nullopt): the connection
    // is then the handler's request, the ClientHello still unread in the socket, to hand over (handOver()) once its
    // relay has reached the server.
    void openTunnel(TunnelTls tlsFor) override;
    bool inTunnel() const override { return m_tunnel; }
    QTcpSocket& tunnelClient() override { return *m_socket; }
    // A tunnel passed through unopened: the handler's relay reads and writes the socket from here on, and the
    // connection ends when the relay says (endHandOver). Returns bytes already read that the relay is to send on
    // first; nullopt when the request is over (the client went away).
    std::optional<QByteArray> handOver() override;
    void endHandOver() override;

private:
    // Hello: on the TLS port from the start, in a tunnel from its 200, until the client's ClientHello has come
    // (read, not taken: TLS takes it).
    // Http2: the client spoke HTTP/2; its bytes go to m_http2 from then on (server_h2.cpp).
    enum class State : uint8_t { Head, Request, Closing, HandedOver, Hello, Http2 };

    void onReadyRead();
    // server_h2.cpp: the switch to HTTP/2 when the first request's bytes are the preface, and its reads.
    bool startsHttp2(core::ByteView data);
    size_t receiveHttp2(core::ByteView data, const core::BlockPool::Block& block);
    void beginTunnel(bool bytesFollowed);
    void readClientHello();
    void startPortTls(const core::ClientHello& hello);
    bool consume(core::ByteView data, const core::BlockPool::Block& block);
    size_t processHead(core::ByteView data);
    void admit();
    void respondBusy();
    void onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why);
    void onDisconnected();
    // The record of a request no capture took: the head as received, the answer as sent (its first bytes).
    void recordRefusal(const QString& reason, int status, std::optional<core::Error> error, const QByteArray& answer);
    // respond() and refuse(): reason is the refusal record's, when the request has no other.
    void answer(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                const QByteArray& extraHeaders, std::optional<core::Error> error, const QString& reason);

    Transport transport() const; // plain, or what the TLS handshake agreed
    size_t onBody(core::ByteView data, const core::BlockPool::Block& block) { return m_handler->onBody(data, block); }
    bool takesBody() const { return m_handler->takesBody(); }

    std::shared_ptr<ServerShared> m_shared;
    UploadSession::Publish m_publish;
    Mode m_mode;
    QTcpSocket* m_socket; // a QSslSocket on the TLS port, and a proxy's (plain until it opens a tunnel)
    bool m_tls = false;
    bool m_tunnel = false;     // a proxy's connection, since its CONNECT
    TunnelTls m_tunnelPending; // openTunnel()'s, until the read that brought CONNECT is done
    TunnelTls m_tunnelTls;     // then until the ClientHello has come
    QString m_client;
    ClientSide m_clientSide;                 // slot, keep-alive wait, answer deadline, lingering close
    std::optional<TlsHandshake> m_handshake; // on the TLS port
    bool m_busyAnswerPending = false;        // a 503 to send once the handshake is done
    ClientDeadlines m_deadlines; // the head's (and the TLS handshake's), a pause in the body's, the minimum rate
    State m_state = State::Head;
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::BodyDecoder m_decoder;
    bool m_headOnly = false;        // the request is HEAD: our answer has no body
    bool m_requestRecorded = false; // by its capture, or by a refusal record
    QByteArray m_corsHeaders;       // for an allowed page of another origin: sent with this request's answer
    // Reads go into blocks of this pool; an upload's pipeline holds the blocks it has not hashed and written yet,
    // and while it holds them all the socket is not read (TCP slows the client) until one comes back.
    core::BlockPool m_blocks;
    // Read but not handled yet: the next request while the client does not take its answers, or bytes the mode
    // does not take now (the rest of a read, while it connects or waits for an answer).
    QByteArray m_held;
    HandlerFactory m_makeHandler;               // the mode: this connection's handler, and each HTTP/2 stream's
    bool m_admittedOne = false;                 // a request was admitted: HTTP/2 is too late to start
    std::unique_ptr<Http2Session> m_http2;      // once the client spoke HTTP/2
    std::unique_ptr<ExchangeHandler> m_handler; // the mode; made after the rest, destroyed before it
};

} // namespace upin::app
