#include "upin/core/header_params.h"

#include <algorithm>

namespace upin::core {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

// Spaces and TABs only. Not http_detail::trimSpaces, which also drops a trailing CR (a head line's): here a CR is
// a byte of the value, and parseHeaderValue must read a value the same wherever it came from.
std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// A backslash at i that escapes the next byte of a quoted string: only '"' and '\\' are escaped.
bool isEscape(std::string_view text, size_t i)
{
    return text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\');
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

} // namespace

std::string toLower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), lower);
    return out;
}

const std::string* HeaderValue::param(std::string_view lowerName) const
{
    for (const auto& p : params)
        if (p.name == lowerName)
            return &p.value;
    return nullptr;
}

namespace {

// A parameter as it stands in the header's text: its name trimmed, and its value (inside the quotes when quoted,
// with the escapes still in it).
struct RawParam {
    std::string_view name;
    std::string_view value;
    bool quoted = false;
};

// Calls visit(RawParam) for each parameter after the first ';' that has a name, and returns the trimmed token before
// it. Views into the text, nothing copied: a form's every part has its Content-Disposition read by the parser and by
// the recorder, and copying each parameter into a vector of strings was a seventh of a many-fields upload's time.
template <typename Visit>
std::string_view forEachParam(std::string_view value, Visit&& visit)
{
    size_t i = value.find(';');
    const std::string_view token = trim(value.substr(0, i));
    while (i < value.size()) {
        ++i; // past ';'
        size_t nameEnd = i;
        while (nameEnd < value.size() && value[nameEnd] != '=' && value[nameEnd] != ';')
            ++nameEnd;
        RawParam param{trim(value.substr(i, nameEnd - i)), {}, false};
        i = nameEnd;
        if (i < value.size() && value[i] == '=') {
            ++i;
            while (i < value.size() && isSpace(value[i]))
                ++i;
            if (i < value.size() && value[i] == '"') {
                // quoted-string: runs to the next unescaped quote, or to the end if unterminated
                const size_t start = ++i;
                while (i < value.size() && value[i] != '"')
                    i += isEscape(value, i) ? 2 : 1;
                param.value = value.substr(start, i - start);
                param.quoted = true;
                while (i < value.size() && value[i] != ';')
                    ++i; // the closing quote, and junk after it
            } else {
                const size_t end = std::min(value.find(';', i), value.size());
                param.value = trim(value.substr(i, end - i));
                i = end;
            }
        }
        if (!param.name.empty())
            visit(param);
    }
    return token;
}

// The parameter's value with a quoted string's escapes undone. A backslash escapes only '"' and '\\' (as Go's mime
// package does): browsers send Windows paths such as C:\files\a.txt unescaped, and those backslashes must survive.
std::string unquoted(const RawParam& param)
{
    if (!param.quoted || param.value.find('\\') == std::string_view::npos)
        return std::string(param.value);
    std::string out;
    out.reserve(param.value.size());
    for (size_t i = 0; i < param.value.size(); ++i) {
        if (isEscape(param.value, i))
            ++i;
        out += param.value[i];
    }
    return out;
}

} // namespace

HeaderValue parseHeaderValue(std::string_view value)
{
    HeaderValue out;
    const std::string_view token = forEachParam(value, [&](const RawParam& param) {
        out.params.push_back({toLower(param.name), unquoted(param)});
    });
    out.token = toLower(token);
    return out;
}

std::optional<std::string> decodeExtValue(std::string_view ext)
{
    size_t q1 = ext.find('\'');
    size_t q2 = q1 == std::string_view::npos ? q1 : ext.find('\'', q1 + 1);
    if (q2 == std::string_view::npos)
        return std::nullopt;
    std::string charset = toLower(ext.substr(0, q1));
    bool latin1 = charset == "iso-8859-1";
    bool ascii = charset == "us-ascii"; // which Go's mime package decodes, and werkzeug (Python's codecs)
    if (charset != "utf-8" && !latin1 && !ascii)
        return std::nullopt;
    std::string out;
    for (size_t i = q2 + 1; i < ext.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(ext[i]);
        if (c == '%') {
            if (i + 2 >= ext.size())
                return std::nullopt;
            int hi = hexValue(ext[i + 1]);
            int lo = hexValue(ext[i + 2]);
            if (hi < 0 || lo < 0)
                return std::nullopt;
            c = static_cast<unsigned char>(hi * 16 + lo);
            i += 2;
        }
        if (ascii && c >= 0x80)
            return std::nullopt;
        if (latin1 && c >= 0x80) {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        } else {
            out += char(c);
        }
    }
    return out;
}

ContentDisposition parseContentDisposition(std::string_view value)
{
    ContentDisposition cd;
    std::optional<RawParam> nameExt, ext, plain; // the first of each, as HeaderValue::param() finds them
    const std::string_view token = forEachParam(value, [&](const RawParam& param) {
        if (!cd.name && equalsIgnoreCase(param.name, "name"))
            cd.name = unquoted(param);
        else if (!nameExt && equalsIgnoreCase(param.name, "name*"))
            nameExt = param;
        else if (!ext && equalsIgnoreCase(param.name, "filename*"))
            ext = param;
        else if (!plain && equalsIgnoreCase(param.name, "filename"))
            plain = param;
    });
    cd.type = toLower(token);
    // RFC 7578 has no name*, but Go's mime/multipart takes one as the name, first of each and name* winning, as
    // here (werkzeug takes one too, the last of each winning; busboy 1.6 leaves such a field unnamed).
    if (nameExt)
        if (auto decoded = decodeExtValue(unquoted(*nameExt)))
            cd.name = std::move(decoded);
    if (ext)
        cd.filename = decodeExtValue(unquoted(*ext));
    if (!cd.filename && plain)
        cd.filename = unquoted(*plain);
    return cd;
}

namespace {

// The quoted value at the start of text up to its closing quote, if it holds no escape; text is left after the quote.
std::optional<std::string_view> plainQuoted(std::string_view& text)
{
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\')
            return std::nullopt;
        if (text[i] == '"') {
            const std::string_view quoted = text.substr(0, i);
            text.remove_prefix(i + 1);
            return quoted;
        }
    }
    return std::nullopt;
}

// What browsers and HTTP libraries send, `form-data; name="N"` with perhaps `; filename="F"` and nothing more, read
// without the general walk: that walk was a seventh of `bench --input manyparts`. Answers whether value has that
// shape, and if so its facts.
std::optional<DispositionFacts> readCommonDisposition(std::string_view value)
{
    constexpr std::string_view kName = "form-data; name=\"";
    constexpr std::string_view kFilename = "; filename=\"";
    if (value.substr(0, kName.size()) != kName)
        return std::nullopt;
    value.remove_prefix(kName.size());
    const auto name = plainQuoted(value);
    if (!name)
        return std::nullopt;
    DispositionFacts facts;
    facts.named = !name->empty();
    if (value.empty())
        return facts;
    if (value.substr(0, kFilename.size()) != kFilename)
        return std::nullopt;
    value.remove_prefix(kFilename.size());
    facts.hasFilename = true;
    if (!plainQuoted(value) || !value.empty())
        return std::nullopt;
    return facts;
}

} // namespace

// The same first-of-each choice as parseContentDisposition, written again on purpose: one finder of the three
// parameters for both (optional views handed back) cost `bench --input manyparts` a fifth of its speed. A test
// holds the two to the same answers.
DispositionFacts dispositionFacts(std::string_view value)
{
    if (const auto common = readCommonDisposition(value))
        return *common;
    bool named = false, hasFilename = false, nameSeen = false;
    std::optional<RawParam> nameExt, ext;
    forEachParam(value, [&](const RawParam& param) {
        if (!nameSeen && equalsIgnoreCase(param.name, "name")) {
            nameSeen = true;
            named = !param.value.empty(); // unquoting leaves a byte of each escape: empty only if empty
        } else if (!nameExt && equalsIgnoreCase(param.name, "name*")) {
            nameExt = param;
        } else if (!ext && equalsIgnoreCase(param.name, "filename*")) {
            ext = param;
        } else if (equalsIgnoreCase(param.name, "filename")) {
            hasFilename = true;
        }
    });
    const auto decodedName = nameExt ? decodeExtValue(unquoted(*nameExt)) : std::nullopt;
    if (decodedName)
        named = !decodedName->empty();
    if (!hasFilename && ext)
        hasFilename = decodeExtValue(unquoted(*ext)).has_value();
    return {named, decodedName.has_value(), hasFilename};
}

bool isValidBoundary(std::string_view b)
{
    static constexpr std::string_view kOther = "'()+_,-./:=? ";
    if (b.empty() || b.back() == ' ')
        return false;
    return std::all_of(b.begin(), b.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               kOther.find(c) != std::string_view::npos;
    });
}

} // namespace upin::core
