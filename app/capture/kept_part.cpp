#include "capture/kept_part.h"

#include "upin/core/header_params.h"

#include <QStringDecoder>
#include <QStringEncoder>

#include <algorithm>

namespace upin::app {

namespace {
// The charset parameter of a part's Content-Type, or UTF-8.
QByteArray charsetOf(const std::optional<std::string>& contentType)
{
    if (!contentType)
        return QByteArrayLiteral("UTF-8");
    const core::HeaderValue type = core::parseHeaderValue(*contentType); // outlives the pointer into it below
    const std::string* charset = type.param("charset");
    if (charset && QStringDecoder(charset->c_str()).isValid())
        return QByteArray::fromStdString(*charset);
    return QByteArrayLiteral("UTF-8");
}

// Stateless: an incomplete sequence at the end is an error, not state kept for more input. A byte order mark is
// consumed by the decoder (it chooses UTF-16's byte order) and not written back by the encoder, so a value that
// starts with one fails the round trip below and is kept as base64: exact, and never a string that starts with
// U+FEFF, which Qt's JSON reader would drop.
constexpr auto kFlags = QStringConverter::Flag::Stateless;

QByteArray encode(const QString& text, const QByteArray& charset)
{
    QStringEncoder encoder(charset.constData(), kFlags);
    return encoder.encode(text);
}
} // namespace

void KeptPart::setValue(const QByteArray& bytes, const std::optional<std::string>& contentType)
{
    // Most fields: no type (so UTF-8) and ASCII, which is text as it is. Converters made and a round trip per
    // field were most of a form's storing time (10,000 fields).
    const bool ascii = std::all_of(bytes.begin(), bytes.end(), [](char c) { return uchar(c) < 0x80; });
    if (!contentType && ascii) {
        valueBase64 = false;
        value = QString::fromLatin1(bytes);
        return;
    }
    const QByteArray charset = charsetOf(contentType);
    QStringDecoder decoder(charset.constData(), kFlags);
    const QString text = decoder.decode(bytes);
    valueBase64 = decoder.hasError() || encode(text, charset) != bytes; // text only when it gives back these bytes
    value = valueBase64 ? QString::fromLatin1(bytes.toBase64()) : text;
}

std::optional<QByteArray> KeptPart::valueBytes(const std::optional<std::string>& contentType) const
{
    if (!value)
        return std::nullopt;
    if (valueBase64)
        return QByteArray::fromBase64(value->toLatin1());
    return encode(*value, charsetOf(contentType));
}

void KeptPart::writeTo(JsonWriter& part) const
{
    if (!savedAs.isEmpty())
        part.key("saved_as").string(savedAs);
    if (value) {
        part.key("value").string(*value);
        part.key("value_encoding").string(std::string_view(valueBase64 ? "base64" : "text"));
        part.key("value_truncated").boolean(valueTruncated);
    }
}

KeptPart KeptPart::fromJson(const QJsonObject& part)
{
    KeptPart kept;
    kept.savedAs = part["saved_as"].toString();
    if (part["value"].isString()) {
        kept.value = part["value"].toString();
        kept.valueBase64 = part["value_encoding"].toString() == QLatin1String("base64");
        kept.valueTruncated = part["value_truncated"].toBool();
    }
    return kept;
}

} // namespace upin::app
