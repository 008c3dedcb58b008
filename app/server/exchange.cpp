#include "server/exchange.h"

#include "common/qt_text.h"
#include "common/upin_headers.h"
#include "server/request_admission.h"

namespace upin::app {

// Out of line, so that the handler's vtable and moc's code have one home.
ExchangeHandler::ExchangeHandler(Exchange& exchange) : m_exchange(exchange) {}

ExchangeHandler::~ExchangeHandler() = default;

SessionRequest sessionRequestFor(const core::HeadReader& head, const RequestAdmission& admission,
                                 const core::BodyFraming& framing, const ServerShared& shared, const QString& client,
                                 const ClientDeadlines& deadlines, const Transport& transport)
{
    SessionRequest request;
    request.client = client;
    request.target = admission.target;
    request.host = admission.host;
    request.method = toQString(head.head().method);
    head.head().field(kProbeHeader, &request.fromProbe);
    request.contentType = toQString(head.head().field("content-type"));
    request.keepRaw = shared.config.keepRaw;
    request.captureBodyOnly = shared.config.captureBodyOnly;
    request.framing = framing;
    request.rawHead = QByteArray(head.raw().data(), qsizetype(head.raw().size()));
    request.receivedAt = deadlines.headStartedAt();
    request.headMs = deadlines.headMs();
    request.transport = transport;
    request.parser = shared.config.parser;
    request.parser.maxBodySize = shared.config.maxBodyBytes;
    return request;
}

} // namespace upin::app
