#include "common/json_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace upin::app {

JsonWriter& JsonWriter::open(char bracket)
{
    beforeValue();
    m_out.append(bracket);
    m_empty.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::close(char bracket)
{
    const bool empty = m_empty.back();
    m_empty.pop_back();
    if (!empty)
        newline();
    m_out.append(bracket);
    return *this;
}

void JsonWriter::newline()
{
    if (m_style == Style::Compact)
        return;
    m_out.append('\n');
    m_out.append(qsizetype(4 * m_empty.size()), ' ');
}

// A value, or a key: a comma after the level's previous one, and the line it starts in the indented style.
void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_empty.empty())
        return; // the document's value
    if (!m_empty.back())
        m_out.append(',');
    m_empty.back() = false;
    newline();
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    beforeValue();
    escaped(name);
    m_out.append(m_style == Style::Compact ? ":" : ": ");
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view utf8)
{
    beforeValue();
    escaped(utf8);
    return *this;
}

JsonWriter& JsonWriter::string(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    return string(std::string_view(utf8.constData(), size_t(utf8.size())));
}

JsonWriter& JsonWriter::string(const std::optional<std::string>& text)
{
    return text ? string(std::string_view(*text)) : null();
}

JsonWriter& JsonWriter::integer(int64_t n)
{
    beforeValue();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    m_out.append(digits, end - digits);
    return *this;
}

JsonWriter& JsonWriter::integer(uint64_t n)
{
    beforeValue();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    m_out.append(digits, end - digits);
    return *this;
}

JsonWriter& JsonWriter::number(double n)
{
    if (!std::isfinite(n))
        return null();
    beforeValue();
    char digits[32];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr; // shortest that reads back the same
    m_out.append(digits, end - digits);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool b)
{
    beforeValue();
    m_out.append(b ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    m_out.append("null");
    return *this;
}

JsonWriter& JsonWriter::json(const QJsonValue& value)
{
    if (value.isObject() || value.isArray()) {
        beforeValue();
        const QJsonDocument doc = value.isObject() ? QJsonDocument(value.toObject()) : QJsonDocument(value.toArray());
        m_out.append(doc.toJson(QJsonDocument::Compact));
        return *this;
    }
    if (value.isString())
        return string(value.toString());
    if (value.isBool())
        return boolean(value.toBool());
    if (value.isDouble()) // QJson keeps whole numbers exactly up to 2^53 as doubles; written without a fraction
        return value.toDouble() == double(value.toInteger()) ? number(int64_t(value.toInteger()))
                                                             : number(value.toDouble());
    return null();
}

// Text with bytes over 0x7F goes through Qt's UTF-8 decoder first, which replaces what is not UTF-8 (rare in field
// names and headers; done by hand it would be a second UTF-8 validator to keep).
void JsonWriter::escaped(std::string_view utf8)
{
    const bool ascii =
        std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (!ascii) {
        const QByteArray valid = QString::fromUtf8(utf8.data(), qsizetype(utf8.size())).toUtf8();
        if (valid != QByteArrayView(utf8.data(), qsizetype(utf8.size()))) {
            escapedValid(std::string_view(valid.constData(), size_t(valid.size())));
            return;
        }
    }
    escapedValid(utf8);
}

// Plain bytes are copied in runs; a quote, a backslash or a control byte is escaped.
void JsonWriter::escapedValid(std::string_view utf8)
{
    m_out.append('"');
    const char* run = utf8.data();
    const char* const end = utf8.data() + utf8.size();
    for (const char* p = run; p != end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        m_out.append(run, p - run);
        run = p + 1;
        switch (c) {
        case '"': m_out.append("\\\""); break;
        case '\\': m_out.append("\\\\"); break;
        case '\n': m_out.append("\\n"); break;
        case '\r': m_out.append("\\r"); break;
        case '\t': m_out.append("\\t"); break;
        case '\b': m_out.append("\\b"); break;
        case '\f': m_out.append("\\f"); break;
        default: {
            static constexpr char kHex[] = "0123456789abcdef";
            const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
            m_out.append(escape, sizeof escape);
        }
        }
    }
    m_out.append(run, end - run);
    m_out.append('"');
}

QByteArray JsonWriter::take()
{
    m_empty.clear();
    m_afterKey = false;
    return std::exchange(m_out, {});
}

} // namespace upin::app
