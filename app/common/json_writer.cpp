#include "common/json_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace upin::app {

namespace {

// Bytes a JSON string holds as they are: printable ASCII but the quote and the backslash.
constexpr auto kPlain = [] {
    std::array<bool, 256> plain{};
    for (int c = 0x20; c < 0x80; ++c)
        plain[size_t(c)] = c != '"' && c != '\\';
    return plain;
}();

} // namespace

JsonWriter::JsonWriter(Style style, Sink sink) : m_style(style), m_sink(std::move(sink))
{
    m_out.resize(qsizetype(kSinkPieceBytes));
}

bool JsonWriter::finish()
{
    giveToSink();
    return !m_sinkRefused;
}

void JsonWriter::giveToSink()
{
    if (m_sink && m_size > 0 && !m_sinkRefused)
        m_sinkRefused = !m_sink(m_out.constData(), m_size);
    m_size = 0;
}

JsonWriter& JsonWriter::open(char bracket)
{
    beforeValue();
    put(bracket);
    m_enclosingEmpty.push_back(m_empty);
    m_empty = true;
    return *this;
}

JsonWriter& JsonWriter::close(char bracket)
{
    Q_ASSERT(!m_enclosingEmpty.empty()); // a close without its open
    const bool brokenIntoLines = indents();
    const bool empty = m_empty;
    m_empty = m_enclosingEmpty.back();
    m_enclosingEmpty.pop_back();
    if (!empty && brokenIntoLines)
        newline();
    put(bracket);
    return *this;
}

bool JsonWriter::indents() const
{
    return m_style == Style::Indented && m_enclosingEmpty.size() <= kIndentedLevels;
}

void JsonWriter::newline()
{
    put('\n');
    for (size_t level = 0; level < m_enclosingEmpty.size(); ++level)
        put("    ");
}

// A value, or a key: a comma after the level's previous one, and the line it starts in the indented style.
void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_enclosingEmpty.empty())
        return; // the document's value
    if (!m_empty)
        put(',');
    m_empty = false;
    if (indents())
        newline();
}

// In one copy: a part has a dozen members, and a capacity check per piece was a sixth of a big answer's time.
JsonWriter& JsonWriter::key(std::string_view name)
{
    beforeValue();
    const bool spaced = indents();
    if (m_size + name.size() + 4 > size_t(m_out.size()))
        grow(name.size() + 4);
    char* out = m_out.data() + m_size;
    *out++ = '"';
    std::memcpy(out, name.data(), name.size()); // our own names: nothing in them to escape
    out += name.size();
    *out++ = '"';
    *out++ = ':';
    if (spaced)
        *out++ = ' ';
    m_size = size_t(out - m_out.data());
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

JsonWriter& JsonWriter::number(double n)
{
    if (!std::isfinite(n))
        return null();
    beforeValue();
    char digits[32];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr; // shortest that reads back the same
    put(digits, size_t(end - digits));
    return *this;
}

JsonWriter& JsonWriter::boolean(bool b)
{
    beforeValue();
    put(b ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    put("null");
    return *this;
}

JsonWriter& JsonWriter::json(const QJsonValue& value)
{
    if (value.isObject() || value.isArray()) {
        beforeValue();
        const QJsonDocument doc = value.isObject() ? QJsonDocument(value.toObject()) : QJsonDocument(value.toArray());
        const QByteArray text = doc.toJson(QJsonDocument::Compact);
        put(text.constData(), size_t(text.size()));
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
    const auto plainEnd =
        std::find_if_not(utf8.begin(), utf8.end(), [](char c) { return kPlain[static_cast<unsigned char>(c)]; });
    if (plainEnd == utf8.end()) { // the common case: copied whole
        put('"');
        put(utf8);
        put('"');
        return;
    }
    const bool ascii = std::all_of(plainEnd, utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
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
    put('"');
    const char* run = utf8.data();
    const char* const end = utf8.data() + utf8.size();
    for (const char* p = run; p != end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (kPlain[c] || c >= 0x80)
            continue;
        put(run, size_t(p - run));
        run = p + 1;
        switch (c) {
        case '"': put("\\\""); break;
        case '\\': put("\\\\"); break;
        case '\n': put("\\n"); break;
        case '\r': put("\\r"); break;
        case '\t': put("\\t"); break;
        case '\b': put("\\b"); break;
        case '\f': put("\\f"); break;
        default: {
            static constexpr char kHex[] = "0123456789abcdef";
            const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
            put(escape, sizeof escape);
        }
        }
    }
    put(run, size_t(end - run));
    put('"');
}

// Grows the buffer geometrically; its bytes past m_size are not yet written (QByteArray::append checks and
// detaches per call, which cost more than the JSON's own work).
void JsonWriter::grow(size_t needed)
{
    if (m_sink) { // the piece so far goes; the buffer grows only for a single string longer than it
        giveToSink();
        if (needed <= size_t(m_out.size()))
            return;
    }
    m_out.resize(qsizetype(std::max({m_size + needed, size_t(m_out.size()) * 2, size_t(4096)})));
}

QByteArray JsonWriter::take()
{
    m_enclosingEmpty.clear();
    m_empty = true;
    m_afterKey = false;
    m_out.resize(qsizetype(m_size));
    m_size = 0;
    return std::exchange(m_out, {});
}

} // namespace upin::app
