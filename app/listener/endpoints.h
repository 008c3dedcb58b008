#pragma once
// The listener's mode, an exchange handler (server/exchange.h): the endpoints. GET /, /captures and /captures/ID
// are answered; a POST to an upload endpoint streams its body into an UploadSession (parts, hashes, a capture
// folder) and is answered with its report.

#include "capture/upload_session.h"
#include "server/exchange.h"

#include <QUrlQuery>

#include <memory>

namespace upin::app {

class Endpoints final : public ExchangeHandler {
    Q_OBJECT
public:
    explicit Endpoints(Exchange& exchange);
    ~Endpoints() override;

private:
    void onRequest(const RequestAdmission& admission) override;
    size_t onBody(core::ByteView data, const core::BlockPool::Block& block) override;
    void onBodyDeadline(ClientDeadlines::Missed missed, const QString& why) override;
    void onClientGone(const QString& how) override;

    void answerQuestion(const RequestAdmission& admission); // GET, HEAD, OPTIONS
    void startUpload(Endpoint endpoint, const RequestAdmission& admission);
    // Ends the upload and answers with its report. Whole body (cutShort empty): the status follows the capture's
    // state. Cut short: `status`, unless storing had failed (507). detail says why in words.
    void endUpload(std::optional<core::Error> cutShort = std::nullopt, int status = 0, const QString& detail = {});
    void respondJson(int status, const QJsonObject& body, bool close);
    void respondJson(int status, QByteArrayList compact, bool close); // JSON text already made, in pieces

    std::unique_ptr<UploadSession> m_session;
};

} // namespace upin::app
