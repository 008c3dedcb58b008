#include "server/refusal_record.h"

#include "capture/report_json.h"
#include "common/qt_text.h"

#include <QJsonDocument>

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

RefusalAnswer refusalAnswer(const QString& reason, std::optional<core::Error> error, const QString& detail, bool json)
{
    const QString why = error ? toQString(core::describe(error->code)) : detail;
    RefusalAnswer answer;
    answer.recorded = reason.isEmpty() ? why : why.isEmpty() ? reason : reason + QStringLiteral(": ") + why;
    QJsonObject body;
    if (json) {
        body = QJsonObject{{"error", reason.isEmpty() ? why : reason}};
        if (error)
            body["detail"] = errorToJson(*error);
        else if (!detail.isEmpty())
            body["detail"] = detail;
    } else if (error) {
        body = QJsonObject{{"ok", false}, {"error", errorToJson(*error)}};
    }
    const bool asJson = json || error;
    answer.contentType = asJson ? "application/json" : "text/plain";
    answer.body = (asJson ? QJsonDocument(body).toJson(QJsonDocument::Compact) : answer.recorded.toUtf8()) + '\n';
    return answer;
}

} // namespace upin::app
