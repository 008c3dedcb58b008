#pragma once
// The parser benchmark: request bodies of several shapes and timed parses of them, shared by the CLI `bench`
// command, the GUI's matcher shoot-out and the tests. Timing only; nothing here prints.

#include "upin/core/delimiter_matcher.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

struct BenchTiming {
    double medianSeconds = 0;
    double gbps = 0;       // body bytes / median seconds / 1e9
    bool parsedOk = false; // every run parsed the body without error and found body.parts parts
};

// Times the whole parser (hashing off, data callbacks counted only) over body, fed in chunks of chunkSize.
BenchTiming timeParser(const BenchBody& body, MatcherKind matcher, int runs, size_t chunkSize);
// Times a memchr pass over the same bytes for a byte value the body does not contain (generated bodies never
// contain 0xFF), so one call reads every byte at the C library's best speed: the least work any matcher must do,
// the ceiling of the same run. A stored body holding every value gets its rarest one, restarting after each hit.
BenchTiming timeMemchrCeiling(const BenchBody& body, int runs);

} // namespace upin::core
