#include "upin/core/header_params.h"

#include "http_lines.h" // trimSpaces

#include <algorithm>
#include <cstdint>

namespace upin::core {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
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
    const std::string_view token = http_detail::trimSpaces(value.substr(0, i));
    while (i < value.size()) {
        ++i; // past ';'
        size_t nameEnd = i;
        while (nameEnd < value.size() && value[nameEnd] != '=' && value[nameEnd] != ';')
            ++nameEnd;
        RawParam param{http_detail::trimSpaces(value.substr(i, nameEnd - i)), {}, false};
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
                param.value = http_detail::trimSpaces(value.substr(i, end - i));
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

namespace {

// RFC 2231's pieces of one parameter: key*0, key*1, ... (percent-encoded when the name ends in '*', the first then
// with charset'language'), joined as Go's mime package joins them: from *0 up to the first missing index, a plain
// piece before an encoded one of the same index, the later encoded pieces percent-decoded with no charset, and an
// encoded piece that does not decode adding nothing. werkzeug 2.2 appends any piece to what came before, whatever
// its index; busboy 1.6 reads none of them.
class Pieces {
public:
    explicit Pieces(std::string_view key) : m_key(key) {}

    // Keeps param if it is one of key's pieces (the first of each index), and says whether it was.
    bool take(const RawParam& param)
    {
        std::string_view name = param.name;
        if (name.size() <= m_key.size() + 1 || !equalsIgnoreCase(name.substr(0, m_key.size()), m_key) ||
            name[m_key.size()] != '*')
            return false;
        name.remove_prefix(m_key.size() + 1);
        const bool encoded = name.back() == '*';
        if (encoded)
            name.remove_suffix(1);
        // An index as Go writes one: decimal digits, no leading zero; nine at most, so it cannot overflow.
        if (name.empty() || name.size() > 9 || (name[0] == '0' && name.size() > 1) ||
            !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        uint32_t index = 0;
        for (char digit : name)
            index = index * 10 + uint32_t(digit - '0');
        m_pieces.push_back({index, encoded, param});
        return true;
    }

    // The joined value, or nullopt without a piece 0.
    std::optional<std::string> joined()
    {
        std::stable_sort(m_pieces.begin(), m_pieces.end(), [](const Piece& a, const Piece& b) {
            return a.index != b.index ? a.index < b.index : !a.encoded && b.encoded;
        });
        std::string out;
        uint32_t next = 0;
        for (const Piece& piece : m_pieces) {
            if (piece.index < next)
                continue; // a repeated index: the plain one, else the first, counts
            if (piece.index != next)
                break;
            ++next;
            const std::string text = unquoted(piece.param);
            if (!piece.encoded) {
                out += text;
                continue;
            }
            std::string extValue = piece.index == 0 ? std::string() : std::string("utf-8''"); // bytes as they are
            extValue += text;
            if (const auto decoded = decodeExtValue(extValue))
                out += *decoded;
        }
        if (next == 0)
            return std::nullopt;
        return out;
    }

private:
    struct Piece {
        uint32_t index;
        bool encoded;
        RawParam param;
    };
    std::string_view m_key;
    std::vector<Piece> m_pieces;
};

} // namespace

ContentDisposition parseContentDisposition(std::string_view value)
{
    ContentDisposition cd;
    // The first of each, as HeaderValue::param() finds them; a second is noted.
    std::optional<RawParam> plainName, nameExt, ext, plain;
    Pieces namePieces("name"), filenamePieces("filename");
    const auto keepFirst = [&cd](std::optional<RawParam>& slot, const RawParam& param) {
        cd.repeatedParameter = cd.repeatedParameter || slot.has_value();
        if (!slot)
            slot = param;
    };
    const std::string_view token = forEachParam(value, [&](const RawParam& param) {
        if (namePieces.take(param) || filenamePieces.take(param))
            return;
        if (equalsIgnoreCase(param.name, "name"))
            keepFirst(plainName, param);
        else if (equalsIgnoreCase(param.name, "name*"))
            keepFirst(nameExt, param);
        else if (equalsIgnoreCase(param.name, "filename*"))
            keepFirst(ext, param);
        else if (equalsIgnoreCase(param.name, "filename"))
            keepFirst(plain, param);
    });
    cd.type = toLower(token);
    if (plainName)
        cd.name = unquoted(*plainName);
    // RFC 7578 has no name* nor pieces, but Go's mime/multipart reads both: a name* that decodes wins (one that does
    // not leaves the plain name, and the pieces unread), else the pieces, else the plain name. A parameter given
    // twice makes Go refuse the whole header (the part is unnamed, its filename lost); here, as in busboy 1.6, the
    // first of each counts, and werkzeug takes the last (checked by hand with `name="a"; name="b"`). werkzeug
    // reads name* too and appends pieces to what came before; busboy 1.6 reads neither.
    if (nameExt) {
        if (auto decoded = decodeExtValue(unquoted(*nameExt))) {
            cd.name = std::move(decoded);
            cd.nameFromExtValue = true;
        }
    } else if (auto joined = namePieces.joined()) {
        cd.name = std::move(joined);
        cd.nameFromExtValue = true;
    }
    if (ext)
        cd.filename = decodeExtValue(unquoted(*ext));
    else if (auto joined = filenamePieces.joined())
        cd.filename = std::move(joined);
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

// The common shape without making strings (on a form of many small fields they were a fifth of the parser's time);
// any other through parseContentDisposition, so that the two cannot differ.
DispositionFacts dispositionFacts(std::string_view value)
{
    if (const auto common = readCommonDisposition(value))
        return *common;
    const ContentDisposition cd = parseContentDisposition(value);
    DispositionFacts facts;
    facts.named = cd.name && !cd.name->empty();
    facts.namedByExtValue = cd.nameFromExtValue;
    facts.hasFilename = cd.filename.has_value();
    facts.repeatedParameter = cd.repeatedParameter;
    return facts;
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
