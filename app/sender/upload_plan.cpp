#include "sender/upload_plan.h"

#include "upin/core/header_params.h"

#include <QJsonDocument>

#include "common/byte_size.h"
#include "common/qt_text.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QMimeDatabase>
#include <QRegularExpression>

namespace upin::app {

namespace {

// The encoding in a -F piece 'headers="Content-Transfer-Encoding: base64"' (what toCurl writes); empty otherwise.
QString transferEncodingIn(const QString& piece)
{
    static const QString prefix = QStringLiteral("headers=\"Content-Transfer-Encoding:");
    if (!piece.startsWith(prefix, Qt::CaseInsensitive) || !piece.endsWith(QLatin1Char('"')))
        return {};
    const QString encoding = piece.mid(prefix.size(), piece.size() - prefix.size() - 1).trimmed();
    return isHttpToken(encoding) ? encoding : QString();
}

constexpr core::EnumNames<PlanPart::Fill, 3> kFillNames{
    {{{PlanPart::Fill::Random, "random"}, {PlanPart::Fill::Zero, "zero"}, {PlanPart::Fill::Pattern, "pattern"}}}};
constexpr core::EnumNames<PlanPart::Kind, 4> kKindNames{{{{PlanPart::Kind::Field, "field"},
                                                          {PlanPart::Kind::File, "file"},
                                                          {PlanPart::Kind::Synthetic, "synthetic"},
                                                          {PlanPart::Kind::FieldFile, "field-file"}}}};

// A word in curl's -F syntax, double-quoted with '\\' and '"' escaped, as curl's formparse reads it.
QString curlQuoted(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString fillName(PlanPart::Fill fill)
{
    return toQString(kFillNames.name(fill));
}

std::optional<PlanPart::Fill> fillFromName(const QString& name)
{
    return kFillNames.find(name.toStdString());
}

} // namespace

std::optional<UploadPlan::Engine> engineFromName(const QString& name)
{
    return kEngineNames.find(name.toStdString());
}

QString shellQuote(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QJsonObject UploadPlan::toJson() const
{
    QJsonArray targetList, partList, headerList;
    for (const auto& t : targets)
        targetList.append(t.toString());
    for (const auto& p : parts) {
        QJsonObject o{{"kind", toQString(kKindNames.name(p.kind))}, {"name", p.name}};
        if (p.kind == PlanPart::Kind::Field)
            o["value"] = p.value;
        if (p.kind == PlanPart::Kind::File || p.kind == PlanPart::Kind::FieldFile)
            o["path"] = p.path;
        if (p.kind == PlanPart::Kind::Synthetic) {
            o["size"] = qint64(p.size);
            o["fill"] = fillName(p.fill);
        }
        if (!p.contentType.isEmpty())
            o["content_type"] = p.contentType;
        if (!p.filename.isEmpty())
            o["filename"] = p.filename;
        if (!p.transferEncoding.isEmpty())
            o["transfer_encoding"] = p.transferEncoding;
        partList.append(o);
    }
    for (const auto& h : headers) {
        QJsonObject o{{"name", h.name}, {"value", h.value}};
        if (!h.enabled)
            o["enabled"] = false;
        headerList.append(o);
    }
    return QJsonObject{{"version", 1},
                       {"targets", targetList},
                       {"method", method},
                       {"parts", partList},
                       {"boundary", boundary},
                       {"chunked", chunked},
                       {"http2", http2},
                       {"expect_continue", expectContinue},
                       {"headers", headerList},
                       {"runs", runs},
                       {"hash", toQString(core::kHashNames.name(hash))},
                       {"cacert", caCertificates},
                       {"insecure", insecure},
                       {"stall_timeout_ms", stallTimeoutMs},
                       {"engine", toQString(kEngineNames.name(engine))}};
}

namespace {
// One of a plan's parts, as toJson writes it; nullopt with why in *error.
std::optional<PlanPart> partFromJson(const QJsonObject& o, QString* error)
{
    auto fail = [error](const QString& why) -> std::optional<PlanPart> {
        *error = why;
        return std::nullopt;
    };
    PlanPart p;
    const QString kind = o["kind"].toString();
    auto known = kKindNames.find(kind.toStdString());
    if (!known)
        return fail(QStringLiteral("unknown part kind '%1'").arg(kind));
    p.kind = *known;
    p.name = o["name"].toString();
    p.value = o["value"].toString();
    p.path = o["path"].toString();
    p.size = quint64(o["size"].toInteger());
    auto fill = fillFromName(o["fill"].toString(QStringLiteral("random")));
    if (!fill)
        return fail(QStringLiteral("unknown fill '%1'").arg(o["fill"].toString()));
    p.fill = *fill;
    p.contentType = o["content_type"].toString();
    if (const QString problem = contentTypeProblem(p.contentType); !problem.isEmpty())
        return fail(problem);
    p.filename = o["filename"].toString();
    p.transferEncoding = o["transfer_encoding"].toString();
    if (!p.transferEncoding.isEmpty() && !isHttpToken(p.transferEncoding))
        return fail(QStringLiteral("transfer_encoding '%1' is not a token (base64, quoted-printable…)")
                        .arg(p.transferEncoding));
    return p;
}
} // namespace

namespace {
// A plan's hash by name; plans saved before XXH3 say true (SHA-256) or false (none).
std::optional<core::HashKind> hashFromJson(const QJsonValue& hash)
{
    if (hash.isBool() || hash.isUndefined())
        return hash.toBool(true) ? core::HashKind::Sha256 : core::HashKind::None;
    return core::kHashNames.find(hash.toString().toStdString());
}
} // namespace

std::optional<UploadPlan> UploadPlan::fromJson(const QJsonObject& json, QString* error)
{
    auto fail = [&](const QString& why) -> std::optional<UploadPlan> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    UploadPlan plan;
    for (const auto& t : json["targets"].toArray()) {
        QUrl url(t.toString());
        if (!url.isValid() || url.scheme().isEmpty())
            return fail(QStringLiteral("invalid target URL '%1'").arg(t.toString()));
        plan.targets.append(url);
    }
    for (const auto& value : json["parts"].toArray()) {
        QString why;
        const std::optional<PlanPart> part = partFromJson(value.toObject(), &why);
        if (!part)
            return fail(why);
        plan.parts.append(*part);
    }
    // Read strictly: a header that is not what it seems (an "enabled" of "no", a number for a value) is refused,
    // not sent as something else.
    if (!json["headers"].isUndefined() && !json["headers"].isArray())
        return fail(QStringLiteral("headers must be a list of {\"name\", \"value\", \"enabled\"}"));
    for (const auto& value : json["headers"].toArray()) {
        const QJsonObject h = value.toObject();
        if (!h["name"].isString() || !h["value"].isString() || !(h["enabled"].isUndefined() || h["enabled"].isBool()))
            return fail(QStringLiteral("a header must have a text name and value, and enabled true or false: %1")
                            .arg(QString::fromUtf8(QJsonDocument(h).toJson(QJsonDocument::Compact))));
        PlanHeader header{h["name"].toString(), h["value"].toString(), h["enabled"].toBool(true)};
        // One that is kept but not sent may hold what could not be sent; the window marks it when ticked.
        if (const QString problem = headerProblem(header.name, header.value); !problem.isEmpty() && header.enabled)
            return fail(problem);
        plan.headers.append(header);
    }
    plan.method = json["method"].toString(QStringLiteral("POST")).toUpper();
    if (!isUploadMethod(plan.method))
        return fail(
            QStringLiteral("method '%1' is not one an upload is sent with (POST, PUT, PATCH)").arg(plan.method));
    plan.boundary = json["boundary"].toString();
    plan.chunked = json["chunked"].toBool();
    plan.http2 = json["http2"].toBool();
    plan.expectContinue = json["expect_continue"].toBool();
    plan.runs = std::max(1, json["runs"].toInt(1));
    plan.caCertificates = json["cacert"].toString();
    plan.insecure = json["insecure"].toBool();
    plan.stallTimeoutMs = json["stall_timeout_ms"].toInt(plan.stallTimeoutMs);
    const std::optional<core::HashKind> hash = hashFromJson(json["hash"]);
    if (!hash)
        return fail(QStringLiteral("unknown hash '%1' (use sha256, xxh3 or none)").arg(json["hash"].toString()));
    plan.hash = *hash;
    auto engine = engineFromName(json["engine"].toString(QStringLiteral("auto")));
    if (!engine)
        return fail(QStringLiteral("unknown engine '%1'").arg(json["engine"].toString()));
    plan.engine = *engine;
    return plan;
}

namespace {

// A name as a note shows it: quoted, and every control byte (and U+2028, U+2029) written as \xNN or \uNNNN. A name
// is the client's, and a line break in it would end the comment, making the rest of the name a command.
QString nameForNote(const QString& name)
{
    QString shown;
    for (const QChar c : shellQuote(name)) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u == 0x7f)
            shown += QStringLiteral("\\x%1").arg(unsigned(u), 2, 16, QLatin1Char('0'));
        else if (u == 0x2028 || u == 0x2029)
            shown += QStringLiteral("\\u%1").arg(unsigned(u), 4, 16);
        else
            shown += c;
    }
    return shown;
}

// curl -F ends a name at its first '=' and sends '"', CR and LF in it percent-encoded (curl 7.88), with no way
// to say otherwise: such a field reaches the server under another name, which the command says above itself.
QString curlNameNote(const QString& name)
{
    const qsizetype eq = name.indexOf(QLatin1Char('='));
    if (eq >= 0) // arg() with both at once: a name's own %1 or %2 is not taken for a place marker
        return QStringLiteral("# curl -F cannot name a field %1: a name ends at its first '=', so this sends it as %2")
            .arg(nameForNote(name), nameForNote(name.left(eq)));
    for (const QChar c : {QLatin1Char('"'), QLatin1Char('\r'), QLatin1Char('\n')})
        if (name.contains(c)) // not arg(): the note's own %22, %0D and %0A would be taken for place markers
            return QStringLiteral("# curl -F sends '\"', CR and LF in a name as %22, %0D and %0A: the field ") +
                   nameForNote(name) + QStringLiteral(" arrives under another name");
    return {};
}

} // namespace

namespace {
// A synthetic part as curl sends it: generated into a temporary file first, by the shell (a command in prelude), zeros
// and the pattern byte for byte as the sender makes them; random bytes are random again (so their hash differs).
QString syntheticPartForCurl(const PlanPart& p, const QString& encoding, QStringList& prelude)
{
    const QString var = QStringLiteral("part%1").arg(prelude.size());
    const QString source = p.fill == PlanPart::Fill::Zero ? QStringLiteral("head -c %1 /dev/zero").arg(p.size)
                           : p.fill == PlanPart::Fill::Pattern
                               ? QStringLiteral("yes 0123456789abcdef | tr -d '\\n' | head -c %1").arg(p.size)
                               : QStringLiteral("head -c %1 /dev/urandom").arg(p.size);
    // Named so they can be found: the command ends with curl (so options can be added to it), and cannot remove them
    // after it.
    prelude << QStringLiteral("%1=$(mktemp -t upload-inspector.XXXXXX) && %2 > \"$%1\" &&").arg(var, source);
    const QString filename = p.filename.isEmpty() ? p.name + QStringLiteral(".bin") : p.filename;
    const QString type = p.contentType.isEmpty() ? guessContentType(filename) : p.contentType;
    return shellQuote(p.name + QStringLiteral("=@")) + QStringLiteral("\"$%1\"").arg(var) +
           shellQuote(QStringLiteral(";type=") + type + QStringLiteral(";filename=") + curlQuoted(filename) + encoding);
}
} // namespace

QString UploadPlan::toCurl() const
{
    QStringList prelude; // commands that make the files of synthetic parts
    QStringList notes;   // shell comments above the command: what it cannot send as the plan says
    QStringList args{QStringLiteral("curl")};
    if (method != QLatin1String("POST")) // -F makes curl POST; -X names another method for the same body
        args << QStringLiteral("-X") << method;
    for (const auto& p : parts) {
        if (const QString note = curlNameNote(p.name); !note.isEmpty())
            notes << note;
        QString spec;
        // A part sent again as captured keeps its Content-Transfer-Encoding (a token: nothing -F would split on).
        const QString encoding =
            p.transferEncoding.isEmpty()
                ? QString()
                : QStringLiteral(";headers=\"Content-Transfer-Encoding: %1\"").arg(p.transferEncoding);
        if (p.kind == PlanPart::Kind::Field && p.contentType.isEmpty() && encoding.isEmpty()) {
            // --form-string takes the value literally: no @file or <file expansion, no ;type= parsing
            args << QStringLiteral("--form-string") << shellQuote(p.name + QLatin1Char('=') + p.value);
            continue;
        }
        if (p.kind == PlanPart::Kind::Field) { // a quoted value, so that ;type= and ;headers= can follow it
            const QString type = p.contentType.isEmpty() ? QString() : QStringLiteral(";type=") + p.contentType;
            args << QStringLiteral("-F")
                 << shellQuote(p.name + QLatin1Char('=') + curlQuoted(p.value) + type + encoding);
            continue;
        }
        if (p.kind == PlanPart::Kind::Synthetic) {
            args << QStringLiteral("-F") << syntheticPartForCurl(p, encoding, prelude);
            continue;
        }
        // Paths and file names are quoted: client file names may hold ';' or ',', which -F would split on. A type
        // is not: curl reads its parameters (text/plain; charset=utf-8) itself, and would keep the quotes.
        spec = p.name + (p.kind == PlanPart::Kind::FieldFile ? QStringLiteral("=<") : QStringLiteral("=@")) +
               curlQuoted(p.path);
        if (!p.contentType.isEmpty())
            spec += QStringLiteral(";type=") + p.contentType;
        if (!p.filename.isEmpty())
            spec += QStringLiteral(";filename=") + curlQuoted(p.filename);
        args << QStringLiteral("-F") << shellQuote(spec + encoding);
    }
    for (const auto& h : headers)
        if (h.enabled)
            args << QStringLiteral("-H") << shellQuote(h.name + QStringLiteral(": ") + h.value);
    if (http2) // curl over http would ask for an upgrade: prior knowledge is what send --http2 speaks there
        args << (!targets.isEmpty() && targets.first().scheme() == QLatin1String("https")
                     ? QStringLiteral("--http2")
                     : QStringLiteral("--http2-prior-knowledge"));
    if (chunked)
        args << QStringLiteral("-H") << shellQuote(QStringLiteral("Transfer-Encoding: chunked"));
    if (expectContinue)
        args << QStringLiteral("-H") << shellQuote(QStringLiteral("Expect: 100-continue"));
    else
        args << QStringLiteral("-H")
             << shellQuote(QStringLiteral("Expect:")); // curl adds it for large bodies otherwise
    if (!caCertificates.isEmpty())
        args << QStringLiteral("--cacert") << shellQuote(caCertificates);
    if (insecure)
        args << QStringLiteral("--insecure");
    if (!targets.isEmpty())
        args << shellQuote(targets.first().toString());
    notes << (prelude + args).join(QLatin1Char(' '));
    return notes.join(QLatin1Char('\n'));
}

QString guessContentType(const QString& fileName)
{
    const QMimeType type = QMimeDatabase().mimeTypeForFile(fileName, QMimeDatabase::MatchExtension);
    return type.isValid() && !type.isDefault() ? type.name() : QStringLiteral("application/octet-stream");
}

bool isHttpToken(const QString& text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) {
        return c.unicode() <= 127 && core::isTokenChar(char(c.unicode()));
    });
}

QString contentTypeProblem(const QString& type)
{
    if (type.contains(QLatin1Char('\r')) || type.contains(QLatin1Char('\n')) || type.contains(QChar(0)))
        return QStringLiteral("content type '%1' has a line break or NUL").arg(type.simplified());
    // Whatever quotes surround it: curl splits -F pieces at ';' without reading quotes.
    static const QRegularExpression curlOption(QStringLiteral(";\\s*(type|filename|headers|encoder)\\s*="),
                                               QRegularExpression::CaseInsensitiveOption);
    if (type.contains(curlOption))
        return QStringLiteral("content type '%1' holds a parameter curl's -F would take as its own option").arg(type);
    return {};
}

QString headerProblem(const QString& name, const QString& value)
{
    if (name.isEmpty())
        return QStringLiteral("a header needs a name");
    if (!isHttpToken(name))
        return QStringLiteral("header name '%1' has a character a header name cannot hold").arg(name);
    for (QChar c : value)
        if (c == QLatin1Char('\r') || c == QLatin1Char('\n') || c == QChar(0))
            return QStringLiteral("header %1's value has a line break or NUL, which would split the request").arg(name);
    // Framing and the connection are ours to set: a second Content-Length or Transfer-Encoding would make the
    // request ambiguous, a second Connection or hash name contradict the first.
    for (const char* ours : {"content-length", "transfer-encoding", "content-type", "host", "expect", "connection",
                             "keep-alive", "te", "trailer", "upgrade", "upload-inspector-hash"})
        if (name.compare(QLatin1String(ours), Qt::CaseInsensitive) == 0)
            return QStringLiteral("%1 is set by the sender itself (from the parts, the framing and the target)")
                .arg(name);
    return {};
}

std::optional<PlanHeader> parseHeaderSpec(const QString& spec, QString* error)
{
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    if (colon <= 0) {
        *error = QStringLiteral("-H '%1': expected 'Name: value'").arg(spec);
        return std::nullopt;
    }
    const PlanHeader parsed{spec.left(colon).trimmed(), spec.mid(colon + 1).trimmed()};
    if (const QString problem = headerProblem(parsed.name, parsed.value); !problem.isEmpty()) {
        *error = QStringLiteral("-H '%1': %2").arg(spec, problem);
        return std::nullopt;
    }
    return parsed;
}

bool isUploadMethod(const QString& method)
{
    return method == QLatin1String("POST") || method == QLatin1String("PUT") || method == QLatin1String("PATCH");
}

QString basicAuthorization(const QString& user, const QString& password)
{
    return QStringLiteral("Basic ") + QString::fromLatin1((user + QLatin1Char(':') + password).toUtf8().toBase64());
}

namespace {
// As curl reads a field: a "quoted" value (\" and \\ escaped) may hold ';'; ";type=" after the value names its
// content type ('name=value;type=application/json'). --form-string takes values literally.
void readFieldValue(const QString& rest, PlanPart& part)
{
    part.kind = PlanPart::Kind::Field;
    qsizetype valueEnd = rest.size();
    if (rest.startsWith(QLatin1Char('"'))) {
        QString value;
        qsizetype i = 1;
        for (; i < rest.size() && rest[i] != QLatin1Char('"'); ++i)
            value += rest[i] == QLatin1Char('\\') && i + 1 < rest.size() ? rest[++i] : rest[i];
        if (i < rest.size()) { // closed: what follows may be ;type=
            part.value = value;
            valueEnd = i + 1;
        }
    }
    const qsizetype type = rest.indexOf(QLatin1String(";type="), valueEnd == rest.size() ? 0 : valueEnd);
    if (valueEnd == rest.size())
        part.value = type >= 0 ? rest.left(type) : rest;
    if (type >= 0)
        part.contentType = rest.mid(type + 6);
}
} // namespace

std::optional<PlanPart> parseFormSpec(const QString& spec, QString* error)
{
    qsizetype eq = spec.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        if (error)
            *error = QStringLiteral("-F '%1': expected name=value, name=@path or name=<path").arg(spec);
        return std::nullopt;
    }
    PlanPart part;
    part.name = spec.left(eq);
    QString rest = spec.mid(eq + 1);
    if (!rest.startsWith(QLatin1Char('@')) && !rest.startsWith(QLatin1Char('<'))) {
        readFieldValue(rest, part);
        return part;
    }
    part.kind = rest.startsWith(QLatin1Char('<')) ? PlanPart::Kind::FieldFile : PlanPart::Kind::File;
    QStringList pieces = rest.mid(1).split(QLatin1Char(';'));
    part.path = pieces.takeFirst();
    for (const auto& piece : pieces) {
        if (piece.startsWith(QLatin1String("type=")))
            part.contentType = piece.mid(5);
        else if (piece.startsWith(QLatin1String("filename=")))
            part.filename = piece.mid(9);
        else if (const QString cte = transferEncodingIn(piece); !cte.isEmpty())
            part.transferEncoding = cte;
        else {
            if (error)
                *error = QStringLiteral("-F '%1': unknown option '%2' (type=, filename= or "
                                        "headers=\"Content-Transfer-Encoding: …\")")
                             .arg(spec, piece);
            return std::nullopt;
        }
    }
    if (const QFileInfo info(part.path); !info.isFile()) {
        // A device or a pipe has no size to put in Content-Length before it is read: only files are sent.
        if (error)
            *error = info.exists() ? QStringLiteral("-F '%1': not a regular file (a device, pipe or folder)").arg(spec)
                                   : QStringLiteral("-F '%1': no such file").arg(spec);
        return std::nullopt;
    }
    if (part.kind == PlanPart::Kind::File && part.contentType.isEmpty())
        part.contentType = guessContentType(part.filename.isEmpty() ? part.path : part.filename);
    return part;
}

std::optional<PlanPart> parseSyntheticSpec(const QString& spec, QString* error)
{
    qsizetype eq = spec.indexOf(QLatin1Char('='));
    QStringList sizeAndFill = spec.mid(eq + 1).split(QLatin1Char(':'));
    auto size = eq > 0 ? parseByteSize(sizeAndFill.first()) : std::nullopt;
    auto fill = fillFromName(sizeAndFill.value(1, QStringLiteral("random")));
    if (!size || !fill || sizeAndFill.size() > 2) {
        if (error)
            *error = QStringLiteral("--synthetic '%1': expected name=SIZE[:random|zero|pattern]").arg(spec);
        return std::nullopt;
    }
    PlanPart part;
    part.kind = PlanPart::Kind::Synthetic;
    part.name = spec.left(eq);
    part.size = *size;
    part.fill = *fill;
    return part;
}

} // namespace upin::app
