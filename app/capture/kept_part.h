#pragma once
// What a capture kept of one top-level part, beside the part's summary: the file it went to, and for a form field
// its first bytes inline. A value is kept as text when its bytes decode cleanly in the part's charset (UTF-8 when
// none is named) and encode back to exactly them, otherwise as base64: no byte is lost either way, and the bytes
// can be had back exactly (valueBytes()). writeTo/fromJson are capture.json's keys for it, in one place.

#include "common/json_writer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>

namespace upin::app {

struct KeptPart {
    QString savedAs;              // a file in the capture folder; empty: none
    std::optional<QString> value; // a field's first bytes, as text or base64
    bool valueBase64 = false;
    bool valueTruncated = false; // the value is the field's first bytes only (all of them in savedAs)

    void setValue(const QByteArray& bytes, const std::optional<std::string>& contentType);
    // The value's bytes; contentType: the part's, whose charset the text is in. nullopt when no value was kept.
    std::optional<QByteArray> valueBytes(const std::optional<std::string>& contentType) const;
    // Written into the part's entry in capture.json's "parts" and the answer's.
    void writeTo(JsonWriter& part) const;
    static KeptPart fromJson(const QJsonObject& part);
};

} // namespace upin::app
