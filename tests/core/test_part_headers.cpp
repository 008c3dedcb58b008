// A part's header block is read in one pass where it lies whole in a chunk and is clean, and line by line otherwise
// (a block fed byte by byte never lies whole). These tests hold the two ways to the same events, and check that the
// one pass is really taken where it should be: a quiet fall back to the slow way would keep every other test green.

#include "support/chunking.h"

#include <catch2/catch.hpp>

#include <random>

using namespace upin::core;
using upin::test::joinLog;
using upin::test::parseChunked;

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
    // Not clean: a folded line, a bare LF, a line starting with '-'.
    for (const std::string block : {"A: b\r\n c\r\n\r\n", "A: b\n\r\n", "-A: b\r\n\r\n"}) {
        INFO(block);
        const std::vector<bool> lies = whereHeadersLie("--b\r\n" + block + "data\r\n--b--", {});
        CHECK(std::find(lies.begin(), lies.end(), true) == lies.end());
    }
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
                                                   "X-\xc3\xa9: v"};
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
