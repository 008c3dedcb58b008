#pragma once
// Turns parser callbacks into owned values: a ParseReport (part summaries with digests, diagnostics, error) and,
// on request, a text event log. Nested multipart parts are parsed here, by a child parser per nested part, so the
// parser itself stays flat. Shared by the CLI, the GUI worker and the golden tests.

#include "upin/core/digest.h"
#include "upin/core/multipart_parser.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace upin::core {

struct PartSummary {
    uint32_t index = 0;
    std::optional<std::string> name;        // Content-Disposition name
    std::optional<std::string> filename;    // filename* decoded, else filename
    std::optional<std::string> contentType; // raw header value
    std::optional<std::string> transferEncoding;
    std::vector<std::pair<std::string, std::string>> headers; // in order, names as sent
    uint64_t offset = 0;                                      // first byte of the part's header block
    uint64_t bodyOffset = 0;                                  // first byte of the body
    uint64_t size = 0;                                        // body bytes received
    std::string digest;                                       // hex of the report's hash, empty when off
    bool complete = false;                                    // the part's closing delimiter was seen
    std::vector<PartSummary> children;                        // parts of a nested multipart body
    // Past Options::maxRecordedHeaderBytes: headers counted, not kept, and name, filename and content type cut to
    // kRecordedTextCap bytes (textCut says one was).
    uint32_t headersNotKept = 0;
    bool textCut = false;
};

inline constexpr size_t kRecordedTextCap = 64;

struct ParseReport {
    bool ok = false;
    std::optional<Error> error;
    std::vector<PartSummary> parts;
    std::vector<Diagnostic> diagnostics;
    uint64_t bytes = 0;
    std::string boundary;
    HashKind hash = HashKind::None; // what the parts' digests are
};

class EventRecorder final : public PartHandler {
public:
    struct Settings {
        HashKind hash = HashKind::Sha256; // digest of every part body
        bool log = false;                 // keep a text event log (for golden tests)
        Options parser;                   // options for nested parsers, and maxDepth
        // Each part's header lines in PartSummary::headers. A recorder that only names the parts (a capture's
        // files) keeps none: for a form of many small fields, copying them was a fifth of its time.
        bool keepHeaders = true;
    };

    explicit EventRecorder(Settings settings, uint64_t baseOffset = 0, uint32_t depth = 0);
    ~EventRecorder() override;

    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void onDiagnostic(const Diagnostic& diagnostic) override;

    // Closes the report with the parser's outcome; call once, after finish() or a failed feed().
    ParseReport takeReport(const Result<void>& outcome, const MultipartParser& parser);
    const std::vector<std::string>& log() const { return m_log; }
    // The part being recorded (between onPartBegin and the next one), or nullptr.
    const PartSummary* currentPart() const { return m_current; }

private:
    struct Nested;
    // What the whole report holds so far; nested recorders share their root's, so that nested bodies (each with
    // a parser and limits of its own) cannot multiply it: header bytes, parts, diagnostics.
    struct ReportBudget {
        uint64_t headerBytes = 0;
        bool headersReported = false; // the HeadersNotKept diagnostic was given
        uint64_t parts = 0;           // at every level
        bool nestedPartsReported = false;
        uint64_t diagnostics = 0;
    };
    ReportBudget& budget() { return m_sharedBudget ? *m_sharedBudget : m_ownBudget; }
    void flushDataLog();
    void closeNested();

    Settings m_settings;
    uint64_t m_base;
    uint32_t m_depth;
    ParseReport m_report;
    PartSummary* m_current = nullptr;
    Digest m_hasher;
    uint64_t m_loggedData = 0;
    std::vector<std::string> m_log;
    std::unique_ptr<Nested> m_nested;
    ReportBudget m_ownBudget;
    ReportBudget* m_sharedBudget = nullptr; // the root's, for a nested recorder
    std::string m_partContentType;          // the current part's, even when the report keeps it cut
};

// Parses a body that is already in memory, in chunks of chunkSize bytes (0: in one piece).
ParseReport parseBuffer(MultipartParser& parser, ByteView body, EventRecorder::Settings settings, size_t chunkSize = 0);

} // namespace upin::core
