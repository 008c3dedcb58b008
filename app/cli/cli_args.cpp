#include "cli/cli_args.h"

#include <QRegularExpression>

namespace upin::app::cli {

std::optional<qulonglong> parseSize(const QString& text)
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

void printOut(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

void printErr(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

} // namespace upin::app::cli
