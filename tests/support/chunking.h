#pragma once
// Feeds one body to a fresh parser in many different chunkings and checks that the event log never changes:
// whole, byte by byte, split at every position (or a sample of positions for large bodies), seeded random chunks.

#include "upin/core/event_recorder.h"

#include <string>
#include <vector>

namespace upin::test {

struct Outcome {
    core::ParseReport report;
    std::vector<std::string> log;
};

struct Feed {
    core::HashKind hash = core::HashKind::Sha256;
    bool pipelined = false; // through a PartPipeline, from pooled blocks and from other memory
};
// Parses body fed as the given chunk sizes (the last one repeats until the body is consumed).
Outcome parseChunked(std::string_view contentType, std::string_view body, const core::Options& options,
                     const std::vector<size_t>& chunkSizes, Feed feed = {});
// Parses in every chunking described above (for each matcher strategy, and through a pipeline) and REQUIREs
// identical logs, and each part's SHA-256 and XXH3 digests to be those of its bytes. Returns the outcome of the
// whole-body feed.
Outcome parseEveryWay(std::string_view contentType, std::string_view body, core::Options options = {});
// For large inputs: whole, byte by byte (bodies up to 2 MiB), and seeded random chunks up to 64 KiB, for each
// matcher, REQUIRing identical logs.
Outcome parseLarge(std::string_view contentType, std::string_view body, core::Options options = {});
std::string joinLog(const std::vector<std::string>& log);
// The matchers a test feeds each body to: all of them, but only simd where UPIN_SIMD caps its level at sse2 or
// scalar (the --simd sse2|scalar runs). Only the simd matcher's code depends on the level, and the uncapped run already fed the same bodies to kmp
// and chunked: feeding them again would repeat that run at twice its cost.
std::vector<core::MatcherKind> matchersUnderTest();
bool hasDiagnostic(const core::ParseReport& report, core::Errc code);

} // namespace upin::test
