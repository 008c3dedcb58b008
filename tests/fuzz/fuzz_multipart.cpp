// libFuzzer target: the parser on arbitrary bodies and chunkings, and a differential check that all three matcher
// strategies, and a feed through a PartPipeline (from pooled blocks, as the listener reads), produce the same log.
// Input: byte 0 = flags (strict, tight header limits), byte 1 = chunk-size seed, rest = body. The seed's low six
// bits give a chunk cap of 1-64 bytes, its top two scale it by 1, 8, 64 or 512: the SIMD search's vector loop
// needs 128 bytes and more in one chunk, and small caps alone reached it only when a seed of 0 fed the body whole.
// The boundary is guessed from the body (so corpus bodies are good seeds), else "boundary".

#include "upin/core/event_recorder.h"
#include "upin/core/part_pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

using namespace upin::core;

namespace {

// Feeds body in chunks of 1 to maxChunk bytes (sizes drawn from seed), or whole when maxChunk is 0.
std::vector<std::string> runOnce(std::string_view body, const std::string& boundary, Options options, uint8_t seed,
                                 size_t maxChunk, bool pipelined = false)
{
    auto parser = MultipartParser::fromBoundary(boundary, options);
    if (!parser)
        return {"bad boundary"};
    EventRecorder recorder({HashKind::None, true, options});
    std::optional<PartPipeline> pipeline;
    BlockPool blocks(64, 8); // chunks are at most 64 bytes here; a batch holds up to 4 of them
    if (pipelined)
        pipeline.emplace(recorder);
    PartHandler& handler = pipeline ? static_cast<PartHandler&>(*pipeline) : recorder;
    Result<void> status;
    uint32_t rng = seed * 2654435761u + 1;
    for (size_t pos = 0, chunks = 0; pos < body.size() && status; ++chunks) {
        rng = rng * 1103515245u + 12345u;
        size_t size = std::min(body.size() - pos, maxChunk == 0 ? body.size() : 1 + (rng >> 16) % maxChunk);
        std::string_view chunk = body.substr(pos, size);
        if (pipeline) {
            BlockPool::Block block = blocks.acquire();
            std::copy(chunk.begin(), chunk.end(), block->begin());
            chunk = std::string_view(block->data(), size);
            pipeline->setSource(std::move(block));
        }
        status = parser->feed(chunk, handler);
        if (pipeline && chunks % 4 == 3) // batches of several reads: fewer thread hand-offs per input
            pipeline->flush();
        pos += size;
    }
    if (status)
        status = parser->finish(handler);
    pipeline.reset(); // drained
    ParseReport report = recorder.takeReport(status, *parser);
    return recorder.log();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    Options options;
    options.strict = data[0] & 1;
    options.maxParts = 64;
    // Bit 1: header limits about the size of real blocks, so that a block at exactly a limit is read whole (in one
    // pass) by the reference run and line by line by the chunked ones.
    const bool tight = data[0] & 2;
    options.maxHeaderBytes = tight ? 16 + size_t(data[0] >> 2) * 2 : 512; // 16 to 142 bytes
    options.maxHeadersPerPart = tight ? 1 + size_t(data[0] >> 5) : 64;    // 1 to 8 lines
    options.maxFieldSize = 4096;
    std::string_view body(reinterpret_cast<const char*>(data) + 2, size - 2);
    std::string boundary = MultipartParser::guessBoundary(body);
    if (boundary.empty())
        boundary = "boundary";
    options.matcher = MatcherKind::Kmp;
    auto reference = runOnce(body, boundary, options, 0, 0); // whole
    const size_t maxChunk = size_t(data[1] % 64 + 1) << ((data[1] >> 6) * 3);
    for (auto kind : kAllMatchers) {
        options.matcher = kind;
        if (runOnce(body, boundary, options, data[1], maxChunk) != reference)
            std::abort(); // strategies or chunkings disagree
    }
    options.matcher = MatcherKind::Simd;
    if (runOnce(body, boundary, options, data[1], data[1] % 64 + 1, true) != reference) // blocks of 64
        std::abort(); // the pipeline lost, reordered or changed a callback
    return 0;
}
