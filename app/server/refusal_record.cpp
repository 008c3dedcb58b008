#include "server/refusal_record.h"

namespace upin::app {

void recordRefusal(CaptureStore& store, const UploadSession::Publish& publish, RefusedRequest refused)
{
    if (!refused.receivedAt.isValid())
        refused.receivedAt = QDateTime::currentDateTimeUtc();
    store.recordRefused(refused);
    ListenerEvent e;
    e.kind = ListenerEvent::Kind::CaptureFinished;
    e.captureId = refused.id;
    e.endpoint = refused.label();
    e.method = refused.method;
    e.client = refused.client;
    e.tls = refused.tls;
    e.matcher = QStringLiteral("none");
    e.state = CaptureState::Refused;
    e.error = refused.error;
    e.errorDetail = refused.reason;
    e.answerStatus = refused.status;
    publish(std::move(e));
}

QString refusalReason(const QByteArray& text)
{
    return QString::fromUtf8(text).trimmed().section(QLatin1Char('\n'), 0, 0);
}

} // namespace upin::app
