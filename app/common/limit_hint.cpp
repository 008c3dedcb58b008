#include "common/limit_hint.h"

#include "common/limits.h"
#include "common/qt_text.h"

#include <QObject>

#include <cstring>

namespace upin::app {

namespace {
// Which error each user limit's passing gives (the parser's, for the options of common/limits.h).
struct LimitError {
    core::Errc code;
    const char* option;
};
constexpr LimitError kLimitErrors[] = {
    {core::Errc::FieldTooLarge, "max-field-size"}, {core::Errc::PartTooLarge, "max-part-size"},
    {core::Errc::TooManyParts, "max-parts"},       {core::Errc::HeaderBlockTooLarge, "max-header-bytes"},
    {core::Errc::BodyTooLarge, "max-body"},        {core::Errc::HeadersNotKept, "max-recorded-headers"},
};
} // namespace

const UserLimit* limitPassed(core::Errc code)
{
    for (const LimitError& e : kLimitErrors)
        if (e.code == code)
            for (const UserLimit& limit : kUserLimits)
                if (std::strcmp(limit.option, e.option) == 0)
                    return &limit;
    return nullptr;
}

QString limitLabel(const UserLimit& limit)
{
    QString label = QString::fromLatin1(limit.option).replace(QLatin1Char('-'), QLatin1Char(' '));
    label[0] = label[0].toUpper();
    return label;
}

QString describeError(core::Errc code, LimitHint how)
{
    QString words = toQString(core::describe(code));
    const UserLimit* limit = limitPassed(code);
    if (!limit)
        return words;
    const QString option = QString::fromLatin1(limit->option);
    switch (how) {
    case LimitHint::CliFlag: return QObject::tr("%1 (raise it with --%2)").arg(words, option);
    case LimitHint::WindowFlag: return QObject::tr("%1 (raise it by starting the window with --%2)").arg(words, option);
    case LimitHint::ListenSettings:
        return QObject::tr("%1 (raise “%2” in Listen › Settings…)").arg(words, limitLabel(*limit));
    }
    return words;
}

} // namespace upin::app
