#include "capture/report_json.h"
#include "common/limit_hint.h"
#include "common/limits.h"
#include "common/qt_text.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace upin::app {
namespace {

// A part's digest goes under its hash's name ("sha256" or "xxh3"); with no hash, "sha256" is null, as before XXH3.
QString digestKey(core::HashKind hash)
{
    return hash == core::HashKind::None ? QStringLiteral("sha256") : toQString(core::kHashNames.name(hash));
}

// One part, and its nested parts as children. Brief: only what names and checks it (a nested multipart part still
// lists its own parts, as briefly; a part that has none leaves children out, so that a flat form stays brief).
void writePart(JsonWriter& w, const core::PartSummary& part, std::string_view digestKey, const PerPart& extra,
               bool brief)
{
    w.beginObject();
    w.key("index").number(uint64_t(part.index));
    w.key("name").string(part.name);
    w.key("filename").string(part.filename);
    if (!brief) {
        w.key("content_type").string(part.contentType);
        w.key("transfer_encoding").string(part.transferEncoding);
        w.key("headers").beginArray();
        for (const auto& [name, value] : part.headers)
            w.beginObject()
                .key("name")
                .string(std::string_view(name))
                .key("value")
                .string(std::string_view(value))
                .endObject();
        w.endArray();
        w.key("offset").number(part.offset);
        w.key("body_offset").number(part.bodyOffset);
    }
    w.key("size").number(part.size);
    w.key(digestKey);
    part.digest.empty() ? w.null() : w.string(std::string_view(part.digest));
    w.key("complete").boolean(part.complete);
    if (!brief || !part.children.empty()) {
        w.key("children").beginArray();
        for (const auto& child : part.children)
            writePart(w, child, digestKey, {}, brief);
        w.endArray();
    }
    if (part.headersNotKept > 0 && !brief) // past --max-recorded-headers: counted, not kept
        w.key("headers_not_kept").number(uint64_t(part.headersNotKept));
    if (part.textCut) // a cut name must not pass for the whole one
        w.key("text_cut").boolean(true);
    if (extra)
        extra(w, part.index);
    w.endObject();
}

// A value is written where a code carries one; a control byte's is that even when 0, a NUL.
bool carriesValue(const core::Error& error)
{
    return error.value != 0 || error.code == core::Errc::ControlByteInHeader;
}

void writeDiagnostics(JsonWriter& w, const core::ParseReport& report)
{
    w.key("diagnostics").beginArray();
    for (const auto& diagnostic : report.diagnostics) {
        w.beginObject();
        writeError(w, {diagnostic.code, diagnostic.offset, diagnostic.value});
        w.endObject();
    }
    w.endArray();
}

} // namespace

QJsonObject errorToJson(const core::Error& error)
{
    QJsonObject json{
        {"code", toQString(core::codeName(error.code))},
        {"offset", qint64(error.offset)},
        {"message", toQString(core::describe(error.code))},
    };
    if (carriesValue(error))
        json["value"] = qint64(error.value);
    if (const UserLimit* limit = limitPassed(error.code)) // the option that raises it, for a script to name
        json["limit"] = QString::fromLatin1(limit->option);
    return json;
}

void writeError(JsonWriter& w, const core::Error& error)
{
    w.key("code").string(core::codeName(error.code));
    w.key("offset").number(error.offset);
    w.key("message").string(core::describe(error.code));
    if (carriesValue(error))
        w.key("value").number(error.value);
    if (const UserLimit* limit = limitPassed(error.code))
        w.key("limit").string(std::string_view(limit->option));
}

void writeReport(JsonWriter& w, const core::ParseReport& report)
{
    w.key("ok").boolean(report.ok);
    w.key("error");
    if (report.error) {
        w.beginObject();
        writeError(w, *report.error);
        w.endObject();
    } else {
        w.null();
    }
    w.key("bytes").number(report.bytes);
    w.key("hash").string(core::kHashNames.name(report.hash));
    writeReportParts(w, report);
}

void writeReportParts(JsonWriter& w, const core::ParseReport& report, const PerPart& perPart)
{
    w.key("boundary").string(std::string_view(report.boundary));
    const QByteArray key = digestKey(report.hash).toLatin1();
    w.key("parts").beginArray();
    for (const auto& part : report.parts)
        writePart(w, part, std::string_view(key.constData(), size_t(key.size())), perPart, false);
    w.endArray();
    writeDiagnostics(w, report);
}

void writeBriefParts(JsonWriter& w, const core::ParseReport& report, const PerPart& perPart)
{
    w.key("boundary").string(std::string_view(report.boundary));
    const QByteArray key = digestKey(report.hash).toLatin1();
    w.key("parts").beginArray();
    for (const auto& part : report.parts)
        writePart(w, part, std::string_view(key.constData(), size_t(key.size())), perPart, true);
    w.endArray();
    writeDiagnostics(w, report);
}

QJsonObject reportToJson(const core::ParseReport& report)
{
    JsonWriter w;
    w.beginObject();
    writeReport(w, report);
    w.endObject();
    return QJsonDocument::fromJson(w.take()).object();
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
