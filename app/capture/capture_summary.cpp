#include "capture/capture_summary.h"
#include "common/qt_text.h"

namespace upin::app {

QString captureStateName(CaptureState state)
{
    return toQString(kCaptureStateNames.name(state));
}

int CaptureSummary::status() const
{
    if (forward)
        return forward->status != 0 ? forward->status : forward->faultStatus;
    return answerStatus;
}

QJsonObject summaryToJson(const CaptureSummary& capture)
{
    return QJsonObject{
        {"id", QString::number(capture.id)},        {"endpoint", capture.endpoint},   {"client", capture.client},
        {"state", captureStateName(capture.state)}, {"bytes", qint64(capture.bytes)}, {"parts", capture.parts},
        {"elapsed_ms", double(capture.elapsedMs)},  {"folder", capture.folder}};
}

} // namespace upin::app
