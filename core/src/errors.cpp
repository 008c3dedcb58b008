#include "upin/core/errors.h"

#include <array>

namespace upin::core {
namespace {

struct CodeText {
    std::string_view name;
    std::string_view text;
};

// A limit passed is named, not how to raise it: that is said in the words of where the user raises it (the CLI's
// flag, the window's Settings field), by the front end (app/common/limit_hint.h).
constexpr std::array<CodeText, static_cast<size_t>(Errc::Count)> kTexts{{
    {"not_multipart", "Content-Type is not multipart/*"},
    {"missing_boundary", "Content-Type has no boundary parameter"},
    {"invalid_boundary",
     "boundary is empty or has characters outside RFC 2046's bchars (lenient mode takes a printable one as written)"},
    {"boundary_too_long", "boundary is longer than RFC 2046's 70 characters"},
    {"no_delimiter", "the body has no delimiter line for this boundary"},
    {"unexpected_eof", "input ended inside a part, before the close delimiter"},
    {"missing_close_delimiter", "input ended after a delimiter line without the close delimiter (--boundary--)"},
    {"bare_line_feed", "line ends with LF alone instead of CRLF"},
    {"text_after_delimiter", "unexpected text after a delimiter on the same line"},
    {"headers_ended_by_delimiter", "part header block ended at the next delimiter without an empty line"},
    {"malformed_header", "part header line has no colon or contains a stray CR"},
    {"invalid_header_name", "part header name has characters outside the RFC 9110 token set"},
    {"control_byte_in_header",
     "part header value holds a control byte (NUL, ESC, DEL...), which RFC 9110 field values exclude (busboy refuses "
     "the body)"},
    {"leading_whitespace_header", "first part header line starts with whitespace (nothing to continue)"},
    {"missing_content_disposition", "part has no Content-Disposition header"},
    {"empty_field_name", "part's Content-Disposition name is empty or missing"},
    {"field_named_by_ext_value",
     "part's name is given as name* or in RFC 2231 pieces (name*0, name*1, ...), which RFC 7578 does not have: "
     "servers differ (Go reads both; werkzeug reads name* but appends pieces to a plain name; Node's busboy reads "
     "neither, taking a plain name beside them or leaving the field unnamed)"},
    {"repeated_disposition_parameter",
     "part's Content-Disposition gives name, filename, name* or filename* twice: servers differ (Go leaves the part "
     "unnamed and without a filename; werkzeug takes the last; busboy and this report the first)"},
    {"nesting_too_deep", "nested multipart deeper than the nesting limit; the deeper levels are kept as opaque data"},
    {"preamble", "bytes before the first delimiter were skipped (preamble)"},
    {"boundary_guessed", "no Content-Type given; boundary taken from the first delimiter line"},
    {"diagnostics_truncated", "too many diagnostics; further ones were dropped"},
    {"headers_not_kept",
     "the report holds as many header bytes as allowed; further part headers are counted, not kept"},
    {"header_block_too_large", "part header block is larger than the header limit"},
    {"too_many_headers", "part has more header lines than the header-line limit"},
    {"too_many_parts", "body has more parts than the part-count limit"},
    {"field_too_large", "form field (a part without a filename) is larger than the field limit"},
    {"part_too_large", "part is larger than the part limit"},
    {"body_too_large", "body is larger than the body limit"},
    {"head_too_large", "HTTP head (start line and header fields) is larger than accepted"},
    {"too_many_header_fields", "HTTP head has more header fields than accepted"},
    {"malformed_request_line", "request line is not METHOD SP target SP HTTP/1.x"},
    {"unsupported_http_version", "only HTTP/1.0 and HTTP/1.1 are supported"},
    {"invalid_header_field",
     "HTTP header line has no colon, a name outside the token set, or a control character in its value"},
    {"invalid_content_length", "Content-Length is not a decimal number, or repeated with different values"},
    {"conflicting_framing", "message has both Content-Length and Transfer-Encoding"},
    {"unsupported_transfer_encoding", "Transfer-Encoding other than chunked, or chunked before another coding"},
    {"invalid_chunk_size", "chunk size line is not a hexadecimal number"},
    {"chunk_extension_too_large", "chunk extensions are longer than allowed"},
    {"malformed_chunk", "chunk data is not followed by CRLF"},
    {"trailer_too_large", "chunked trailer section is larger than allowed"},
    {"malformed_status_line", "status line is not HTTP/1.x SP 3-digit status SP reason"},
    {"duplicate_host", "request has more than one Host field"},
    {"bare_line_end",
     "HTTP line ends with LF alone, or holds a CR without its LF (refused when relaying: peers split such lines "
     "differently)"},
    {"connection_names_framing",
     "Connection names Content-Length, Transfer-Encoding or Host, which a hop-by-hop list may not remove"},
    {"invalid_chunk_line",
     "a chunk line has white space not followed by ';', or a control character in an extension or a trailer"},
    {"body_cut_short", "the body ended before the length its head announced (Content-Length or a chunk size)"},
    {"bytes_after_body", "the file goes on after the body its Content-Length announced (a next request, or a "
                         "Content-Length too small)"},
    {"io_error", "writing what was received to disk failed (disk full, file size limit or permissions)"},
    {"invalid_base64", "a base64 part has a byte outside the alphabet, data after its padding, or a group cut short"},
    {"invalid_quoted_printable", "a quoted-printable part has '=' not followed by two hex digits or a line break"},
}};

} // namespace

std::string_view codeName(Errc code)
{
    auto i = static_cast<size_t>(code);
    return i < kTexts.size() ? kTexts[i].name : "unknown";
}

std::optional<Errc> codeFromName(std::string_view name)
{
    for (size_t i = 0; i < kTexts.size(); ++i)
        if (kTexts[i].name == name)
            return static_cast<Errc>(i);
    return std::nullopt;
}

std::string_view describe(Errc code)
{
    auto i = static_cast<size_t>(code);
    return i < kTexts.size() ? kTexts[i].text : "unknown error";
}

} // namespace upin::core
