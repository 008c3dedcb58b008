#pragma once
// A request and its answer, as a mode sees them: the seam between what carries requests (a transport) and what a
// mode does with them (a handler). heaptrack's reader shape: the transport calls a few hooks of a handler it made
// by a factory and never knows which mode it runs.
//
// The transport today is the HTTP/1.1 connection (server_connection.h): it reads heads, admits them (guards,
// framing, limits), keeps the slot, deadlines, keep-alive and lingering close, and answers refusals itself. An
// HTTP/2 stream will be one too: each stream a transport of one exchange, with its own handler. A handler gets the
// exchanges of its transport one at a time (an HTTP/1.1 connection's requests in turn), so it may keep state between
// them (the relay keeps its upstream connection).
//
// A handler names no socket: it reads the head and framing here, takes the body's bytes as the transport frames
// them (onBody) and unframes them with the exchange's decoder(), and answers with respond() or refuse(); a relay
// writes the upstream's answer through writeAnswer(). What is still HTTP/1.1's here: extra answer fields are
// "Name: value\r\n" lines, the relay writes the upstream's HTTP/1.1 answer as it came, and a proxy's tunnel passed
// through unopened is the client's socket (tunnelClient()), bytes rather than exchanges. Everything runs on the
// transport's thread.

#include "capture/upload_session.h"
#include "server/client_deadlines.h"
#include "server/server_shared.h"

#include "upin/core/http.h"
#include "upin/core/part_pipeline.h"

#include <QByteArrayList>
#include <QHostAddress>
#include <QObject>
#include <QSslConfiguration>

#include <functional>
#include <memory>
#include <optional>

class QTcpSocket;

namespace upin::app {

struct RequestAdmission;

// What a handler may ask of the transport that carries its exchange.
class Exchange {
public:
    // The request: its head, how its body is framed (and the decoder that unframes it), what its capture starts from
    // (who, what, its head and framing, when, how it came, the parser's limits; the handler sets the endpoint, the
    // hash and what it keeps).
    virtual const core::RequestHead& requestHead() const = 0;
    virtual const core::BodyFraming& framing() const = 0;
    virtual core::BodyDecoder& decoder() = 0;
    virtual SessionRequest sessionRequest(const RequestAdmission& admission) const = 0;
    virtual QHostAddress peerAddress() const = 0;
    virtual QHostAddress localAddress() const = 0;
    virtual bool tls() const = 0;
    virtual ServerShared& shared() const = 0;
    virtual const UploadSession::Publish& publisher() const = 0;
    virtual ClientDeadlines& deadlines() = 0;

    // An answer of ours; status 400 or more for a request no capture has recorded leaves a refusal record (error:
    // its code and offset). Then the transport waits for the next exchange, or closes (close).
    virtual void respond(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                         const QByteArray& extraHeaders = {}, std::optional<core::Error> error = std::nullopt) = 0;
    void respond(int status, const QByteArray& contentType, const QByteArray& body, bool close,
                 const QByteArray& extraHeaders = {}, std::optional<core::Error> error = std::nullopt)
    {
        respond(status, contentType, QByteArrayList{body}, close, extraHeaders, error);
    }
    // A request turned away, the transport closed after the answer: reason in words (the record's too), error its
    // code and offset, or detail in words.
    virtual void refuse(int status, const QString& reason, std::optional<core::Error> error = std::nullopt,
                        const QString& detail = {}, const QByteArray& extraHeaders = {}) = 0;
    virtual void markRecorded() = 0;  // a capture records this request: no refusal record
    virtual void beginBody() = 0;     // the request has a body: its deadlines start, and its bytes go to onBody
    virtual void sendContinue() = 0;  // the client asked to be told to send its body (Expect: 100-continue)
    virtual void resumeReading() = 0; // queued: the handler takes bytes again (ExchangeHandler::takesBody)
    // What was read of the client but not taken yet, to onBody while takesBody(): for a request that ends before
    // the handler took them, so that its record loses nothing received.
    virtual void takeWhatWasRead() = 0;

    // An answer the handler writes itself, as it comes (a relay's), framed as the transport's protocol frames it.
    virtual void writeAnswer(const char* data, qint64 size) = 0;
    virtual qint64 answerBacklog() const = 0; // written, not yet taken by the client
    virtual void answerProgress() = 0;        // the client took some: its answer deadline starts again
    // Then, once the answer went whole: the next exchange may come (keep-alive), or the transport closes after the
    // answer (endsAtClose: the answer's length is the close, so what the client still sends is not read first).
    virtual void waitForNextRequest() = 0;
    virtual void closeAfterAnswer(bool endsAtClose = false) = 0;
    virtual bool closing() const = 0;
    // The body's bytes after an answer that came before its end, read to be dropped: false once the caps say stop.
    virtual bool dropBody(quint64 bytes) = 0;

    // A proxy's CONNECT tunnel (server_connection.h says how it opens): tlsFor gives the certificate for the name
    // the client's ClientHello asks for, or nullopt to pass the tunnel through unopened, handed over to the
    // handler's relay (tunnelClient(), handOver(), endHandOver()).
    using TunnelTls = std::function<std::optional<QSslConfiguration>(const QString& clientServerName)>;
    virtual void openTunnel(TunnelTls tlsFor) = 0;
    virtual bool inTunnel() const = 0;
    virtual QTcpSocket& tunnelClient() = 0; // a tunnel passed through is bytes, not exchanges: the client's socket
    virtual std::optional<QByteArray> handOver() = 0;
    virtual void endHandOver() = 0;

protected:
    ~Exchange() = default;
};

// A mode: the hooks a transport calls for each exchange. A QObject for the mode's timers and signals, on the
// transport's thread; destroyed by the transport before anything of it.
class ExchangeHandler : public QObject {
    Q_OBJECT
public:
    explicit ExchangeHandler(Exchange& exchange);
    ~ExchangeHandler() override;

    // A request whose head was admitted, with valid framing within the body size limit. The handler answers it
    // (respond, refuse), or calls beginBody() and takes the body.
    virtual void onRequest(const RequestAdmission& admission) = 0;
    // Body bytes as framed (and, once the body is whole, whatever follows it), while takesBody(); returns the bytes
    // it used. block: the pool block the bytes lie in, or null (held-back bytes: a pipeline copies them).
    virtual size_t onBody(core::ByteView data, const core::BlockPool::Block& block) = 0;
    // Asked before each read during a request: false holds the client back (reads resume on resumeReading()).
    virtual bool takesBody() { return true; }
    // The idle deadline or the minimum rate, during a request.
    virtual void onBodyDeadline(ClientDeadlines::Missed missed, const QString& why) = 0;
    // The client closed during a request. Called before takeWhatWasRead(), then onClientGone(): a handler that
    // holds the body back can let it go to its record here (takesBody).
    virtual void onClientClosed() {}
    // The client is gone during a request; how, in words that begin a sentence: "the client closed the
    // connection", or why the transport dropped it ("the client was dropped: it took nothing of the answer for
    // 30000 ms").
    virtual void onClientGone(const QString& how) = 0;
    virtual void onClosing() {}     // the transport starts its lingering close (the request, if any, is over)
    virtual void onAnswerTaken() {} // the client took bytes of the answer

protected:
    Exchange& exchange() const { return m_exchange; }

private:
    Exchange& m_exchange;
};

// What every mode's capture of a request starts from, whatever carried it: who, what, its head and framing, when,
// how it came, the parser's limits. Each transport's sessionRequest().
SessionRequest sessionRequestFor(const core::HeadReader& head, const RequestAdmission& admission,
                                 const core::BodyFraming& framing, const ServerShared& shared, const QString& client,
                                 const ClientDeadlines& deadlines, const Transport& transport);

// Made by the server (modes/server.cpp) for each transport: the one place that knows the modes.
using HandlerFactory = std::function<std::unique_ptr<ExchangeHandler>(Exchange&)>;

} // namespace upin::app
