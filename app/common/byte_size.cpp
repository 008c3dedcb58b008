#include "common/byte_size.h"

#include <QRegularExpression>

namespace upin::app {

std::optional<qulonglong> parseByteSize(const QString& text)
{
    // Anchored and with no nested quantifiers: linear on any input.
    static const QRegularExpression kSize(QStringLiteral("^(\\d+)\\s*([kmgt]?)(i?b)?$"),
                                          QRegularExpression::CaseInsensitiveOption);
    auto match = kSize.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    qulonglong value = match.captured(1).toULongLong(&ok);
    if (!ok)
        return std::nullopt;
    const QString unit = match.captured(2).toLower();
    int shift = unit == "k" ? 10 : unit == "m" ? 20 : unit == "g" ? 30 : unit == "t" ? 40 : 0;
    if (value > (~qulonglong(0) >> shift))
        return std::nullopt; // would overflow
    return value << shift;
}

QString exactByteSize(quint64 bytes)
{
    const char* units[] = {"", "K", "M", "G", "T"};
    int unit = 0;
    while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        ++unit;
    }
    return QStringLiteral("%1%2").arg(bytes).arg(QLatin1String(units[unit]));
}

QString formatBytes(quint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes) / 1024;
    int unit = 0;
    while (value >= 1024 && unit < 3) {
        value /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(value, 0, 'f', value < 10 ? 2 : 1).arg(QLatin1String(units[unit]));
}

QString formatSeconds(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("—");
    if (seconds > 0 && seconds < 0.001) // "0.05 ms", not "0 ms": a small request's head or body takes that long
        return QStringLiteral("%1 ms").arg(seconds * 1000, 0, 'f', 2);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1000, 0, 'f', 0);
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 2 : 1);
    return QStringLiteral("%1 min %2 s").arg(int(seconds) / 60).arg(int(seconds) % 60);
}

} // namespace upin::app
