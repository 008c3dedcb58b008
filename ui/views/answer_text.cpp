#include "views/answer_text.h"

#include "sender/run_types.h"

#include <QJsonDocument>
#include <QObject>

namespace upin::ui {

QString answerText(const QByteArray& statusLine, const QString& note,
                   const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body)
{
    QString text = QString::fromUtf8(statusLine) + QLatin1Char('\n');
    if (!note.isEmpty())
        text += note + QLatin1Char('\n');
    for (const auto& [name, value] : headers)
        text += QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value) + QLatin1Char('\n');
    const QByteArray shown = body.left(app::kShownResponseBytes);
    const QJsonDocument json = QJsonDocument::fromJson(shown);
    const QString decoded = QString::fromUtf8(shown);
    text += QLatin1Char('\n') + (!json.isNull()              ? QString::fromUtf8(json.toJson(QJsonDocument::Indented))
                                 : decoded.toUtf8() == shown ? decoded
                                                             : QObject::tr("(binary, %1 bytes)").arg(body.size()));
    if (body.size() > app::kShownResponseBytes)
        text += QObject::tr("\n… the first %1 KiB are shown").arg(app::kShownResponseBytes / 1024);
    return text;
}

} // namespace upin::ui
