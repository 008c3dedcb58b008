#include "probe/probe_settings.h"

#include "common/option_rules.h"

namespace upin::app {

std::optional<QList<int>> parseClientCounts(const QString& text, QString* error)
{
    QList<int> counts;
    for (const QString& n : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int clients = n.trimmed().toInt(&ok);
        if (!ok || clients < 0 || clients > 256) {
            *error = QStringLiteral("'%1' is not a number of parallel uploads from 1 to 256").arg(n.trimmed());
            return std::nullopt;
        }
        if (clients > 0)
            counts.append(clients);
    }
    return counts;
}

QString clientCountsText(const QList<int>& counts)
{
    QStringList out;
    for (int n : counts)
        out.append(QString::number(n));
    return counts.isEmpty() ? QStringLiteral("0") : out.join(QLatin1Char(','));
}

std::optional<ProbeSettingProblem> checkProbeSettings(const ProbeSettings& s)
{
    const QString shapes = kProbeShapes.join(QLatin1Char(','));
    if (s.field.trimmed().isEmpty())
        return ProbeSettingProblem{ProbeSetting::Field, QStringLiteral("give the file part a name")};
    if (!isUploadMethod(s.method))
        return ProbeSettingProblem{ProbeSetting::Method, QStringLiteral("an upload is sent with POST, PUT or PATCH")};
    if (s.size == 0)
        return ProbeSettingProblem{ProbeSetting::Size, QStringLiteral("give a whole size above 0, such as 64M or 1G")};
    if (s.maxBytes == 0)
        return ProbeSettingProblem{ProbeSetting::MaxBytes, QStringLiteral("give a size above 0, such as 4G")};
    if (s.maxSeconds <= 0)
        return ProbeSettingProblem{ProbeSetting::MaxSeconds, QStringLiteral("give a number of seconds above 0")};
    if (s.shapes.isEmpty())
        return ProbeSettingProblem{ProbeSetting::Shapes, QStringLiteral("choose at least one (%1)").arg(shapes)};
    for (const QString& shape : s.shapes) {
        if (!kProbeShapes.contains(shape))
            return ProbeSettingProblem{ProbeSetting::Shapes, QStringLiteral("no shape '%1' (%2)").arg(shape, shapes)};
        if (s.shapes.count(shape) > 1)
            return ProbeSettingProblem{ProbeSetting::Shapes, QStringLiteral("'%1' is named twice").arg(shape)};
    }
    if (const QString wrong = checkCaFile(s.caCertificates); !wrong.isEmpty())
        return ProbeSettingProblem{ProbeSetting::CaFile, wrong};
    return std::nullopt;
}

} // namespace upin::app
