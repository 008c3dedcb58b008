#pragma once
// Streaming (push) multipart parser, RFC 2046 / RFC 7578.
//
// Contract, in one place:
//  - feed() consumes the whole chunk and returns success, or fails with an Error{code, absolute offset}.
//    "Need more input" is not an error: the parser simply waits in its current state for the next chunk.
//  - Errors are sticky: after one, every feed()/finish() returns the same error.
//  - finish() marks the end of input: it fails with UnexpectedEof unless the close delimiter was seen (lenient mode
//    accepts a body that ends right after a complete delimiter line, with a MissingCloseDelimiter diagnostic).
//  - Callbacks fire synchronously inside feed()/finish(). Every string_view/ByteView passed to them is valid only
//    during that call. Part bodies are never copied: onPartData points into the caller's chunk (or, for a few bytes
//    that turned out to be data after all, into the parser's own copy of the delimiter).
//  - The hot path (part bodies) allocates nothing. Memory is bounded by Options, not by input size.
//  - Not thread-safe; use one parser per request, from one thread at a time. No thread-locals.

#include "upin/core/delimiter_matcher.h"
#include "upin/core/errors.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace upin::core {

class PartHandler {
public:
    virtual ~PartHandler() = default;
    virtual void onPartBegin(uint32_t index, uint64_t offset) { (void)index, (void)offset; }
    virtual void onHeader(std::string_view name, std::string_view value) { (void)name, (void)value; }
    virtual void onHeadersComplete(uint64_t offset) { (void)offset; }
    virtual void onPartData(ByteView data, uint64_t offset) { (void)data, (void)offset; } // many times per part
    virtual void onPartEnd(uint64_t offset) { (void)offset; }                             // offset = end of body
    virtual void onDiagnostic(const Diagnostic& diagnostic) { (void)diagnostic; }
};

inline constexpr size_t kMaxBoundaryCap = 256;

// Limits are per parser (one request body). Defaults suit a debugging tool that must survive hostile input.
struct Options {
    bool strict = false; // irregularities become errors instead of diagnostics
    MatcherKind matcher = MatcherKind::Simd;
    size_t maxBoundaryLength = 70;             // RFC 2046 limit; may be raised up to kMaxBoundaryCap
    size_t maxHeaderBytes = size_t{16} * 1024; // per part header block, line ends included
    size_t maxHeadersPerPart = 64;             // header lines per part, continuation lines included
    uint32_t maxParts = 10'000;
    uint64_t maxFieldSize = 1 << 20;     // body of a part without a filename (a form field)
    uint64_t maxPartSize = 64ull << 30;  // body of any part
    uint64_t maxBodySize = 256ull << 30; // the whole body
    uint32_t maxDepth = 4;               // nested multipart levels parsed by EventRecorder
    uint32_t maxDiagnostics = 1'000;     // further diagnostics are counted once as DiagnosticsTruncated
    // Header bytes (names and values) EventRecorder keeps in one report, all parts and nested parts together. Past
    // it, headers are counted, not kept (HeadersNotKept), so a body of many parts with many long header lines
    // cannot make the report, and the JSON written from it, grow with the input.
    uint64_t maxRecordedHeaderBytes = 1 << 20;
};

class MultipartParser {
public:
    // Takes the boundary from a Content-Type value (`multipart/...; boundary=...`, quoted or not).
    static Result<MultipartParser> fromContentType(std::string_view contentType, Options options = {});
    static Result<MultipartParser> fromBoundary(std::string_view boundary, Options options = {});
    // Boundary of the first line that starts with "--" (leading blank lines skipped), or empty when none is found
    // or it has characters no delimiter line could hold (fromBoundary then judges bchars as the mode says). For
    // raw bodies that come without a Content-Type.
    static std::string guessBoundary(ByteView bodyStart);

    MultipartParser(MultipartParser&&) noexcept;
    MultipartParser& operator=(MultipartParser&&) noexcept;
    ~MultipartParser();

    Result<void> feed(ByteView chunk, PartHandler& handler);
    Result<void> finish(PartHandler& handler);

    const std::string& boundary() const { return m_boundary; }
    const Options& options() const { return m_options; }
    uint64_t bytesConsumed() const { return m_offset; }

private:
    enum class State : uint8_t { Preamble, Body, AfterDelimiter, Headers, Epilogue, Failed };
    enum class Tail : uint8_t { Start, Dash, Padding, ExpectLf, SkipLine };

    MultipartParser(std::string boundary, Options options, bool formData);
    size_t scanBody(ByteView chunk, size_t pos);
    size_t readDelimiterTail(ByteView chunk, size_t pos);
    size_t readHeaders(ByteView chunk, size_t pos);
    bool headerLineIsDelimiter(std::string_view line, bool& isClose) const;
    void processHeaderBlock(size_t blockSize, uint64_t bodyOffset);
    void deliverHeaders(uint64_t bodyOffset);
    void endHeadersAtDelimiter(uint64_t lineOffset, bool isClose, uint64_t nextPart);
    void emitData(ByteView data, uint64_t offset);
    void deliver(ByteView data, uint64_t offset);
    void releaseHeld(size_t count, uint64_t offset);
    void confirmDelimiter();
    void falseDelimiter(ByteView extra); // extra: tail bytes read after the candidate ("-" or CR)
    void startPart(uint64_t offset);
    void endPart(uint64_t bodyEnd);
    bool report(Errc code, uint64_t offset, uint64_t value = 0); // false when strict mode made it an error
    void fail(Errc code, uint64_t offset, uint64_t value = 0);
    void diagnose(Errc code, uint64_t offset, uint64_t value = 0);

    Options m_options;
    std::string m_boundary;
    std::unique_ptr<DelimiterMatcher> m_matcher; // pattern "\n--boundary"; a preceding CR is handled here
    std::string m_headerBlock;                   // bounded by maxHeaderBytes
    struct Scratch;                              // reused vectors for splitting header blocks
    std::unique_ptr<Scratch> m_scratch;
    PartHandler* m_handler = nullptr; // valid during feed()/finish() only
    State m_state = State::Preamble;
    State m_scanState = State::Preamble; // Preamble or Body: where a delimiter candidate was found
    Tail m_tail = Tail::Start;
    Error m_error{Errc::Count, 0};
    uint64_t m_offset = 0;          // absolute offset of the byte being processed
    uint64_t m_chunkOffset = 0;     // absolute offset of the current chunk's first byte
    uint64_t m_heldOffset = 0;      // where the bytes held by the matcher start
    uint64_t m_delimiterOffset = 0; // where the LF of the last delimiter candidate is
    uint64_t m_bodyEnd = 0;         // where the current part's body ends if the candidate is confirmed
    uint64_t m_partOffset = 0;      // first byte after the delimiter line of the current part
    uint64_t m_partBytes = 0;
    uint64_t m_pendingCrOffset = 0;
    uint32_t m_partCount = 0;
    uint32_t m_headerLines = 0;
    size_t m_lineStart = 0; // start of the incomplete header line in m_headerBlock
    uint32_t m_diagnosticCount = 0;
    bool m_formData = true;
    bool m_virtualHeld = false;         // the matcher's held LF is the line end that precedes this body, not data
    bool m_candidateViaVirtual = false; // the delimiter candidate used the virtual LF
    bool m_delimiterConfirmed = false;
    bool m_bareLf = false;            // the delimiter candidate has no CR before its LF
    bool m_pendingCr = false;         // last data byte was CR: held back, it may belong to the next delimiter
    bool m_partOpen = false;          // onPartBegin sent, onPartEnd not yet
    bool m_isField = false;           // current part has no filename: maxFieldSize applies
    bool m_irregularBoundary = false; // lenient mode accepted a boundary outside bchars: diagnosed on first feed
};

} // namespace upin::core
