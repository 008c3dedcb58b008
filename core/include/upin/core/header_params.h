#pragma once
// Header values of the form `token; name=value; name="quoted \" value"` (Content-Type, Content-Disposition).
// A single forward pass with no regular expressions and no backtracking, so hostile values (an unterminated quote
// followed by thousands of backslashes) cost linear time.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace upin::core {

struct HeaderParam {
    std::string name;  // lower-cased
    std::string value; // quotes removed, quoted-pair escapes resolved
};

struct HeaderValue {
    std::string token; // the part before the first ';', trimmed and lower-cased ("multipart/form-data")
    std::vector<HeaderParam> params;
    // First parameter with this (lower-case) name, or nullptr.
    const std::string* param(std::string_view lowerName) const;
};

HeaderValue parseHeaderValue(std::string_view value);

// RFC 8187 (was 5987) ext-value: charset'language'percent-encoded. UTF-8, ISO-8859-1 (converted to UTF-8) and
// US-ASCII are decoded; nullopt for other charsets, bad escapes, or a byte over 0x7f in US-ASCII.
std::optional<std::string> decodeExtValue(std::string_view extValue);

// name* and filename* (RFC 8187), and RFC 2231's pieces (name*0, name*1*, ...), are read as Go's mime package reads
// them: a key* that decodes wins, else the pieces joined, else the plain key.
struct ContentDisposition {
    std::string type; // "form-data", "attachment", ...
    std::optional<std::string> name;
    std::optional<std::string> filename;
    bool nameFromExtValue = false;  // the name came from name* or from pieces, which busboy does not read
    bool repeatedParameter = false; // name, filename, name* or filename* given twice; the first of each counts
};

ContentDisposition parseContentDisposition(std::string_view value);

// What the parser needs of every part's Content-Disposition, as parseContentDisposition would find it, without
// making its strings: on a form of many small fields the strings were a fifth of the parser's time.
// Bits of one byte, not three bools: GCC builds a returned struct of bools a byte at a time on the stack and loads it
// whole, a store-forwarding stall that perf put at most of dispositionFacts' time in `bench --input manyparts`.
struct DispositionFacts {
    bool named : 1 = false;             // a name (or a name* that decodes, which wins), not empty
    bool namedByExtValue : 1 = false;   // that name came from name* or from pieces (ContentDisposition's)
    bool hasFilename : 1 = false;       // a filename, or a filename* that decodes
    bool repeatedParameter : 1 = false; // ContentDisposition's
};

DispositionFacts dispositionFacts(std::string_view value);

// RFC 2046 bchars: DIGIT / ALPHA / ' ( ) + _ , - . / : = ? and space (not last).
bool isValidBoundary(std::string_view boundary);

namespace detail {
inline constexpr auto kTokenChars = [] {
    std::array<bool, 256> table{};
    for (unsigned char c = 0; c < 128; ++c)
        table[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    for (char c : std::string_view("!#$%&'*+-.^_`|~"))
        table[static_cast<unsigned char>(c)] = true;
    return table;
}();
} // namespace detail

// RFC 9110 tchar: the characters allowed in header names and tokens. A table, inline: every byte of every header
// name of every part is checked.
inline bool isTokenChar(char c)
{
    return detail::kTokenChars[static_cast<unsigned char>(c)];
}

// Inline: every header name of every part is compared with it.
inline bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; };
    for (size_t i = 0; i < a.size(); ++i) // equal bytes, the common case, take one compare each
        if (a[i] != b[i] && lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

std::string toLower(std::string_view s);

} // namespace upin::core
