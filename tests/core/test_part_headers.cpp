// A part's header block is read in one pass where it lies whole in a chunk and is clean, and line by line otherwise
// (a block fed byte by byte never lies whole). These tests hold the two ways to the same events, and check that the
// one pass is really taken where it should be: a quiet fall back to the slow way would keep every other test green.

#include "support/chunking.h"

#include <catch2/catch.hpp>

#include <random>

using namespace upin::core;
using namespace std::string_literals; // "...\0..."s keeps the NUL
using upin::test::joinLog;
using upin::test::parseChunked;
using upin::test::parseEveryWay;

namespace {

const std::string kType = "multipart/form-data; boundary=b";

// Notes, for each header, whether its name came as a view into the chunk being fed: read where it lies.
class WhereHeadersLie final : public PartHandler {
public:
    void onHeader(std::string_view name, std::string_view) override
    {
        inChunk.push_back(name.data() >= chunk.data() && name.data() < chunk.data() + chunk.size());
    }
    std::string_view chunk;
    std::vector<bool> inChunk;
};

// Feeds body in the given pieces and answers, for each header, whether it was read where it lies.
std::vector<bool> whereHeadersLie(const std::string& body, const std::vector<size_t>& pieces, Options options = {})
{
    auto parser = MultipartParser::fromContentType(kType, options);
    REQUIRE(parser.has_value());
    WhereHeadersLie handler;
    size_t pos = 0;
    for (size_t piece : pieces) {
        handler.chunk = std::string_view(body).substr(pos, piece);
        REQUIRE(parser->feed(handler.chunk, handler));
        pos += piece;
    }
    handler.chunk = std::string_view(body).substr(pos);
    REQUIRE(parser->feed(handler.chunk, handler));
    REQUIRE(parser->finish(handler));
    return handler.inChunk;
}

// A clean header block of exactly size bytes, blank line included: a Content-Disposition line, then one padded line.
std::string cleanBlock(size_t size)
{
    const std::string first = "Content-Disposition: form-data; name=\"f\"\r\n";
    const std::string pad = "X-Pad: \r\n";
    REQUIRE(size >= first.size() + pad.size() + 2);
    return first + "X-Pad: " + std::string(size - first.size() - pad.size() - 2, 'p') + "\r\n\r\n";
}

} // namespace

TEST_CASE("a clean block that lies whole in the chunk is read where it lies, up to 128 bytes", "[parser]")
{
    for (size_t size : {53, 63, 64, 65, 127, 128, 129, 200}) {
        const std::string body = "--b\r\n" + cleanBlock(size) + "data\r\n--b--";
        INFO("block of " << size << " bytes");
        const bool onePass = size <= 128;
        CHECK(whereHeadersLie(body, {}) == std::vector<bool>(2, onePass));
        // The chunk ends where the block does: nothing after it to read.
        CHECK(whereHeadersLie(body, {5 + size}) == std::vector<bool>(2, onePass));
        // Cut inside the block: read line by line.
        CHECK(whereHeadersLie(body, {5 + size - 1}) == std::vector<bool>(2, false));
        CHECK(joinLog(parseChunked(kType, body, {}, {body.size()}).log) ==
              joinLog(parseChunked(kType, body, {}, {1}).log));
    }
    // Not clean: a folded line, a bare LF, a line starting with '-', a control byte (NUL among them).
    for (const std::string& block :
         {std::string("A: b\r\n c\r\n\r\n"), std::string("A: b\n\r\n"), std::string("-A: b\r\n\r\n"),
          std::string("A: b\x01\r\n\r\n"), std::string("A: \x7f\r\n\r\n"), "A: b\0c\r\n\r\n"s}) {
        INFO(block);
        const std::vector<bool> lies = whereHeadersLie("--b\r\n" + block + "data\r\n--b--", {});
        CHECK(std::find(lies.begin(), lies.end(), true) == lies.end());
    }
    // Clean still: a TAB and bytes over 0x7f (UTF-8, and a lone 0x80) in a value are no control bytes.
    CHECK(whereHeadersLie("--b\r\nA: a\tb \xc3\xa9 \x80\xff\r\n\r\ndata\r\n--b--", {}) == std::vector<bool>{true});
}

TEST_CASE("a clean block's byte and line limits hold at their exact edges, read either way", "[parser]")
{
    for (size_t size : {53, 64, 100, 128}) {
        const std::string body = "--b\r\n" + cleanBlock(size) + "data\r\n--b--";
        for (size_t limit : {size - 1, size, size + 1}) {
            Options options;
            options.maxHeaderBytes = limit;
            const auto whole = parseChunked(kType, body, options, {body.size()});
            INFO("block of " << size << " bytes, at most " << limit);
            CHECK(whole.report.ok == (limit >= size));
            CHECK(joinLog(whole.log) == joinLog(parseChunked(kType, body, options, {1}).log));
        }
        for (size_t lines : {1, 2, 3}) {
            Options options;
            options.maxHeadersPerPart = lines;
            const auto whole = parseChunked(kType, body, options, {body.size()});
            INFO("block of " << size << " bytes, at most " << lines << " lines");
            CHECK(whole.report.ok == (lines >= 2));
            CHECK(joinLog(whole.log) == joinLog(parseChunked(kType, body, options, {1}).log));
        }
    }
}

// Random blocks, clean and not, read both ways, give the same fields, diagnostics and offsets under every limit.
TEST_CASE("part headers read whole in one pass and line by line agree on random blocks", "[parser]")
{
    static const std::vector<std::string> lines = {"Content-Disposition: form-data; name=\"f\"",
                                                   "content-type:text/plain",
                                                   "X-A:  b  ",
                                                   "K:",
                                                   "K: a:b",
                                                   "X A: b",
                                                   "NoColon",
                                                   ": empty name",
                                                   " folded",
                                                   "\tfolded",
                                                   "--b",
                                                   "--b--",
                                                   "--b--: x",
                                                   "-x: y",
                                                   "K: a\rb",
                                                   "\r",
                                                   "",
                                                   "X-Long: " + std::string(70, 'v'),
                                                   "X-\xc3\xa9: v",
                                                   "X-N: a\0b"s,
                                                   "X-E: \x1b[0m",
                                                   "X-D: \x7f",
                                                   "\tfolded \x01",
                                                   "X\x1b: v"};
    static const std::vector<std::string> ends = {"\r\n", "\r\n", "\r\n", "\r\n", "\n", "\r"};
    std::mt19937 rng(7);
    const auto pick = [&rng](const auto& from) { return from[rng() % from.size()]; };
    std::vector<Options> options(4);
    options[1].strict = true;
    options[3].maxHeadersPerPart = 2;
    for (int round = 0; round < 8000; ++round) {
        options[2].maxHeaderBytes = 8 + rng() % 140; // now and then exactly a block's size
        std::string body = "--b\r\n";
        for (size_t n = rng() % 5; n > 0; --n)
            body += pick(lines) + pick(ends);
        body += "\r\ndata\r\n--b--";
        const Options& chosen = options[round % 4];
        const auto whole = parseChunked(kType, body, chosen, {body.size()});
        const auto byteByByte = parseChunked(kType, body, chosen, {1});
        INFO(body);
        REQUIRE(joinLog(whole.log) == joinLog(byteByByte.log));
    }
}

// A control byte in a value is reported where it lies, with its value, and the field is kept as sent; strict mode
// refuses it. Byte by byte and whole agree (parseEveryWay), which also checks the one pass gave way.
TEST_CASE("a control byte in a part header value is reported at its offset with the byte", "[parser]")
{
    const std::string head = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Note: a";
    const std::string body = head + std::string(1, '\0') + "b\r\n \x7f\r\n\r\nx\r\n--b--";
    const auto lenient = parseEveryWay(kType, body).report;
    REQUIRE(lenient.ok);
    std::vector<Diagnostic> controls;
    for (const auto& d : lenient.diagnostics)
        if (d.code == Errc::ControlByteInHeader)
            controls.push_back(d);
    REQUIRE(controls.size() == 2); // the value's NUL, and the DEL on its continuation line
    CHECK(controls[0].offset == head.size());
    CHECK(controls[0].value == 0);
    CHECK(controls[1].offset == head.size() + 5);
    CHECK(controls[1].value == 0x7f);
    REQUIRE(lenient.parts.size() == 1);
    CHECK(lenient.parts[0].headers.at(1).second == std::string("a\0b \x7f", 5));
    Options strict;
    strict.strict = true;
    const auto refused = parseEveryWay(kType, body, strict).report;
    REQUIRE_FALSE(refused.ok);
    CHECK(refused.error->code == Errc::ControlByteInHeader);
    CHECK(refused.error->offset == head.size());
}

TEST_CASE("a part named by name* is named so, and said to be, since busboy leaves it unnamed", "[parser]")
{
    const std::string second = "--b\r\nContent-Disposition: form-data; name=\"plain\"\r\n\r\ny\r\n";
    const std::string body =
        "--b\r\nContent-Disposition: form-data; name*=UTF-8''%C3%A9t%C3%A9\r\n\r\nx\r\n" + second + "--b--";
    const auto lenient = parseEveryWay(kType, body).report;
    REQUIRE(lenient.ok);
    REQUIRE(lenient.parts.size() == 2);
    CHECK(lenient.parts[0].name == "\xc3\xa9t\xc3\xa9");
    std::vector<Diagnostic> named;
    for (const auto& d : lenient.diagnostics)
        if (d.code == Errc::FieldNamedByExtValue)
            named.push_back(d);
    REQUIRE(named.size() == 1); // the first part's only
    CHECK(named[0].offset == 5);
    CHECK_FALSE(upin::test::hasDiagnostic(lenient, Errc::EmptyFieldName));
    Options strict; // not an irregularity of RFC 7578's: strict mode notes it as lenient mode does
    strict.strict = true;
    CHECK(parseEveryWay(kType, body, strict).report.ok);
}

TEST_CASE("a name or filename given twice: the first counts, as in busboy, and it is said where, since Go and "
          "werkzeug read it otherwise",
          "[parser]")
{
    const std::string first = "--b\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\nx\r\n";
    const std::string second =
        "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"one.txt\"; filename=\"two.txt\"\r\n\r\ny\r\n";
    const std::string third = "--b\r\nContent-Disposition: form-data; name=\"g\"\r\n\r\nz\r\n";
    const std::string body = first + second + third + "--b--";
    const auto lenient = parseEveryWay(kType, body).report;
    REQUIRE(lenient.ok);
    REQUIRE(lenient.parts.size() == 3);
    CHECK(lenient.parts[0].name == "a");
    CHECK(lenient.parts[1].filename == "one.txt");
    std::vector<uint64_t> at;
    for (const auto& d : lenient.diagnostics)
        if (d.code == Errc::RepeatedDispositionParameter)
            at.push_back(d.offset);
    CHECK(at == std::vector<uint64_t>{5, first.size() + 5}); // each part's offset, the third's not
    Options strict;
    strict.strict = true;
    const auto refused = parseEveryWay(kType, body, strict).report;
    REQUIRE(refused.error.has_value());
    CHECK(refused.error->code == Errc::RepeatedDispositionParameter);
    CHECK(refused.error->offset == 5);
}

TEST_CASE("a part named by RFC 2231 pieces is named by them, and said to be, as by name*", "[parser]")
{
    const std::string body = "--b\r\nContent-Disposition: form-data; name=\"plain\"; name*0=\"jo\"; name*1*=%C3%A9\r\n"
                             "\r\nx\r\n--b--";
    const auto report = parseEveryWay(kType, body).report;
    REQUIRE(report.ok);
    REQUIRE(report.parts.size() == 1);
    CHECK(report.parts[0].name == "jo\xc3\xa9"); // Go names it so; busboy "plain"
    CHECK(upin::test::hasDiagnostic(report, Errc::FieldNamedByExtValue));
    CHECK_FALSE(upin::test::hasDiagnostic(report, Errc::EmptyFieldName));
}
