#include "capture/field_value.h"

#include "upin/core/header_params.h"

#include <QStringDecoder>
#include <QStringEncoder>

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

void storeFieldValue(QJsonObject& part, const QByteArray& value, const std::optional<std::string>& contentType)
{
    const QByteArray charset = charsetOf(contentType);
    QStringDecoder decoder(charset.constData(), kFlags);
    const QString text = decoder.decode(value);
    // Text only when it gives back exactly these bytes.
    if (!decoder.hasError() && encode(text, charset) == value) {
        part["value"] = text;
        part["value_encoding"] = QStringLiteral("text");
    } else {
        part["value"] = QString::fromLatin1(value.toBase64());
        part["value_encoding"] = QStringLiteral("base64");
    }
}

std::optional<QByteArray> fieldValueBytes(const QJsonObject& part)
{
    if (!part["value"].isString())
        return std::nullopt;
    const QString value = part["value"].toString();
    if (part["value_encoding"].toString() == QLatin1String("base64"))
        return QByteArray::fromBase64(value.toLatin1());
    std::optional<std::string> type;
    if (part["content_type"].isString())
        type = part["content_type"].toString().toStdString();
    return encode(value, charsetOf(type));
}

} // namespace upin::app
