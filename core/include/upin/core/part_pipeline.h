#pragma once
// Integrity at wire speed: a PartHandler (and, optionally, a BodySink) run on a thread of their own, so that what
// they do with the bytes (hash every part, write it to disk) overlaps reading and parsing the next bytes instead
// of following them. Without it one thread reads, parses, hashes and writes in turn, and the slowest of those
// (SHA-256, ~2 GB/s) sets the pace of the socket.
//
// Contract:
// - Callbacks made on the pipeline are queued in order and handed to the thread at flush(); the target sees them
//   in the same order, on the pipeline's thread, never two at once.
// - Bytes (part data, raw body) are not copied when they lie in the block last given to setSource(): the batch
//   holds that block until the target has seen them. Bytes anywhere else are copied. Blocks come from a BlockPool
//   with a fixed number of blocks, so the bytes in flight are bounded, and a reader that finds the pool empty
//   waits (or, with tryAcquire(), stops reading): a slow target slows the reader, and over TCP the client.
// - drain() returns when everything queued has been handled: only then may the target be read from another
//   thread (its report, its files). The destructor drains.
//
//     BlockPool pool(256 * 1024, 4);
//     PartPipeline pipeline(recorder);
//     while (auto block = pool.acquire(); (n = read(fd, block->data(), block->size())) > 0) {
//         pipeline.setSource(block);
//         status = parser.feed({block->data(), n}, pipeline);
//         pipeline.flush();
//     }
//     pipeline.drain(); // the recorder's report is complete

#include "upin/core/http.h"
#include "upin/core/multipart_parser.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace upin::core {

// CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID): where an upload's time went, per stage.
uint64_t threadCpuNanoseconds();
// CPU time of the whole process, every thread (CLOCK_PROCESS_CPUTIME_ID).
uint64_t processCpuNanoseconds();

// Blocks several pools may allocate between them beyond each pool's first: a listener's connections share one, so
// that many uploads at once hold no more read-ahead than a few (each still has its one block to read into).
class BlockBudget {
public:
    explicit BlockBudget(size_t blocks) : m_left(blocks) {}
    bool take();
    void giveBack(size_t blocks) { m_left += blocks; }
    size_t left() const { return m_left; }

private:
    std::atomic<size_t> m_left;
};

class BlockPool {
public:
    using Block = std::shared_ptr<std::vector<char>>; // goes back to the pool when the last holder lets go

    // Blocks are allocated when first needed, up to count; beyond the first, only while budget (when given) lasts.
    BlockPool(size_t blockSize, size_t count, std::shared_ptr<BlockBudget> budget = {});
    ~BlockPool();
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;

    Block acquire();    // waits while every block is in use
    Block tryAcquire(); // nullptr while every block is in use; then onAvailable is called when one comes back
    // Called on whichever thread lets a block go, after a tryAcquire() found none. Set it before use, or clear it.
    void setOnAvailable(std::function<void()> callback);
    size_t blockSize() const;
    // Frees the unused blocks beyond keep (a connection between uploads needs no more than one).
    void releaseIdle(size_t keep);

private:
    struct State;
    static Block lend(std::unique_ptr<std::vector<char>> block, const std::shared_ptr<State>& state);
    std::shared_ptr<State> m_state; // shared with the blocks' deleters: a block may outlive a scope, not the pool
};

class PartPipeline final : public PartHandler, public BodySink {
public:
    // raw, when given, receives the bytes passed to onBody(), in order with the part callbacks.
    explicit PartPipeline(PartHandler& target, std::function<void(ByteView)> raw = {});
    ~PartPipeline() override;
    PartPipeline(const PartPipeline&) = delete;
    PartPipeline& operator=(const PartPipeline&) = delete;

    // The block the next views lie in, until flush() (which lets it go: set it again for the next read); nullptr:
    // copy them all.
    void setSource(BlockPool::Block block);

    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void onDiagnostic(const Diagnostic& diagnostic) override;
    void onBody(ByteView data) override; // to raw

    void flush(); // hands what was queued since the last flush to the thread
    void drain(); // flush, then wait until the thread has handled everything
    // CPU time the pipeline's thread has used, up to the last batch it handled (read it after drain()).
    uint64_t cpuNanoseconds() const { return m_cpuNs.load(std::memory_order_relaxed); }

private:
    // Small and flat: a form of 10,000 fields queues 50,000 of them. Views point into a pinned block or into the
    // batch's copies, which stay put until the batch is handled.
    struct Item {
        enum class Kind : uint8_t { Begin, Header, HeadersComplete, Data, End, Diagnostic, Raw } kind;
        uint32_t index = 0;  // Begin: the part's; Diagnostic: in the batch's diagnostics
        uint64_t offset = 0; // Begin, HeadersComplete, Data, End
        ByteView bytes;      // Data, Raw; Header: the name
        ByteView value;      // Header: the value
    };
    // Bytes that lie in no block the batch can pin, copied into chunks that never move (a copy a string each cost
    // an allocation per header, and their frees on the other thread contended for malloc's locks).
    class Copies {
    public:
        ByteView keep(ByteView bytes);

    private:
        std::vector<std::unique_ptr<char[]>> m_chunks;
        size_t m_used = 0;
        size_t m_capacity = 0;
    };
    struct Batch {
        std::vector<Item> items;
        std::vector<Diagnostic> diagnostics;
        std::vector<BlockPool::Block> pins;
        Copies copies;
    };
    ByteView hold(ByteView bytes); // pinned when they lie in the source block, else copied
    void run();
    void handle(const Item& item, const Batch& batch);

    PartHandler& m_target;
    std::function<void(ByteView)> m_raw;
    BlockPool::Block m_source;
    Batch m_batch; // being filled by the caller's thread
    std::mutex m_mutex;
    std::condition_variable m_wake; // the thread: a batch arrived, or stop
    std::condition_variable m_idle; // drain(), flush(): batches were handled
    std::deque<Batch> m_queue;      // handed over, not yet handled
    bool m_busy = false;            // the thread is handling a batch
    bool m_stop = false;
    std::atomic<uint64_t> m_cpuNs = 0;
    std::thread m_thread; // last: started once everything above exists
};

// Hands every callback to two handlers in turn: the parser feeds one handler, and a capture both hashes (one
// pipeline) and stores (another).
class PartTee final : public PartHandler {
public:
    PartTee(PartHandler& first, PartHandler& second) : m_first(first), m_second(second) {}
    void onPartBegin(uint32_t index, uint64_t offset) override
    {
        m_first.onPartBegin(index, offset);
        m_second.onPartBegin(index, offset);
    }
    void onHeader(std::string_view name, std::string_view value) override
    {
        m_first.onHeader(name, value);
        m_second.onHeader(name, value);
    }
    void onHeadersComplete(uint64_t offset) override
    {
        m_first.onHeadersComplete(offset);
        m_second.onHeadersComplete(offset);
    }
    void onPartData(ByteView data, uint64_t offset) override
    {
        m_first.onPartData(data, offset);
        m_second.onPartData(data, offset);
    }
    void onPartEnd(uint64_t offset) override
    {
        m_first.onPartEnd(offset);
        m_second.onPartEnd(offset);
    }
    void onDiagnostic(const Diagnostic& diagnostic) override
    {
        m_first.onDiagnostic(diagnostic);
        m_second.onDiagnostic(diagnostic);
    }

private:
    PartHandler& m_first;
    PartHandler& m_second;
};

} // namespace upin::core
