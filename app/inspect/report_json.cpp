#include "inspect/report_json.h"
#include "common/qt_text.h"

#include <QJsonArray>

namespace upin::app {
namespace {

QJsonValue optionalText(const std::optional<std::string>& text)
{
    return text ? QJsonValue(QString::fromStdString(*text)) : QJsonValue(QJsonValue::Null);
}

// A part's digest goes under its hash's name ("sha256" or "xxh3"); with no hash, "sha256" is null, as before XXH3.
QString digestKey(core::HashKind hash)
{
    return hash == core::HashKind::None ? QStringLiteral("sha256") : toQString(core::kHashNames.name(hash));
}

QJsonObject partToJson(const core::PartSummary& part, const QString& digestKey)
{
    QJsonArray headers;
    for (const auto& [name, value] : part.headers)
        headers.append(QJsonObject{{"name", QString::fromStdString(name)}, {"value", QString::fromStdString(value)}});
    QJsonArray children;
    for (const auto& child : part.children)
        children.append(partToJson(child, digestKey));
    QJsonObject out{
        {"index", qint64(part.index)},
        {"name", optionalText(part.name)},
        {"filename", optionalText(part.filename)},
        {"content_type", optionalText(part.contentType)},
        {"transfer_encoding", optionalText(part.transferEncoding)},
        {"headers", headers},
        {"offset", qint64(part.offset)},
        {"body_offset", qint64(part.bodyOffset)},
        {"size", qint64(part.size)},
        {digestKey,
         part.digest.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(part.digest))},
        {"complete", part.complete},
        {"children", children},
    };
    if (part.headersNotKept > 0) // past --max-recorded-headers: counted, not kept
        out["headers_not_kept"] = qint64(part.headersNotKept);
    if (part.textCut)
        out["text_cut"] = true;
    return out;
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

QJsonObject reportToJson(const core::ParseReport& report, const QList<QJsonObject>& extraPerPart)
{
    QJsonArray parts;
    const QString key = digestKey(report.hash);
    for (size_t i = 0; i < report.parts.size(); ++i) {
        QJsonObject part = partToJson(report.parts[i], key);
        if (qsizetype(i) < extraPerPart.size())
            for (auto it = extraPerPart[qsizetype(i)].begin(); it != extraPerPart[qsizetype(i)].end(); ++it)
                part.insert(it.key(), it.value());
        parts.append(part);
    }
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
        {"hash", toQString(core::kHashNames.name(report.hash))},
        {"parts", parts},
        {"diagnostics", diagnostics},
    };
}

namespace {

std::optional<std::string> optionalString(const QJsonValue& v)
{
    return v.isString() ? std::optional<std::string>(v.toString().toStdString()) : std::nullopt;
}

core::PartSummary partFromJson(const QJsonObject& o, const QString& digestKey)
{
    core::PartSummary p;
    p.index = uint32_t(o["index"].toInt());
    p.name = optionalString(o["name"]);
    p.filename = optionalString(o["filename"]);
    p.contentType = optionalString(o["content_type"]);
    p.transferEncoding = optionalString(o["transfer_encoding"]);
    for (const auto& h : o["headers"].toArray())
        p.headers.emplace_back(h.toObject()["name"].toString().toStdString(),
                               h.toObject()["value"].toString().toStdString());
    p.offset = quint64(o["offset"].toInteger());
    p.bodyOffset = quint64(o["body_offset"].toInteger());
    p.size = quint64(o["size"].toInteger());
    p.digest = o[digestKey].toString().toStdString();
    p.complete = o["complete"].toBool();
    p.headersNotKept = uint32_t(o["headers_not_kept"].toInt());
    p.textCut = o["text_cut"].toBool();
    for (const auto& c : o["children"].toArray())
        p.children.push_back(partFromJson(c.toObject(), digestKey));
    return p;
}

core::Errc codeFromJson(const QString& name)
{
    return core::codeFromName(name.toStdString()).value_or(core::Errc::Count);
}

} // namespace

core::ParseReport reportFromJson(const QJsonObject& json)
{
    core::ParseReport r;
    r.ok = json["ok"].toBool();
    r.bytes = quint64(json["bytes"].toInteger());
    r.boundary = json["boundary"].toString().toStdString();
    // Captures stored before XXH3 say "sha256" or "none" too; a file without "hash" had SHA-256 when parts carry it.
    r.hash = core::kHashNames.find(json["hash"].toString().toStdString()).value_or(core::HashKind::Sha256);
    const QString key = digestKey(r.hash);
    for (const auto& p : json["parts"].toArray())
        r.parts.push_back(partFromJson(p.toObject(), key));
    for (const auto& d : json["diagnostics"].toArray())
        r.diagnostics.push_back({codeFromJson(d.toObject()["code"].toString()),
                                 quint64(d.toObject()["offset"].toInteger()),
                                 quint64(d.toObject()["value"].toInteger())});
    if (json["error"].isObject())
        r.error = core::Error{codeFromJson(json["error"].toObject()["code"].toString()),
                              quint64(json["error"].toObject()["offset"].toInteger())};
    return r;
}

QString framingName(core::BodyFraming::Kind kind)
{
    return kind == core::BodyFraming::Kind::Chunked         ? QStringLiteral("chunked")
           : kind == core::BodyFraming::Kind::ContentLength ? QStringLiteral("content-length")
                                                            : QStringLiteral("none");
}

} // namespace upin::app
