// Property test: every strategy finds exactly the occurrences a plain reference search finds, for any chunking,
// and the bytes it reports as data, plus the matches, rebuild the input exactly.

#include "upin/core/delimiter_matcher.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>

using namespace upin::core;

namespace {

struct Found {
    std::vector<size_t> matchEnds; // absolute end offsets of non-overlapping, leftmost occurrences
    std::string rebuilt;           // data bytes with each match put back: must equal the input
};

std::vector<size_t> referenceMatches(const std::string& text, const std::string& pattern)
{
    std::vector<size_t> ends;
    for (size_t pos = text.find(pattern); pos != std::string::npos; pos = text.find(pattern, pos + pattern.size()))
        ends.push_back(pos + pattern.size());
    return ends;
}

Found scanInChunks(MatcherKind kind, const std::string& pattern, const std::string& text,
                   const std::vector<size_t>& cuts)
{
    auto matcher = DelimiterMatcher::create(kind, pattern);
    Found found;
    size_t chunkStart = 0;
    for (size_t cut : cuts) {
        std::string_view chunk = std::string_view(text).substr(chunkStart, cut - chunkStart);
        size_t pos = 0;
        for (;;) {
            auto scan = matcher->scan(chunk.substr(pos));
            found.rebuilt += pattern.substr(0, scan.released);
            found.rebuilt += chunk.substr(pos, scan.dataEnd);
            if (!scan.found)
                break;
            found.rebuilt += pattern;
            found.matchEnds.push_back(chunkStart + pos + scan.matchEnd);
            pos += scan.matchEnd;
        }
        chunkStart = cut;
    }
    found.rebuilt += pattern.substr(0, matcher->held()); // end of input: held bytes were data
    return found;
}

void checkAllChunkings(const std::string& pattern, const std::string& text, std::mt19937_64& rng, bool everySplit)
{
    const auto expected = referenceMatches(text, pattern);
    auto check = [&](const std::vector<size_t>& cuts) {
        for (auto kind : kAllMatchers) {
            Found found = scanInChunks(kind, pattern, text, cuts);
            INFO("matcher " << matcherName(kind) << " pattern '" << pattern << "' text size " << text.size() << " cuts "
                            << cuts.size());
            REQUIRE(found.matchEnds == expected);
            REQUIRE(found.rebuilt == text);
        }
    };
    check({text.size()});
    std::vector<size_t> bytes;
    for (size_t i = 1; i <= text.size(); ++i)
        bytes.push_back(i);
    check(bytes);
    if (everySplit)
        for (size_t split = 0; split <= text.size(); ++split)
            check({split, text.size()});
    for (int round = 0; round < 4; ++round) {
        std::vector<size_t> cuts;
        for (size_t at = 0; at < text.size();) {
            at = std::min(text.size(), at + 1 + rng() % 97);
            cuts.push_back(at);
        }
        if (cuts.empty())
            cuts.push_back(0);
        check(cuts);
    }
}

std::string randomText(std::mt19937_64& rng, size_t size, std::string_view alphabet)
{
    std::string text(size, ' ');
    for (auto& c : text)
        c = alphabet[rng() % alphabet.size()];
    return text;
}

} // namespace

TEST_CASE("matchers agree with a reference search on random inputs and chunkings", "[matcher]")
{
    std::mt19937_64 rng(42);
    const std::string_view alphabets[] = {"ab", "abc", "\r\n-b", std::string_view("\r\n-bx\0y", 7)};
    for (int round = 0; round < 300; ++round) {
        std::string_view alphabet = alphabets[round % 4];
        std::string pattern = randomText(rng, 1 + rng() % 6, alphabet);
        std::string text = randomText(rng, rng() % 300, alphabet);
        // plant a few occurrences so that matches, not only misses, are exercised
        for (int k = 0; k < 3 && !text.empty(); ++k)
            text.insert(rng() % text.size(), pattern);
        checkAllChunkings(pattern, text, rng, round % 10 == 0);
    }
}

TEST_CASE("self-overlapping delimiters are found where a restart-after-mismatch matcher misses them", "[matcher]")
{
    std::mt19937_64 rng(7);
    checkAllChunkings("aab", "aaab", rng, true);
    checkAllChunkings("aab", "aaaaaab", rng, true);
    checkAllChunkings("abab", "abaababab", rng, true);
    checkAllChunkings("\r\n--b", "\r\n\r\n--b\r\n-\r\n--b", rng, true);
    for (auto kind : kAllMatchers) {
        auto matcher = DelimiterMatcher::create(kind, "aab");
        auto scan = matcher->scan("aaab");
        REQUIRE(scan.found);
        REQUIRE(scan.dataEnd == 1);
        REQUIRE(scan.matchEnd == 4);
    }
}

TEST_CASE("CRLF must not match across a CR b LF", "[matcher]")
{
    std::mt19937_64 rng(9);
    checkAllChunkings("\r\n", "a\rb\n", rng, true);
    for (auto kind : kAllMatchers)
        REQUIRE_FALSE(DelimiterMatcher::create(kind, "\r\n")->scan("a\rb\n").found);
}

TEST_CASE("long delimiters and long texts exercise the vector paths", "[matcher]")
{
    std::mt19937_64 rng(11);
    for (size_t length : {2u, 3u, 31u, 32u, 33u, 63u, 64u, 65u, 74u, 259u}) {
        std::string pattern = "\n--" + randomText(rng, length, "ab");
        pattern.resize(length);
        std::string text = randomText(rng, 5000, "ab\n-");
        for (int k = 0; k < 5; ++k)
            text.insert(rng() % text.size(), pattern);
        std::string nearMiss = pattern;
        nearMiss.back() = nearMiss.back() == 'a' ? 'b' : 'a';
        text.insert(100, nearMiss);
        checkAllChunkings(pattern, text, rng, false);
    }
}

// The simd matcher checks the bytes between a candidate's first and last in two vector compares for delimiters of
// 34 to 66 bytes: a difference in any one of them, the near misses at random places, is no match.
TEST_CASE("near misses with first and last byte right are no match, for delimiters around the vector compares",
          "[matcher]")
{
    std::mt19937_64 rng(13);
    for (size_t length : {33u, 34u, 35u, 42u, 50u, 65u, 66u, 67u}) {
        std::string pattern = "\r\n--" + randomText(rng, length - 4, "ab");
        std::string text;
        for (size_t changed = 1; changed + 1 < length; ++changed) {
            text += randomText(rng, rng() % 40, "ab-");
            std::string nearMiss = pattern;
            nearMiss[changed] ^= 0x20;
            text += nearMiss;
        }
        for (int k = 0; k < 3; ++k)
            text.insert(rng() % text.size(), pattern);
        checkAllChunkings(pattern, text, rng, false);
    }
}

TEST_CASE("the simd level is the one UPIN_SIMD (--simd) asks for, where the CPU has it", "[matcher]")
{
    const char* wanted = std::getenv("UPIN_SIMD");
    const auto asked = kSimdLevelNames.find(wanted ? wanted : "");
    INFO("UPIN_SIMD=" << (wanted ? wanted : "") << ", running at " << kSimdLevelNames.name(simdLevel()));
    if (wanted != nullptr && *wanted != '\0')
        REQUIRE(asked.has_value()); // a misspelt level must not pass as a run at full speed
    if (asked)
        CHECK(simdLevel() <= *asked); // a cap: never above what was asked for
    if (asked == SimdLevel::Scalar)
        CHECK(simdLevel() == SimdLevel::Scalar); // every CPU has the scalar path, so a scalar run is really scalar
#if defined(__x86_64__)
    if (asked == SimdLevel::Sse2)
        CHECK(simdLevel() == SimdLevel::Sse2); // SSE2 is part of x86-64
#endif
}

TEST_CASE("matcher names round-trip", "[matcher]")
{
    for (auto kind : kAllMatchers)
        REQUIRE(matcherFromName(matcherName(kind)) == kind);
    REQUIRE_FALSE(matcherFromName("boyer-moore").has_value());
}
