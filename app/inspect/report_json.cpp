#include "inspect/report_json.h"
#include "common/qt_text.h"

#include <QJsonArray>

namespace upin::app {
namespace {

QJsonValue optionalText(const std::optional<std::string>& text)
{
    return text ? QJsonValue(QString::fromStdString(*text)) : QJsonValue(QJsonValue::Null);
}

QJsonObject partToJson(const core::PartSummary& part)
{
    QJsonArray headers;
    for (const auto& [name, value] : part.headers)
        headers.append(QJsonObject{{"name", QString::fromStdString(name)}, {"value", QString::fromStdString(value)}});
    QJsonArray children;
    for (const auto& child : part.children)
        children.append(partToJson(child));
    return QJsonObject{
        {"index", qint64(part.index)},
        {"name", optionalText(part.name)},
        {"filename", optionalText(part.filename)},
        {"content_type", optionalText(part.contentType)},
        {"transfer_encoding", optionalText(part.transferEncoding)},
        {"headers", headers},
        {"offset", qint64(part.offset)},
        {"body_offset", qint64(part.bodyOffset)},
        {"size", qint64(part.size)},
        {"sha256", part.sha256.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(part.sha256))},
        {"complete", part.complete},
        {"children", children},
    };
}

} // namespace

QJsonObject errorToJson(const core::Error& error)
{
    return QJsonObject{
        {"code", toQString(core::codeName(error.code))},
        {"offset", qint64(error.offset)},
        {"message", toQString(core::describe(error.code))},
    };
}

QJsonObject reportToJson(const core::ParseReport& report)
{
    QJsonArray parts;
    for (const auto& part : report.parts)
        parts.append(partToJson(part));
    QJsonArray diagnostics;
    for (const auto& diagnostic : report.diagnostics) {
        QJsonObject entry = errorToJson({diagnostic.code, diagnostic.offset});
        if (diagnostic.value)
            entry["value"] = qint64(diagnostic.value);
        diagnostics.append(entry);
    }
    return QJsonObject{
        {"ok", report.ok},
        {"error", report.error ? QJsonValue(errorToJson(*report.error)) : QJsonValue(QJsonValue::Null)},
        {"boundary", QString::fromStdString(report.boundary)},
        {"bytes", qint64(report.bytes)},
        {"parts", parts},
        {"diagnostics", diagnostics},
    };
}

} // namespace upin::app
