#pragma once
// What request and response heads share: finding the head's end, splitting it into lines, and the field lines
// (RFC 9112 section 5). Internal to core.

#include "upin/core/http.h"

namespace upin::core::http_detail {

// A control character that may not appear in a start line or field value (HTAB is allowed in values).
bool isControl(char c);
std::string_view trimSpaces(std::string_view s);
// Index just past the head's blank line (CRLFCRLF, LFLF or a mix), or 0 when it has not arrived.
size_t findHeadEnd(ByteView buffer);
bool parseDecimal(std::string_view text, uint64_t& out); // 1..19 digits, nothing else
bool containsToken(std::string_view list, std::string_view token);

// The line starting at pos: its text without CR LF, and where the next line starts. With strict line ends, an LF
// without its CR is an error at the LF.
struct Line {
    std::string_view text;
    size_t next = 0;
};
Result<Line> lineAt(ByteView buffer, size_t pos, const HttpLimits& limits);

// The field lines from pos up to the blank line before end, into storage (at most limits.maxHeaderFields).
Result<std::span<HttpField>> parseFields(ByteView buffer, size_t pos, size_t end, std::span<HttpField> storage,
                                         const HttpLimits& limits);

// Where the head starts: empty lines before a request line are tolerated (RFC 9112 2.2); end is its blank line's
// end, or 0. Errors: a head over its limit.
struct HeadSpan {
    size_t start = 0;
    size_t end = 0;
};
Result<HeadSpan> locateHead(ByteView buffer, const HttpLimits& limits);

} // namespace upin::core::http_detail
