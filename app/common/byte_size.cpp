#include "common/byte_size.h"

#include <QRegularExpression>

namespace upin::app {

std::optional<qulonglong> parseByteSize(const QString& text)
{
    // Anchored and with no nested quantifiers: linear on any input.
    static const QRegularExpression kSize(QStringLiteral("^(\\d+)\\s*([kmgt]?)(i?b)?$"), QRegularExpression::CaseInsensitiveOption);
    auto match = kSize.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    qulonglong value = match.captured(1).toULongLong(&ok);
    if (!ok)
        return std::nullopt;
    const QString unit = match.captured(2).toLower();
    int shift = unit == "k" ? 10 : unit == "m" ? 20 : unit == "g" ? 30 : unit == "t" ? 40 : 0;
    return value << shift;
}

} // namespace upin::app
