#include "common/option_rules.h"

#include <QFileInfo>
#include <QSslCertificate>

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
