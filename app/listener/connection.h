#pragma once
// One client connection, created and used on a worker thread: reads request heads, routes them, streams bodies
// into an UploadSession, answers, and keeps the connection alive between requests when the client allows.

#include "capture/upload_session.h"
#include "server/client_deadlines.h"
#include "server/client_side.h"
#include "server/connection_guards.h"
#include "server/listener_shared.h"
#include "server/tls_handshake.h"

#include "upin/core/http.h"

#include <QDateTime>
#include <QObject>
#include <QUrlQuery>

#include <memory>

class QTcpSocket;

namespace upin::app {

class Connection final : public QObject {
    Q_OBJECT
public:
    // tls: the TLS port's connection: a QSslSocket, whose handshake comes first.
    Connection(qintptr descriptor, bool tls, std::shared_ptr<ListenerShared> shared, UploadSession::Publish publish,
               QObject* parent = nullptr);
    ~Connection() override;

    // Closes the connection if it is still waiting for its next request (its slot was given to a new client).
    void closeIfWaiting();

private:
    enum class State : uint8_t { Head, Body, Closing };

    Transport transport() const; // plain, or what the TLS handshake agreed
    void respondBusy();          // 503: every slot is taken
    void onReadyRead();
    bool consume(core::ByteView data);
    void onDisconnected();
    void onDeadlineMissed(ClientDeadlines::Missed missed, const QString& why);
    size_t processHead(core::ByteView data);
    size_t processBody(core::ByteView data);
    void startRequest();
    void startUpload(Endpoint endpoint, const QUrlQuery& query);
    // Ends the upload and answers with its report. Whole body (cutShort empty): the status follows the capture's
    // state. Cut short: `status`, unless storing had failed (507). detail says why in words.
    void endUpload(std::optional<core::Error> cutShort = std::nullopt, int status = 0, const QString& detail = {});
    // An answer of 400 or more to a request that no upload has recorded leaves a refusal record (error: its code
    // and offset, when it has one).
    void respond(int status, const QByteArray& contentType, const QByteArray& body, bool close,
                 const QByteArray& extraHeaders = {}, std::optional<core::Error> error = std::nullopt);
    void recordRefusal(const QString& reason, int status, std::optional<core::Error> error);
    void respondJson(int status, const QJsonObject& body, bool close);
    void respondError(int status, core::Error error, bool close);
    void closeAfterAnswer();
    void waitForNextRequest();
    void requestBegins();

    std::shared_ptr<ListenerShared> m_shared;
    UploadSession::Publish m_publish;
    QTcpSocket* m_socket; // a QSslSocket on the TLS port
    bool m_tls = false;
    ClientSide m_clientSide;                 // slot, keep-alive wait, answer deadline, lingering close
    std::optional<TlsHandshake> m_handshake; // on the TLS port
    bool m_busyAnswerPending = false;        // a 503 to send once the handshake is done
    QString m_client;
    ClientDeadlines m_deadlines; // the head's (and the TLS handshake's), a pause in the body's, the minimum rate
    State m_state = State::Head;
    core::HeadReader m_head;
    core::BodyDecoder m_decoder;
    core::BodyFraming m_framing;
    std::unique_ptr<UploadSession> m_session;
    QString m_target;               // the request target in origin form (path and query)
    bool m_headOnly = false;        // the request is HEAD: its answer has no body
    bool m_requestRecorded = false; // by its upload's capture, or by a refusal record
    QByteArray m_corsHeaders;       // for an allowed page of another origin: sent with this request's answer
    QString m_requestHost;          // the Host header, or the authority of an absolute-form target
    // Reads go into blocks of this pool; an upload's pipeline holds the blocks it has not hashed and written yet,
    // and while it holds them all the socket is not read (TCP slows the client) until one comes back.
    core::BlockPool m_blocks;
    core::BlockPool::Block m_readBlock; // the block consume() is reading from, while it does
    QByteArray m_unprocessed;           // requests read but held back while the client does not take its answers
};

} // namespace upin::app
