#include "common/option_rules.h"

#include <QFileInfo>
#include <QSslCertificate>

#include <cmath>

namespace upin::app {

QString checkHttpUrl(const QString& text, QUrl* url)
{
    const QString typed = text.trimmed();
    const QUrl parsed(typed.contains(QLatin1String("://")) ? typed : QStringLiteral("http://") + typed,
                      QUrl::StrictMode);
    const QString scheme = parsed.scheme();
    if (typed.isEmpty() || !parsed.isValid() || parsed.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return QStringLiteral("give an http:// or https:// URL");
    if (url)
        *url = parsed;
    return {};
}

QString checkPort(const QString& text, quint16* port)
{
    bool ok = false;
    const uint value = text.trimmed().toUInt(&ok);
    if (!ok || value > 65535)
        return QStringLiteral("give a port from 0 to 65535 (0: any free one)");
    if (port)
        *port = quint16(value);
    return {};
}

QString checkSeconds(const QString& text, int* ms)
{
    QString number = text.trimmed();
    if (number.endsWith(QLatin1Char('s')))
        number.chop(1);
    bool ok = false;
    const double value = number.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0.001 || value > 86'400) // nan passes no comparison
        return QStringLiteral("give seconds from 0.001 to 86400 (a day)");
    if (ms)
        *ms = int(std::lround(value * 1000));
    return {};
}

QString checkAddress(const QString& text, QHostAddress* address)
{
    QHostAddress parsed;
    if (!parsed.setAddress(text.trimmed()))
        return QStringLiteral("give an IP address (127.0.0.1, ::1, 0.0.0.0)");
    if (address)
        *address = parsed;
    return {};
}

QString checkCaFile(const QString& path)
{
    if (path.isEmpty())
        return {};
    if (!QFileInfo::exists(path))
        return QStringLiteral("no such file");
    if (QSslCertificate::fromPath(path, QSsl::Pem).isEmpty())
        return QStringLiteral("no PEM certificate could be read in it");
    return {};
}

} // namespace upin::app
