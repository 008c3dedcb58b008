#pragma once
// Error and diagnostic codes, positions and a small std::expected-like Result (C++20 has no std::expected).
// core never throws: every failure is a value that says what went wrong and at which absolute byte offset.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace upin::core {

// A borrowed run of body bytes. It is not text; string_view is used because it is what memchr/memcmp-style
// code and tests handle most plainly. Valid only for the duration of the call that receives it.
using ByteView = std::string_view;

// One code list serves errors and lenient-mode diagnostics: in strict mode an irregularity that lenient mode
// reports as a diagnostic becomes an error with the same code.
enum class Errc : uint8_t {
    // Content-Type and boundary
    NotMultipart,
    MissingBoundary,
    InvalidBoundary,
    BoundaryTooLong,
    // structure
    NoDelimiter,
    UnexpectedEof,
    MissingCloseDelimiter,
    BareLineFeed,
    TextAfterDelimiter,
    HeadersEndedByDelimiter,
    MalformedHeader,
    InvalidHeaderName,
    // A part header value holds a control byte (below 0x20 but TAB, or DEL), which RFC 9110 field values exclude
    // and some servers refuse (Node's busboy 1.6: "Malformed part header"; werkzeug takes it); the field is kept as
    // sent. The diagnostic's value is the byte.
    ControlByteInHeader,
    LeadingWhitespaceHeader,
    MissingContentDisposition,
    EmptyFieldName,
    // The part's name came from a name* parameter or RFC 2231 pieces (name*0, ...), which RFC 7578 does not have:
    // parsers differ on it (Go's reads both, werkzeug's name* but not the pieces as Go does, Node's busboy 1.6
    // neither), so a field may be lost or named otherwise on one server only.
    FieldNamedByExtValue,
    // A part's Content-Disposition gives name, filename, name* or filename* twice, which RFC 6266 makes invalid.
    // Servers differ: Go refuses the header (the part loses its name and filename), werkzeug takes the last, busboy
    // and this parser the first. At the part's offset; strict mode refuses it.
    RepeatedDispositionParameter,
    NestingTooDeep,
    // informational
    Preamble,
    BoundaryGuessed,
    DiagnosticsTruncated,
    HeadersNotKept,
    // limits (each message names the user-facing option that raises it)
    HeaderBlockTooLarge,
    TooManyHeaders,
    TooManyParts,
    FieldTooLarge,
    PartTooLarge,
    BodyTooLarge,
    // HTTP/1.1 heads and body framing, requests and responses
    HeadTooLarge,
    TooManyHeaderFields,
    MalformedRequestLine,
    UnsupportedHttpVersion,
    InvalidHeaderField,
    InvalidContentLength,
    ConflictingFraming,
    UnsupportedTransferEncoding,
    InvalidChunkSize,
    ChunkExtensionTooLarge,
    MalformedChunk,
    TrailerTooLarge,
    MalformedStatusLine,
    DuplicateHost,
    BareLineEnd,
    ConnectionNamesFraming,
    InvalidChunkLine,
    // A body that stopped before the length its framing announced (Content-Length, or inside a chunk): the cause
    // is the transfer, not the multipart content (whose own state the parser reports beside it). The diagnostic's
    // value is the bytes missing, when the framing says how many.
    BodyCutShort,
    // The converse: a file holds more bytes after the body than its head's Content-Length takes (a next request, or
    // a Content-Length too small, which then cuts the multipart body short). The value is the bytes after it.
    BytesAfterBody,
    // storage (the listener writing what it received)
    IoError,
    // a part's Content-Transfer-Encoding (decoded on request: extract --decoded, Inspect's decoded view)
    InvalidBase64,
    InvalidQuotedPrintable,
    Count
};

// Stable machine-readable name, e.g. "unexpected_eof", and back (nullopt for a name no code has).
std::string_view codeName(Errc code);
std::optional<Errc> codeFromName(std::string_view name);
// One-sentence human description, e.g. "input ended inside a part (no close delimiter)".
std::string_view describe(Errc code);

struct Error {
    Errc code;
    uint64_t offset;    // absolute byte offset in the input where the problem was detected
    uint64_t value = 0; // code-specific, as a Diagnostic's (strict mode's error keeps the diagnostic's value)
};

struct Diagnostic {
    Errc code;
    uint64_t offset;
    uint64_t value = 0; // code-specific number (e.g. preamble length), 0 when unused
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_v(std::in_place_index<1>, error) {}
    bool has_value() const { return m_v.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& value() { return std::get<0>(m_v); }
    const T& value() const { return std::get<0>(m_v); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const T& operator*() const { return value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, Error> m_v;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : m_error(error), m_ok(false) {}
    bool has_value() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error& error() const { return m_error; }

private:
    Error m_error{Errc::Count, 0};
    bool m_ok = true;
};

} // namespace upin::core
