#pragma once
// One HTTP/2 stream as an exchange (exchange.h): its request head, its DATA as the body, our answer as HEADERS and
// DATA, its end (END_STREAM, a reset, the connection's close). Made by Http2Session (h2_session.h) when a stream's
// HEADERS begin; the mode's handler gets it as it would get an HTTP/1.1 request.
//
// The head is read the way HTTP/1.1's is: the header list is written out as an HTTP/1.1 head (":method :path",
// Host from :authority, the other fields as sent) and given to the same HeadReader and admission, so that every
// guard, limit and refusal record holds alike, and a capture's head.raw reads as any other. The body's framing is
// its Content-Length when it has one; else it ends with the stream (END_STREAM), as a close-delimited body ends
// with its connection.

#include "server/exchange.h"

#include <QObject>

#include <memory>

namespace upin::app {

class Http2Session;
class Http2StreamLog;

class Http2Stream final : public QObject, public Exchange {
    Q_OBJECT
public:
    Http2Stream(Http2Session& session, int32_t id, std::shared_ptr<Http2StreamLog> log);
    ~Http2Stream() override;

    void addField(const QByteArray& name, const QByteArray& value); // from the HEADERS, as HPACK gave them
    void headersDone(bool endStream);                               // admitted, then the handler's
    void data(core::ByteView payload, const core::BlockPool::Block& block);
    void endStream(); // the client's END_STREAM: a body without a length is whole
    // The stream closed, or the connection with it: a request still arriving is cut, and its handler told how,
    // in words ("the client reset the stream (CANCEL)").
    void closed(const QString& how);

    // Exchange.
    const core::RequestHead& requestHead() const override { return m_head.head(); }
    const core::BodyFraming& framing() const override { return m_framing; }
    core::BodyDecoder& decoder() override { return m_decoder; }
    SessionRequest sessionRequest(const RequestAdmission& admission) const override;
    QHostAddress peerAddress() const override;
    QHostAddress localAddress() const override;
    bool tls() const override;
    ServerShared& shared() const override;
    const UploadSession::Publish& publisher() const override;
    ClientDeadlines& deadlines() override { return m_deadlines; }
    using Exchange::respond;
    void respond(int status, const QByteArray& contentType, const QByteArrayList& body, bool close,
                 const QByteArray& extraHeaders = {}, std::optional<core::Error> error = std::nullopt) override;
    void refuse(int status, const QString& reason, std::optional<core::Error> error = std::nullopt,
                const QString& detail = {}, const QByteArray& extraHeaders = {}) override;
    void markRecorded() override { m_recorded = true; }
    void beginBody() override;
    void sendContinue() override;
    void resumeReading() override;
    void takeWhatWasRead() override {} // DATA goes to the handler as it comes: nothing is held
    // A stream ends with its answer: there is no next request to wait for, no lingering close of its own.
    void waitForNextRequest() override {}
    void closeAfterAnswer(bool /*endsAtClose*/ = false) override {}
    bool closing() const override { return m_answered; }
    bool dropBody(quint64 /*bytes*/) override { return true; }
    // A relay's streamed answer and a proxy's tunnels are HTTP/1.1's still (issue 51): a mode that uses them is
    // not offered HTTP/2 (ServerConnection::Mode::http2), so these are never called.
    void writeAnswer(const char* data, qint64 size) override;
    qint64 answerBacklog() const override { return 0; }
    void answerProgress() override {}
    void openTunnel(TunnelTls tlsFor) override;
    bool inTunnel() const override { return false; }
    QTcpSocket& tunnelClient() override;
    std::optional<QByteArray> handOver() override { return std::nullopt; }
    void endHandOver() override {}

private:
    void admit();
    void answer(int status, const QByteArray& contentType, const QByteArrayList& body, const QByteArray& extraHeaders,
                std::optional<core::Error> error, const QString& reason);
    void recordRefusal(const QString& reason, int status, std::optional<core::Error> error, const QByteArray& sent);

    Http2Session& m_session;
    int32_t m_id;
    std::shared_ptr<Http2StreamLog> m_log;              // its frames, read by its capture at the end
    QByteArray m_method, m_path, m_authority, m_fields; // the header list, :pseudo-fields apart
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::BodyDecoder m_decoder;
    ClientDeadlines m_deadlines;
    std::unique_ptr<ExchangeHandler> m_handler;
    bool m_admitted = false;   // the handler has the request
    bool m_recorded = false;   // by its capture, or by a refusal record
    bool m_answered = false;   // our answer is submitted
    bool m_clientDone = false; // the client's END_STREAM came
    bool m_headOnly = false;
    QByteArray m_corsHeaders; // for an allowed page of another origin: sent with the answer
    size_t m_listBytes = 0;   // the header list as decoded, counted against the head limits
    size_t m_listFields = 0;
    bool m_listTooLarge = false; // past them: the rest was not kept, the request is refused (431)
};

} // namespace upin::app
