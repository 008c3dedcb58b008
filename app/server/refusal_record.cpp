#include "server/refusal_record.h"

namespace upin::app {

void recordRefusal(CaptureStore& store, const UploadSession::Publish& publish, RefusedRequest refused)
{
    if (!refused.receivedAt.isValid())
        refused.receivedAt = QDateTime::currentDateTimeUtc();
    store.recordRefused(refused);
    CaptureEvent e;
    e.kind = CaptureEvent::Kind::CaptureFinished;
    e.capture = refused.summary();
    publish(std::move(e));
}

QString refusalReason(const QByteArray& text)
{
    return QString::fromUtf8(text).trimmed().section(QLatin1Char('\n'), 0, 0);
}

} // namespace upin::app
