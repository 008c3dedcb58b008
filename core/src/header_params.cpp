#include "upin/core/header_params.h"

#include <algorithm>

namespace upin::core {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
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

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

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

HeaderValue parseHeaderValue(std::string_view value)
{
    HeaderValue out;
    size_t i = value.find(';');
    out.token = toLower(trim(value.substr(0, i)));
    while (i < value.size()) {
        ++i; // past ';'
        size_t nameEnd = i;
        while (nameEnd < value.size() && value[nameEnd] != '=' && value[nameEnd] != ';')
            ++nameEnd;
        HeaderParam param{toLower(trim(value.substr(i, nameEnd - i))), {}};
        i = nameEnd;
        if (i < value.size() && value[i] == '=') {
            ++i;
            while (i < value.size() && isSpace(value[i]))
                ++i;
            if (i < value.size() && value[i] == '"') {
                // quoted-string: runs to the next unescaped quote, or to the end if unterminated
                // A backslash escapes only '"' and '\\' (as Go's mime package does): browsers send Windows paths
                // such as C:\files\a.txt unescaped, and those backslashes must survive.
                for (++i; i < value.size() && value[i] != '"';) {
                    const size_t stop = std::min(value.find_first_of("\"\\", i), value.size());
                    param.value.append(value.substr(i, stop - i)); // the plain run, whole
                    i = stop;
                    if (i < value.size() && value[i] == '\\') {
                        if (i + 1 < value.size() && (value[i + 1] == '"' || value[i + 1] == '\\'))
                            ++i;
                        param.value += value[i++];
                    }
                }
                if (i < value.size())
                    ++i; // closing quote
                while (i < value.size() && value[i] != ';')
                    ++i; // ignore junk after the closing quote
            } else {
                size_t end = value.find(';', i);
                if (end == std::string_view::npos)
                    end = value.size();
                param.value = std::string(trim(value.substr(i, end - i)));
                i = end;
            }
        }
        if (!param.name.empty())
            out.params.push_back(std::move(param));
    }
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
    if (charset != "utf-8" && !latin1)
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
    HeaderValue parsed = parseHeaderValue(value);
    ContentDisposition cd{parsed.token, {}, {}};
    if (auto* name = parsed.param("name"))
        cd.name = *name;
    if (auto* ext = parsed.param("filename*"))
        cd.filename = decodeExtValue(*ext);
    if (!cd.filename)
        if (auto* plain = parsed.param("filename"))
            cd.filename = *plain;
    return cd;
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
