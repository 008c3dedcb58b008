#pragma once
// JSON written as it is made, into one buffer or in pieces to a sink: the listener's answers and capture.json for
// bodies of any number of parts. A QJsonObject of 10,000 parts cost ~40x what the parts' parsing did (a QCborValue
// tree built, then walked again by QJsonDocument::toJson), so the records that grow with a body are written here.
//
// The caller says the structure (begin/end, key before each member's value); commas and indentation are the
// writer's. Text is written as valid UTF-8: bytes that are not are replaced by U+FFFD, as QString::fromUtf8 does,
// so a client's header bytes cannot make the document unreadable. Numbers that are not finite are written null.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <charconv>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace upin::app {

class JsonWriter {
public:
    // Indented: the first kIndentedLevels levels (the document's members, and the members and elements of the
    // containers they hold) on lines of their own, four spaces a level as QJsonDocument::Indented, and what is
    // deeper compact on its line (capture.json: a part a line, 40% smaller than indenting every level).
    enum class Style : uint8_t { Compact, Indented };
    static constexpr size_t kIndentedLevels = 2;

    explicit JsonWriter(Style style = Style::Compact) : m_style(style) {}
    // Given to sink in pieces of about kSinkPieceBytes as it is made, not in one buffer. A file written from one
    // buffer of megabytes took ten times as long as in pieces that stay in the cache (5 MB of capture.json: 10 ms
    // against 1 ms here). The first piece the sink refuses (returns false) is the last it is given.
    using Sink = std::function<bool(const char* data, size_t size)>;
    static constexpr size_t kSinkPieceBytes = size_t(256) << 10;
    JsonWriter(Style style, Sink sink);
    // With a sink: gives it what is left; false when it refused a piece.
    bool finish();

    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    JsonWriter& key(std::string_view name); // a member's name (ours: plain ASCII, written as is); its value next

    JsonWriter& string(std::string_view utf8);
    JsonWriter& string(const QString& text);
    JsonWriter& string(const std::optional<std::string>& text); // null when absent
    template <std::integral T>
    requires(!std::same_as<T, bool>) JsonWriter& number(T n)
    {
        beforeValue();
        char digits[24]; // the longest 64-bit integer has 20 digits and a sign
        const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
        put(digits, size_t(end - digits));
        return *this;
    }
    JsonWriter& number(double n);
    JsonWriter& boolean(bool b);
    JsonWriter& null();
    // A value made by QJson (a small object such as a request's head): written compact, in place.
    JsonWriter& json(const QJsonValue& value);

    // The document so far; the writer is empty after.
    QByteArray take();

private:
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    void beforeValue();
    bool indents() const; // the level being written breaks into lines
    void newline();
    void escaped(std::string_view utf8);
    void escapedValid(std::string_view utf8);

    void put(const char* bytes, size_t n)
    {
        if (n == 0)
            return; // an empty view's data may be null, which memcpy must not be given
        if (m_size + n > size_t(m_out.size()))
            grow(n);
        std::memcpy(m_out.data() + m_size, bytes, n);
        m_size += n;
    }
    void put(std::string_view text) { put(text.data(), text.size()); }
    void put(char c) { put(&c, 1); }
    void grow(size_t needed);
    void giveToSink();

    Style m_style;
    Sink m_sink;
    bool m_sinkRefused = false;
    QByteArray m_out; // m_size bytes written; beyond them, room
    size_t m_size = 0;
    bool m_empty = true;                // nothing written yet in the level open now
    std::vector<char> m_enclosingEmpty; // the same for each level enclosing it; its size is the depth
    bool m_afterKey = false;
};

} // namespace upin::app
