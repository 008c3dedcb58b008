#include "upin/core/part_decoding.h"

#include <array>

namespace upin::core {
namespace {

constexpr size_t kMaxHeldSpaces = 1024;

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20))
            return false;
    return true;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// 0-63 for the alphabet, 64 for '=', 65 for white space that base64 text may be broken with, 66 for the rest.
constexpr std::array<uint8_t, 256> kBase64 = [] {
    std::array<uint8_t, 256> t{};
    t.fill(66);
    const std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < alphabet.size(); ++i)
        t[static_cast<uint8_t>(alphabet[i])] = uint8_t(i);
    t['='] = 64;
    for (char c : {'\r', '\n', ' ', '\t'})
        t[static_cast<uint8_t>(c)] = 65;
    return t;
}();

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = char(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

} // namespace

std::optional<PartEncoding> partEncodingFromName(std::string_view value)
{
    value = trimmed(value);
    if (value.empty() || equalsIgnoreCase(value, "7bit") || equalsIgnoreCase(value, "8bit") ||
        equalsIgnoreCase(value, "binary"))
        return PartEncoding::Identity;
    if (equalsIgnoreCase(value, "base64"))
        return PartEncoding::Base64;
    if (equalsIgnoreCase(value, "quoted-printable"))
        return PartEncoding::QuotedPrintable;
    return std::nullopt;
}

std::string_view partEncodingName(PartEncoding encoding)
{
    switch (encoding) {
    case PartEncoding::Base64: return "base64";
    case PartEncoding::QuotedPrintable: return "quoted-printable";
    default: return "identity";
    }
}

Result<void> PartDecoder::fail(Errc code, uint64_t offset)
{
    m_error = Error{code, offset};
    return *m_error;
}

Result<void> PartDecoder::feed(ByteView input, std::string& out)
{
    if (m_error)
        return *m_error;
    Result<void> result;
    switch (m_encoding) {
    case PartEncoding::Base64: result = feedBase64(input, out); break;
    case PartEncoding::QuotedPrintable: result = feedQuotedPrintable(input, out); break;
    default: out.append(input); break;
    }
    m_consumed += input.size();
    return result;
}

Result<void> PartDecoder::feedBase64(ByteView input, std::string& out)
{
    for (size_t i = 0; i < input.size(); ++i) {
        const uint8_t v = kBase64[static_cast<uint8_t>(input[i])];
        if (v == 65)
            continue;
        if (v == 66 || (v < 64 && m_padding > 0))
            return fail(Errc::InvalidBase64, m_consumed + i);
        if (v == 64) { // '=' only where a group of two or three characters ends
            if (m_groupSize < 2 && m_padding == 0)
                return fail(Errc::InvalidBase64, m_consumed + i);
            if (m_groupSize + m_padding >= 4)
                return fail(Errc::InvalidBase64, m_consumed + i);
            ++m_padding;
            continue;
        }
        m_group = (m_group << 6) | v;
        if (++m_groupSize == 4) {
            out.push_back(char(m_group >> 16));
            out.push_back(char(m_group >> 8));
            out.push_back(char(m_group));
            m_group = 0;
            m_groupSize = 0;
        }
    }
    return {};
}

void PartDecoder::flushSpaces(std::string& out)
{
    out += m_spaces;
    m_spaces.clear();
}

Result<void> PartDecoder::feedQuotedPrintable(ByteView input, std::string& out)
{
    for (size_t i = 0; i < input.size(); ++i) {
        const char c = input[i];
        switch (m_escape) {
        case 1: // after '='
            if (hexValue(c) >= 0) {
                m_escapeHex = c;
                m_escape = 2;
            } else if (isSpace(c)) {
                m_escape = 3;
            } else if (c == '\r') {
                m_escape = 4;
            } else if (c == '\n') { // a soft break ended by LF alone, as a file with Unix line ends has it
                m_escape = 0;
            } else {
                return fail(Errc::InvalidQuotedPrintable, m_escapeAt);
            }
            continue;
        case 2:
            if (hexValue(c) < 0)
                return fail(Errc::InvalidQuotedPrintable, m_escapeAt);
            out.push_back(char(hexValue(m_escapeHex) * 16 + hexValue(c)));
            m_escape = 0;
            continue;
        case 3: // '=' then transport padding, before the soft break
            if (isSpace(c))
                continue;
            if (c == '\r')
                m_escape = 4;
            else if (c == '\n')
                m_escape = 0;
            else
                return fail(Errc::InvalidQuotedPrintable, m_escapeAt);
            continue;
        case 4:
            if (c != '\n')
                return fail(Errc::InvalidQuotedPrintable, m_escapeAt);
            m_escape = 0;
            continue;
        default: break;
        }
        if (isSpace(c)) {
            if (m_spaces.size() == kMaxHeldSpaces)
                flushSpaces(out);
            m_spaces.push_back(c);
        } else if (c == '\r' || c == '\n') {
            m_spaces.clear(); // rule 3: white space at the end of a line was added in transport
            out.push_back(c);
        } else if (c == '=') {
            flushSpaces(out);
            m_escape = 1;
            m_escapeAt = m_consumed + i;
        } else {
            flushSpaces(out);
            out.push_back(c);
        }
    }
    return {};
}

Result<void> PartDecoder::finish(std::string& out)
{
    if (m_error)
        return *m_error;
    if (m_encoding == PartEncoding::Base64) {
        // Padding may be missing (many encoders leave it out); one character alone cannot be a byte.
        if (m_groupSize == 1)
            return fail(Errc::InvalidBase64, m_consumed);
        if (m_groupSize == 2)
            out.push_back(char(m_group >> 4));
        if (m_groupSize == 3) {
            out.push_back(char(m_group >> 10));
            out.push_back(char(m_group >> 2));
        }
        m_groupSize = 0;
    } else if (m_encoding == PartEncoding::QuotedPrintable) {
        m_spaces.clear(); // the last line's trailing white space
        if (m_escape == 2)
            return fail(Errc::InvalidQuotedPrintable, m_escapeAt);
        m_escape = 0; // '=' at the very end: a soft break with no line after it
    }
    return {};
}

} // namespace upin::core
