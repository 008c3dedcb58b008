#pragma once
// A form field's value as capture.json keeps it, both ways: "value" as text when the bytes decode cleanly in the
// part's charset (UTF-8 when none is named), otherwise base64, with "value_encoding" saying which; so no byte is
// lost either way, and the bytes can be had back exactly.

#include <QByteArray>
#include <QJsonObject>

#include <optional>
#include <string>

namespace upin::app {

void storeFieldValue(QJsonObject& part, const QByteArray& value, const std::optional<std::string>& contentType);
// The bytes of part["value"]; nullopt when the part has no value.
std::optional<QByteArray> fieldValueBytes(const QJsonObject& part);

} // namespace upin::app
