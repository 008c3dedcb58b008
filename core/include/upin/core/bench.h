#pragma once
// The parser benchmark: request bodies of several shapes and timed parses of them, shared by the CLI `bench`
// command, the GUI's matcher shoot-out and the tests. Timing only; nothing here prints.

#include "upin/core/delimiter_matcher.h"
#include "upin/core/multipart_parser.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace upin::core {

enum class BenchInput : uint8_t {
    Random,    // one file part of random bytes: the common case
    Mixed,     // one file part mixing random bytes, CRLF text lines and near-miss delimiters
    NearMiss,  // one file part made only of near-miss delimiters: the matcher's worst case
    Crlf,      // one file part made only of CRLF
    ManyParts, // many 1 KiB parts
};

inline constexpr EnumNames<BenchInput, 5> kBenchInputNames{{{{BenchInput::Random, "random"},
                                                             {BenchInput::Mixed, "mixed"},
                                                             {BenchInput::NearMiss, "nearmiss"},
                                                             {BenchInput::Crlf, "crlf"},
                                                             {BenchInput::ManyParts, "manyparts"}}}};
inline constexpr auto kAllBenchInputs = kBenchInputNames.values();
inline std::string_view benchInputName(BenchInput input)
{
    return kBenchInputNames.name(input);
}
inline std::optional<BenchInput> benchInputFromName(std::string_view name)
{
    return kBenchInputNames.find(name);
}

struct BenchBody {
    std::string contentType;
    std::string body;
    uint32_t parts = 0;
};

// A complete multipart/form-data body of about `size` bytes, deterministic for a given seed.
BenchBody makeBenchBody(BenchInput input, size_t size, uint64_t seed = 1);

// The options every timed parse runs with: the limits on parts and fields lifted, so that a stored body with a 2 MB
// field or 20,000 parts is timed as any other (the timing is of matchers, not limits).
Options benchParserOptions(MatcherKind matcher);

struct BenchTiming {
    double medianSeconds = 0;
    double gbps = 0;       // body bytes / median seconds / 1e9
    bool parsedOk = false; // every run parsed the body without error and found body.parts parts
};

// Times a memchr pass over the body for a byte value it does not contain (generated bodies never contain 0xFF), so
// that one call reads every byte at the C library's best speed: the least work any matcher must do, the ceiling of
// the same run. Then the whole parser with each matcher (hashing off, data callbacks counted only), fed in chunks
// of chunkSize. The runs are interleaved, a round of each in turn. Returns memchr's timing, then each matcher's.
std::vector<BenchTiming> timeAgainstMemchr(const BenchBody& body, const std::vector<MatcherKind>& matchers, int runs,
                                           size_t chunkSize);

} // namespace upin::core
