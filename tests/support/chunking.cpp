#include "support/chunking.h"

#include <catch2/catch.hpp>

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

Outcome parseChunked(std::string_view contentType, std::string_view body, const core::Options& options,
                     const std::vector<size_t>& chunkSizes)
{
    auto parser = core::MultipartParser::fromContentType(contentType, options);
    REQUIRE(parser.has_value());
    core::EventRecorder recorder({core::HashKind::Sha256, true, options});
    core::Result<void> status;
    size_t pos = 0;
    for (size_t i = 0; pos < body.size() && status; ++i) {
        size_t size = std::max<size_t>(1, chunkSizes[std::min(i, chunkSizes.size() - 1)]);
        status = parser->feed(body.substr(pos, size), recorder);
        pos += size;
    }
    if (status)
        status = parser->finish(recorder);
    Outcome outcome;
    outcome.report = recorder.takeReport(status, *parser);
    outcome.log = recorder.log();
    return outcome;
}

Outcome parseEveryWay(std::string_view contentType, std::string_view body, core::Options options)
{
    options.matcher = core::MatcherKind::Simd;
    Outcome whole = parseChunked(contentType, body, options, {body.size()});
    const std::string expected = joinLog(whole.log);
    auto check = [&](const std::vector<size_t>& sizes, const char* how) {
        Outcome other = parseChunked(contentType, body, options, sizes);
        INFO("chunking: " << how << ", first chunk " << sizes.front() << ", matcher "
                          << core::matcherName(options.matcher));
        REQUIRE(joinLog(other.log) == expected);
    };
    std::mt19937_64 rng(20261130);
    for (auto kind : core::kAllMatchers) {
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
    }
    return whole;
}

Outcome parseLarge(std::string_view contentType, std::string_view body, core::Options options)
{
    options.matcher = core::MatcherKind::Simd;
    Outcome whole = parseChunked(contentType, body, options, {body.size()});
    const std::string expected = joinLog(whole.log);
    std::mt19937_64 rng(1130);
    for (auto kind : core::kAllMatchers) {
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
