#include "support/chunking.h"

#include "upin/core/part_pipeline.h"

#include <QByteArray>
#include <QtGlobal>
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <random>

namespace upin::test {

bool hasDiagnostic(const core::ParseReport& report, core::Errc code)
{
    for (const auto& d : report.diagnostics)
        if (d.code == code)
            return true;
    return false;
}

std::string joinLog(const std::vector<std::string>& log)
{
    std::string out;
    for (const auto& line : log)
        out += line + "\n";
    return out;
}

std::vector<core::MatcherKind> matchersUnderTest()
{
    const QByteArray cap = qgetenv("UPIN_SIMD");
    if (cap == "sse2" || cap == "scalar") // a cap below AVX2; "avx2" is the uncapped run of an AVX2 machine
        return {core::MatcherKind::Simd};
    return {std::begin(core::kAllMatchers), std::end(core::kAllMatchers)};
}

Outcome parseChunked(std::string_view contentType, std::string_view body, const core::Options& options,
                     const std::vector<size_t>& chunkSizes, Feed feed)
{
    auto parser = core::MultipartParser::fromContentType(contentType, options);
    REQUIRE(parser.has_value());
    core::EventRecorder recorder({feed.hash, true, options});
    // Through a pipeline, as the listener and `parse` feed it: each chunk is read into a block of a small pool
    // (so the reader waits for blocks the pipeline still holds), and every third chunk comes from other memory
    // (so the pipeline copies it).
    std::optional<core::PartPipeline> pipeline;
    core::BlockPool blocks(std::max<size_t>(1, *std::max_element(chunkSizes.begin(), chunkSizes.end())), 3);
    if (feed.pipelined)
        pipeline.emplace(recorder);
    core::PartHandler& handler = pipeline ? static_cast<core::PartHandler&>(*pipeline) : recorder;
    core::Result<void> status;
    size_t pos = 0;
    for (size_t i = 0; pos < body.size() && status; ++i) {
        size_t size = std::min(body.size() - pos, std::max<size_t>(1, chunkSizes[std::min(i, chunkSizes.size() - 1)]));
        std::string_view chunk = body.substr(pos, size);
        if (pipeline && i % 3 != 2) {
            core::BlockPool::Block block = blocks.acquire();
            std::copy(chunk.begin(), chunk.end(), block->begin());
            chunk = std::string_view(block->data(), size);
            pipeline->setSource(std::move(block));
        } else if (pipeline) {
            pipeline->setSource(nullptr);
        }
        status = parser->feed(chunk, handler);
        if (pipeline)
            pipeline->flush();
        pos += size;
    }
    if (status)
        status = parser->finish(handler);
    if (pipeline)
        pipeline->drain();
    Outcome outcome;
    outcome.report = recorder.takeReport(status, *parser);
    outcome.log = recorder.log();
    return outcome;
}

// Each top-level part's digest is the digest of its bytes in the body, computed apart; with XXH3 the report is the
// SHA-256 one but for its digests.
void checkDigests(std::string_view contentType, std::string_view body, const core::Options& options,
                  const Outcome& sha256)
{
    for (const auto& part : sha256.report.parts)
        if (part.complete)
            REQUIRE(part.digest == core::Digest::hex(core::HashKind::Sha256, body.substr(part.bodyOffset, part.size)));
    Outcome xxh3 = parseChunked(contentType, body, options, {4096}, {core::HashKind::Xxh3, true});
    REQUIRE(xxh3.report.hash == core::HashKind::Xxh3);
    REQUIRE(xxh3.report.parts.size() == sha256.report.parts.size());
    REQUIRE(xxh3.report.ok == sha256.report.ok);
    for (size_t i = 0; i < xxh3.report.parts.size(); ++i) {
        const core::PartSummary& part = xxh3.report.parts[i];
        REQUIRE(part.size == sha256.report.parts[i].size);
        REQUIRE(part.bodyOffset == sha256.report.parts[i].bodyOffset);
        REQUIRE(part.complete == sha256.report.parts[i].complete);
        if (part.complete)
            REQUIRE(part.digest == core::Digest::hex(core::HashKind::Xxh3, body.substr(part.bodyOffset, part.size)));
    }
}

Outcome parseEveryWay(std::string_view contentType, std::string_view body, core::Options options)
{
    options.matcher = core::MatcherKind::Simd;
    Outcome whole = parseChunked(contentType, body, options, {body.size()});
    const std::string expected = joinLog(whole.log);
    checkDigests(contentType, body, options, whole);
    auto check = [&](const std::vector<size_t>& sizes, const char* how) {
        Outcome other = parseChunked(contentType, body, options, sizes);
        INFO("chunking: " << how << ", first chunk " << sizes.front() << ", matcher "
                          << core::matcherName(options.matcher));
        REQUIRE(joinLog(other.log) == expected);
    };
    std::mt19937_64 rng(20261130);
    for (auto kind : matchersUnderTest()) {
        options.matcher = kind;
        check({body.size()}, "whole");
        check({1}, "byte by byte");
        // every split position for small bodies; a spread of positions for large ones
        size_t stride = body.size() <= 4096 ? 1 : body.size() / 512;
        for (size_t split = 1; split < body.size(); split += stride)
            check({split, body.size()}, "split in two");
        for (int round = 0; round < 8; ++round) {
            std::vector<size_t> sizes;
            for (size_t total = 0; total < body.size();) {
                size_t size = 1 + rng() % (round < 4 ? 7 : 300);
                sizes.push_back(size);
                total += size;
            }
            if (sizes.empty())
                sizes.push_back(1);
            check(sizes, "seeded random chunks");
        }
        Outcome pipelined = parseChunked(contentType, body, options, {1 + rng() % 300}, {core::HashKind::Sha256, true});
        INFO("through a pipeline, matcher " << core::matcherName(options.matcher));
        REQUIRE(joinLog(pipelined.log) == expected);
    }
    return whole;
}

Outcome parseLarge(std::string_view contentType, std::string_view body, core::Options options)
{
    options.matcher = core::MatcherKind::Simd;
    Outcome whole = parseChunked(contentType, body, options, {body.size()});
    const std::string expected = joinLog(whole.log);
    checkDigests(contentType, body, options, whole);
    REQUIRE(joinLog(parseChunked(contentType, body, options, {65536}, {core::HashKind::Sha256, true}).log) == expected);
    std::mt19937_64 rng(1130);
    for (auto kind : matchersUnderTest()) {
        options.matcher = kind;
        INFO("matcher " << core::matcherName(kind));
        REQUIRE(joinLog(parseChunked(contentType, body, options, {body.size()}).log) == expected);
        if (body.size() <= (2u << 20))
            REQUIRE(joinLog(parseChunked(contentType, body, options, {1}).log) == expected);
        std::vector<size_t> sizes;
        for (size_t total = 0; total < body.size();) {
            sizes.push_back(1 + rng() % 65536);
            total += sizes.back();
        }
        if (sizes.empty())
            sizes.push_back(1);
        REQUIRE(joinLog(parseChunked(contentType, body, options, sizes).log) == expected);
    }
    return whole;
}

} // namespace upin::test
