#pragma once
// HTTP/1.1 messages (RFC 9112): request and response heads, and body framing both ways. The listener reads
// requests with it, the forwarder reads requests and its upstream's answers, the sender reads answers, and
// `parse --raw-http` reads stored requests: one field parser and one body decoder serve them all.
//
// parseRequestHead / parseResponseHead are allocation-free: they fill caller-provided field storage with views
// into the caller's buffer. Each returns 0 while the head is incomplete ("need more" is a state, not an error),
// the head's length once its blank line has arrived, or an Error with the byte offset of the problem.
// HeadReader collects a head that arrives in pieces. BodyDecoder turns wire bytes into body bytes for
// Content-Length, chunked and close-delimited framing, streaming, keeping a few counters across calls. Errors of
// both are sticky.

#include "upin/core/errors.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace upin::core {

struct HttpLimits {
    size_t maxHeadBytes = size_t{64} * 1024;
    size_t maxHeaderFields = 100;
    size_t maxChunkExtension = 4096; // bytes of extensions on one chunk-size line
    size_t maxTrailerBytes = size_t{16} * 1024;
    // A relay's reading: a line of the head or of the chunked framing that ends in LF alone, or holds a CR that
    // no LF follows, is refused (BareLineEnd). Peers disagree on where such lines end, which is what request
    // smuggling feeds on; a server that only reads may take LF alone, as most do.
    bool strictLineEnds = false;
};

struct HttpField {
    std::string_view name;
    std::string_view value; // leading and trailing whitespace removed
};

// The value of the first field with this name (case-insensitive), or an empty view with found=false.
std::string_view findField(std::span<const HttpField> fields, std::string_view name, bool* found = nullptr);

// Where a view into a parsed head starts, from the head's first byte: the offset an error in a field reports.
// 0 for a head that was not parsed from a buffer (begin unset).
inline uint64_t offsetIn(const char* begin, std::string_view part)
{
    return begin && part.data() >= begin ? uint64_t(part.data() - begin) : 0;
}

struct RequestHead {
    const char* begin = nullptr; // the head's first byte, in the buffer it was parsed from
    std::string_view method;
    std::string_view target;
    int minorVersion = 1; // HTTP/1.minorVersion
    std::span<HttpField> fields;
    std::string_view field(std::string_view name, bool* found = nullptr) const
    {
        return findField(fields, name, found);
    }
};

struct ResponseHead {
    const char* begin = nullptr; // the head's first byte, in the buffer it was parsed from
    int minorVersion = 1;
    int status = 0;          // 100..999
    std::string_view reason; // may be empty
    std::span<HttpField> fields;
    std::string_view field(std::string_view name, bool* found = nullptr) const
    {
        return findField(fields, name, found);
    }
};

// storage must hold at least limits.maxHeaderFields entries. Views in `out` point into `buffer`.
// A request with two Host fields is refused (RFC 9112 3.2: which one a peer uses is anyone's guess).
Result<size_t> parseRequestHead(ByteView buffer, std::span<HttpField> storage, RequestHead& out,
                                const HttpLimits& limits = {});
// status-line = HTTP/1.x SP 3DIGIT SP reason (the SP before an empty reason may be missing, as many servers send).
Result<size_t> parseResponseHead(ByteView buffer, std::span<HttpField> storage, ResponseHead& out,
                                 const HttpLimits& limits = {});

// Collects a request or a response head that may arrive in pieces (bounded by maxHeadBytes), then parses it once.
class HeadReader {
public:
    enum class Kind : uint8_t { Request, Response };
    explicit HeadReader(const HttpLimits& limits = {}, Kind kind = Kind::Request);
    // Takes bytes until the head is complete; returns how many of data it used (the rest is body or the next
    // message). Errors carry the offset from the head's first byte and are sticky: every later feed() returns the
    // same one until reset(). After complete(), head() or response() stays valid until reset().
    Result<size_t> feed(ByteView data);
    bool complete() const { return m_complete; }
    const RequestHead& head() const { return m_request; }
    const ResponseHead& response() const { return m_response; }
    size_t headBytes() const { return m_buffer.size(); }
    ByteView raw() const { return m_buffer; } // the head's bytes as received, once complete()
    void reset();

private:
    Result<size_t> parse();

    HttpLimits m_limits;
    Kind m_kind;
    std::string m_buffer;
    std::vector<HttpField> m_fields;
    RequestHead m_request;
    ResponseHead m_response;
    bool m_complete = false;
    std::optional<Error> m_error;
};

struct BodyFraming {
    // UntilClose: a response without a length, whose body ends when the connection does (never a request's).
    enum class Kind : uint8_t { None, ContentLength, Chunked, UntilClose } kind = Kind::None;
    uint64_t contentLength = 0;
    bool expectContinue = false;
    bool keepAlive = true;
};

// A request's framing: Content-Length or chunked, both together refused (a smuggling shape), other codings 501.
Result<BodyFraming> bodyFraming(const RequestHead& head);
// A response's framing (RFC 9112 6.3), given whether it answers a HEAD: none for HEAD, 1xx, 204 and 304;
// chunked when chunked is the last coding; else Content-Length, validated as a request's; else until the close.
// Content-Length beside Transfer-Encoding, or chunked before another coding, is refused: a relay cannot know
// which its client would believe.
Result<BodyFraming> responseFraming(const ResponseHead& head, bool answersHead);

class BodySink {
public:
    virtual ~BodySink() = default;
    virtual void onBody(ByteView data) = 0; // valid only during the call
};

class BodyDecoder {
public:
    explicit BodyDecoder(const BodyFraming& framing = {}, const HttpLimits& limits = {});
    // Consumes wire bytes and passes body bytes to sink. Returns how many wire bytes belong to this body: fewer
    // than wire.size() only once the body is complete (the rest is the next message). Errors are sticky; their
    // offsets count wire bytes from the start of the body.
    Result<size_t> feed(ByteView wire, BodySink& sink);
    // The connection closed: a close-delimited body is then whole (done() turns true); any other is not.
    void closed();
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Failed; }
    uint64_t wireBytes() const { return m_wire; }
    uint64_t bodyBytes() const { return m_body; }
    uint64_t chunks() const { return m_chunks; }             // chunked: data chunks seen (not the last, empty one)
    uint64_t trailerBytes() const { return m_trailerBytes; } // chunked: bytes of trailer fields (skipped, not kept)

private:
    enum class State : uint8_t {
        Length,
        UntilClose,
        Size,
        SizeBws, // strict: white space after the size, which only ';' may follow
        SizeExt,
        SizeLf,
        Data,
        DataCr,
        DataLf,
        TrailerStart,
        TrailerLine,
        TrailerLf,
        Done,
        Failed
    };
    Result<size_t> fail(Errc code, uint64_t offset);
    // Skips to the end of an extension or trailer line, counting its bytes against limit.
    std::optional<Error> skipLine(ByteView wire, size_t& pos, size_t limit, Errc code, State next, bool consumeLf);
    // Strict line ends: a CR in a skipped line must be followed by its LF, and the LF must follow a CR; and no
    // other control character but HTAB (a relay's upstream may split the line at one).
    std::optional<Error> checkLineEnds(ByteView line, uint64_t offset, bool endsWithLf);

    HttpLimits m_limits;
    State m_state;
    uint64_t m_remaining = 0; // Content-Length left, or bytes left in the current chunk
    uint64_t m_chunkSize = 0;
    size_t m_lineBytes = 0; // extension or trailer bytes counted against their limit
    int m_sizeDigits = 0;
    bool m_lastWasCr = false; // strict line ends: the skipped line's last byte so far was a CR
    uint64_t m_wire = 0;
    uint64_t m_body = 0;
    uint64_t m_chunks = 0;
    uint64_t m_trailerBytes = 0;
    Error m_error{Errc::Count, 0};
};

} // namespace upin::core
