#pragma once
// HTTP/1.1 request heads and body framing (RFC 9112), for the listener and for `parse --raw-http`.
//
// parseRequestHead is allocation-free: it fills caller-provided field storage with views into the caller's buffer.
// It returns 0 while the head is incomplete ("need more" is a state, not an error), the head length once the
// blank line has arrived, or an Error with the byte offset of the problem.
// BodyDecoder turns wire bytes into body bytes for Content-Length and chunked framing, streaming, keeping only a
// few counters of state across calls.

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
};

struct HttpField {
    std::string_view name;
    std::string_view value; // leading and trailing whitespace removed
};

struct RequestHead {
    std::string_view method;
    std::string_view target;
    int minorVersion = 1; // HTTP/1.minorVersion
    std::span<HttpField> fields;
    // Value of the first field with this name (case-insensitive), or empty view with found=false.
    std::string_view field(std::string_view name, bool* found = nullptr) const;
};

// storage must hold at least limits.maxHeaderFields entries. Views in `out` point into `buffer`.
Result<size_t> parseRequestHead(ByteView buffer, std::span<HttpField> storage, RequestHead& out,
                                const HttpLimits& limits = {});

// Collects a request head that may arrive in pieces (bounded by maxHeadBytes), then parses it once.
class HeadReader {
public:
    explicit HeadReader(const HttpLimits& limits = {});
    // Takes bytes until the head is complete; returns how many of data it used (the rest is body or the next
    // request). After complete(), head() stays valid until reset().
    Result<size_t> feed(ByteView data);
    bool complete() const { return m_complete; }
    const RequestHead& head() const { return m_head; }
    size_t headBytes() const { return m_buffer.size(); }
    ByteView raw() const { return m_buffer; } // the head's bytes as received, once complete()
    void reset();

private:
    HttpLimits m_limits;
    std::string m_buffer;
    std::vector<HttpField> m_fields;
    RequestHead m_head;
    bool m_complete = false;
};

struct BodyFraming {
    enum class Kind : uint8_t { None, ContentLength, Chunked } kind = Kind::None;
    uint64_t contentLength = 0;
    bool expectContinue = false;
    bool keepAlive = true;
};

Result<BodyFraming> bodyFraming(const RequestHead& head);

class BodySink {
public:
    virtual ~BodySink() = default;
    virtual void onBody(ByteView data) = 0; // valid only during the call
};

class BodyDecoder {
public:
    explicit BodyDecoder(const BodyFraming& framing = {}, const HttpLimits& limits = {});
    // Consumes wire bytes and passes body bytes to sink. Returns how many wire bytes belong to this body: fewer
    // than wire.size() only once the body is complete (the rest is the next request). Errors are sticky; their
    // offsets count wire bytes from the start of the body.
    Result<size_t> feed(ByteView wire, BodySink& sink);
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Failed; }
    uint64_t wireBytes() const { return m_wire; }
    uint64_t bodyBytes() const { return m_body; }
    uint64_t chunks() const { return m_chunks; }             // chunked: data chunks seen (not the last, empty one)
    uint64_t trailerBytes() const { return m_trailerBytes; } // chunked: bytes of trailer fields (skipped, not kept)

private:
    enum class State : uint8_t {
        Length,
        Size,
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

    HttpLimits m_limits;
    State m_state;
    uint64_t m_remaining = 0; // Content-Length left, or bytes left in the current chunk
    uint64_t m_chunkSize = 0;
    size_t m_lineBytes = 0; // extension or trailer bytes counted against their limit
    int m_sizeDigits = 0;
    uint64_t m_wire = 0;
    uint64_t m_body = 0;
    uint64_t m_chunks = 0;
    uint64_t m_trailerBytes = 0;
    Error m_error{Errc::Count, 0};
};

} // namespace upin::core
