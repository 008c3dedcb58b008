#include "upin/core/bench.h"

#include "upin/core/multipart_parser.h"
#include "xorshift.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

namespace upin::core {
namespace {

constexpr char kAbsentByte = char(0xFF);
constexpr std::string_view kBoundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";

struct XorShift : detail::XorShift64 {
    // Random bytes, except that 0xFF never occurs: the memchr ceiling searches for it, so that it scans every
    // byte without stopping (255 of 256 values keep the data as hard for the matchers as fully random bytes).
    void fill(std::string& out, size_t count)
    {
        size_t start = out.size();
        out.resize(start + count);
        for (size_t i = 0; i < count; i += 8) {
            uint64_t v = next();
            std::memcpy(out.data() + start + i, &v, std::min<size_t>(8, count - i));
        }
        for (size_t i = start; i < out.size(); ++i)
            if (out[i] == kAbsentByte)
                out[i] = 0x7E;
    }
};

// The delimiter with one byte changed, at random: half of them the last byte, which the SIMD filter rejects, the
// other half any byte between the CR and the last, which keeps first and last byte and must be compared. Which kind
// comes next is random, as is where the change falls, so that neither a branch predictor nor a candidate check
// that looks at only part of the pattern can learn the input.
void appendNearMiss(std::string& out, uint64_t random)
{
    std::string miss = "\r\n--" + std::string(kBoundary);
    const size_t at = (random & 1) ? miss.size() - 1 : 1 + (random >> 1) % (miss.size() - 2);
    miss[at] = miss[at] == '.' ? ',' : '.';
    out += miss;
}

void appendFileHeader(std::string& body, std::string_view name)
{
    body += "--";
    body += kBoundary;
    body += "\r\nContent-Disposition: form-data; name=\"";
    body += name;
    body += "\"; filename=\"bench.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n";
}

} // namespace

BenchBody makeBenchBody(BenchInput input, size_t size, uint64_t seed)
{
    BenchBody out;
    out.contentType = "multipart/form-data; boundary=" + std::string(kBoundary);
    XorShift rng{{seed * 0x9E3779B97F4A7C15ull + 1}};
    std::string& body = out.body;
    body.reserve(size + 256);
    if (input == BenchInput::ManyParts) {
        for (uint32_t i = 0; body.size() < size; ++i) {
            body += "--";
            body += kBoundary;
            body += "\r\nContent-Disposition: form-data; name=\"f" + std::to_string(i) + "\"\r\n\r\n";
            rng.fill(body, 1000);
            body += "\r\n";
            ++out.parts;
        }
    } else {
        appendFileHeader(body, "file");
        out.parts = 1;
        static constexpr std::string_view kLine =
            "The quick brown fox jumps over the lazy dog; line of CRLF-terminated text for the parser\r\n";
        while (body.size() < size) {
            switch (input) {
            case BenchInput::Random: rng.fill(body, std::min<size_t>(size - body.size(), 1 << 20)); break;
            case BenchInput::Crlf: body += "\r\n"; break;
            case BenchInput::NearMiss: appendNearMiss(body, rng.next()); break;
            case BenchInput::Mixed:
                rng.fill(body, 2048);
                for (int i = 0; i < 8; ++i)
                    body += kLine;
                appendNearMiss(body, rng.next());
                rng.fill(body, 1024);
                appendNearMiss(body, rng.next());
                break;
            case BenchInput::ManyParts: break;
            }
        }
        body += "\r\n";
    }
    body += "--";
    body += kBoundary;
    body += "--\r\n";
    return out;
}

namespace {

class CountingHandler final : public PartHandler {
public:
    void onPartData(ByteView data, uint64_t) override { bytes += data.size(); }
    void onPartEnd(uint64_t) override { ++parts; }
    uint64_t bytes = 0;
    uint32_t parts = 0;
};

using Work = std::function<bool()>;

// Each work once untimed (caches, page tables and clock speed settle), then rounds in which each runs once, so that a
// noisy stretch of a shared machine falls on all of them alike rather than on one's runs only. The median of each.
std::vector<BenchTiming> timeInRounds(size_t bytes, int runs, const std::vector<Work>& works)
{
    std::vector<std::vector<double>> seconds(works.size());
    std::vector<bool> ok(works.size());
    for (size_t w = 0; w < works.size(); ++w)
        ok[w] = works[w]();
    for (int round = 0; round < std::max(runs, 1); ++round)
        for (size_t w = 0; w < works.size(); ++w) {
            const auto start = std::chrono::steady_clock::now();
            ok[w] = works[w]() && ok[w];
            seconds[w].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    std::vector<BenchTiming> timings;
    for (size_t w = 0; w < works.size(); ++w) {
        std::sort(seconds[w].begin(), seconds[w].end());
        BenchTiming timing;
        timing.medianSeconds = seconds[w][seconds[w].size() / 2];
        timing.gbps = timing.medianSeconds > 0 ? double(bytes) / timing.medianSeconds / 1e9 : 0;
        timing.parsedOk = ok[w];
        timings.push_back(timing);
    }
    return timings;
}

// The whole parser (hashing off, data callbacks counted only) over body, fed in chunks of chunkSize.
Work parserWork(const BenchBody& body, MatcherKind matcher, size_t chunkSize)
{
    const Options options = benchParserOptions(matcher);
    chunkSize = std::max<size_t>(chunkSize, 1);
    return [&body, options, chunkSize] {
        const ByteView all = body.body;
        auto parser = MultipartParser::fromContentType(body.contentType, options);
        if (!parser)
            return false;
        CountingHandler handler;
        Result<void> status;
        for (size_t pos = 0; pos < all.size() && status; pos += chunkSize)
            status = parser->feed(all.substr(pos, chunkSize), handler);
        if (status)
            status = parser->finish(handler);
        return status.has_value() && handler.parts == body.parts;
    };
}

// A memchr pass over the same bytes for a byte value the body does not contain (0xFF for generated bodies), so that
// one call reads every byte; for a stored body that has every value, the rarest one, restarting after each hit.
Work memchrWork(const BenchBody& body)
{
    std::vector<uint64_t> counts(256, 0);
    for (unsigned char c : body.body)
        ++counts[c];
    int needle = 0xFF;
    for (int value = 0xFF; value >= 0; --value)
        if (counts[size_t(value)] < counts[size_t(needle)])
            needle = value;
    return [&body, needle] {
        const char* data = body.body.data();
        const size_t size = body.body.size();
        size_t hits = 0;
        for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, needle, size_t(data + size - p))));) {
            ++hits;
            ++p;
        }
        volatile size_t sink = hits; // the search's result is used, so the call is not dropped
        (void)sink;
        return true;
    };
}

} // namespace

std::vector<BenchTiming> timeAgainstMemchr(const BenchBody& body, const std::vector<MatcherKind>& matchers, int runs,
                                           size_t chunkSize)
{
    std::vector<Work> works{memchrWork(body)};
    for (MatcherKind matcher : matchers)
        works.push_back(parserWork(body, matcher, chunkSize));
    return timeInRounds(body.body.size(), runs, works);
}

Options benchParserOptions(MatcherKind matcher)
{
    Options options;
    options.matcher = matcher;
    options.maxParts = UINT32_MAX;
    options.maxFieldSize = options.maxPartSize;
    return options;
}

} // namespace upin::core
