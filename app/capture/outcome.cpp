#include "capture/outcome.h"
#include "common/byte_size.h"
#include "common/qt_text.h"

#include <QObject>

#include <algorithm>

namespace upin::app {

namespace {

QString atByte(const std::optional<core::Error>& error)
{
    return error ? QObject::tr(" (byte %1)").arg(error->offset) : QString();
}

// A body cut short by its transfer: the bytes missing (when the framing says how many) and whether the multipart
// content was whole anyway (the parser then reported nothing of its own).
QString cutShortInWords(const core::ParseReport& report, std::optional<quint64> contentLength)
{
    quint64 missing = 0;
    bool contentWhole = true;
    const auto cutsContent = [](core::Errc code) {
        return code == core::Errc::UnexpectedEof || code == core::Errc::MissingCloseDelimiter ||
               code == core::Errc::NoDelimiter;
    };
    for (const auto& d : report.diagnostics) {
        if (d.code == core::Errc::BodyCutShort)
            missing = d.value;
        else if (cutsContent(d.code))
            contentWhole = false;
    }
    if (report.error && cutsContent(report.error->code))
        contentWhole = false;
    // A part begun and not ended: the cut took the content's end with it, reported or not.
    if (std::any_of(report.parts.begin(), report.parts.end(), [](const auto& p) { return !p.complete; }))
        contentWhole = false;
    const QString content =
        contentWhole ? QObject::tr("the body itself is whole") : QObject::tr("the multipart body is cut short too");
    if (contentLength && missing > 0)
        return QObject::tr("%1 missing: Content-Length %2, the file has %3 (%4)")
            .arg(missing == 1 ? QObject::tr("1 byte") : QObject::tr("%1 bytes").arg(missing))
            .arg(*contentLength)
            .arg(report.bytes)
            .arg(content);
    // Its framing not known here (a chunk's end, or a length the record did not keep): said without guessing.
    return QObject::tr("the body ended before its framing said, after %1 (%2)").arg(formatBytes(report.bytes), content);
}

} // namespace

QString outcomeInWords(CaptureState state, const std::optional<core::Error>& error, const QString& detail,
                       LimitHint how)
{
    QString name = captureStateName(state);
    if (state == CaptureState::Complete || state == CaptureState::Receiving)
        return name;
    if (!detail.isEmpty())
        return QObject::tr("%1: %2").arg(name, detail) + atByte(error);
    if (error)
        return QObject::tr("%1: %2%3")
                   .arg(name, describeError(error->code, how), valueInWords(error->code, error->value)) +
               atByte(error);
    return name;
}

QString clientGoneInWords(const QString& how, quint64 bodyBytes, std::optional<quint64> expected)
{
    const QString after = bodyBytes == 0 ? QObject::tr("before the body's first byte")
                                         : QObject::tr("after %1 of the body").arg(formatBytes(bodyBytes));
    return QStringLiteral("%1 %2").arg(how, after) +
           (expected ? QObject::tr(" (of %1)").arg(formatBytes(*expected)) : QString());
}

QString noAnswerInWords(int faultStatus, const QString& faultError)
{
    if (faultError.isEmpty())
        return QObject::tr("no answer");
    return faultStatus > 0 ? QObject::tr("no answer: %1 %2").arg(faultStatus).arg(faultError)
                           : QObject::tr("no answer: %1").arg(faultError);
}

QString serverFailedInWords(int status, int faultStatus, CaptureState state)
{
    if (status >= 400)
        return QObject::tr("refused by the server: %1").arg(status);
    if (status == 0 && faultStatus >= 500 && state == CaptureState::Complete)
        return QObject::tr("no answer from the server: %1").arg(faultStatus);
    return {};
}

QString valueInWords(core::Errc code, quint64 value)
{
    if (code == core::Errc::BodyCutShort && value > 0)
        return QObject::tr(" (%1 bytes missing)").arg(value);
    if (code == core::Errc::BytesAfterBody && value > 0)
        return QObject::tr(" (%1 bytes)").arg(value);
    if (code == core::Errc::ControlByteInHeader)
        return QObject::tr(" (the byte is 0x%1)").arg(value, 2, 16, QLatin1Char('0'));
    return {};
}

Severity severityOf(core::Errc code)
{
    switch (code) {
    case core::Errc::Preamble:
    case core::Errc::BoundaryGuessed:
    case core::Errc::DiagnosticsTruncated:
    case core::Errc::HeadersNotKept: return Severity::Note;
    default: return Severity::Warning;
    }
}

QString severityName(Severity severity)
{
    return severity == Severity::Note ? QStringLiteral("note") : QStringLiteral("warning");
}

QString diagnosticInWords(const core::Diagnostic& d, LimitHint how)
{
    return QStringLiteral("%1: %2%3")
        .arg(toQString(core::codeName(d.code)), describeError(d.code, how), valueInWords(d.code, d.value));
}

bool repeatsError(const core::ParseReport& report, const core::Diagnostic& d)
{
    return report.error && d.code == report.error->code && d.offset == report.error->offset;
}

QString parseOutcomeInWords(const core::ParseReport& report, std::optional<quint64> contentLength, LimitHint how)
{
    if (!report.error) {
        const auto n = report.diagnostics.size();
        return n == 0   ? QObject::tr("ok")
               : n == 1 ? QObject::tr("ok, 1 diagnostic")
                        : QObject::tr("ok, %1 diagnostics").arg(n);
    }
    if (report.error->code == core::Errc::BodyCutShort)
        return cutShortInWords(report, contentLength);
    for (const auto& d : report.diagnostics) // a Content-Length too small cut the multipart body: blame the length
        if (d.code == core::Errc::BytesAfterBody && contentLength)
            return QObject::tr("cut short by its Content-Length: %1 ends the body %2 before the file does (%3 at "
                               "byte %4)")
                .arg(*contentLength)
                .arg(d.value == 1 ? QObject::tr("1 byte") : QObject::tr("%1 bytes").arg(d.value))
                .arg(toQString(core::describe(report.error->code)))
                .arg(report.error->offset);
    const bool endedEarly = report.error->code == core::Errc::UnexpectedEof;
    return QObject::tr("%1: %2 (byte %3)")
        .arg(endedEarly ? QObject::tr("incomplete") : QObject::tr("rejected"), describeError(report.error->code, how))
        .arg(report.error->offset);
}

} // namespace upin::app
