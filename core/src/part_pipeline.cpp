#include "upin/core/part_pipeline.h"

#include <algorithm>
#include <cstring>
#include <ctime>

namespace upin::core {

namespace {
// Batches without pinned blocks (copied bytes) are bounded by count instead: the caller waits past this many.
constexpr size_t kMaxQueuedBatches = 16;
} // namespace

namespace {
uint64_t cpuNanoseconds(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return uint64_t(now.tv_sec) * 1'000'000'000u + uint64_t(now.tv_nsec);
}
} // namespace

uint64_t threadCpuNanoseconds()
{
    return cpuNanoseconds(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t processCpuNanoseconds()
{
    return cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID);
}

bool BlockBudget::take()
{
    size_t left = m_left.load();
    while (left > 0 && !m_left.compare_exchange_weak(left, left - 1)) {}
    return left > 0;
}

struct BlockPool::State {
    size_t blockSize;
    size_t count;
    std::shared_ptr<BlockBudget> budget;
    size_t allocated = 0;
    size_t borrowed = 0; // of allocated, taken from budget
    std::vector<std::unique_ptr<std::vector<char>>> free;
    std::mutex mutex;
    std::condition_variable returned;
    std::function<void()> onAvailable;
    bool someoneWaits = false; // a tryAcquire() found no block
    ~State()
    {
        if (budget)
            budget->giveBack(borrowed);
    }
};

BlockPool::BlockPool(size_t blockSize, size_t count, std::shared_ptr<BlockBudget> budget)
    : m_state(std::make_shared<State>())
{
    m_state->blockSize = blockSize;
    m_state->count = count == 0 ? 1 : count;
    m_state->budget = std::move(budget);
}

BlockPool::~BlockPool()
{
    setOnAvailable({});
}

size_t BlockPool::blockSize() const
{
    return m_state->blockSize;
}

void BlockPool::releaseIdle(size_t keep)
{
    std::vector<std::unique_ptr<std::vector<char>>> released;
    {
        std::lock_guard lock(m_state->mutex);
        while (m_state->free.size() > keep) {
            released.push_back(std::move(m_state->free.back()));
            m_state->free.pop_back();
            --m_state->allocated;
            if (m_state->borrowed > 0) {
                --m_state->borrowed;
                m_state->budget->giveBack(1);
            }
        }
    }
}

void BlockPool::setOnAvailable(std::function<void()> callback)
{
    std::lock_guard lock(m_state->mutex);
    m_state->onAvailable = std::move(callback);
}

BlockPool::Block BlockPool::tryAcquire()
{
    std::unique_lock lock(m_state->mutex);
    std::unique_ptr<std::vector<char>> block;
    if (!m_state->free.empty()) {
        block = std::move(m_state->free.back());
        m_state->free.pop_back();
    } else if (m_state->allocated < m_state->count &&
               (m_state->allocated == 0 || !m_state->budget || m_state->budget->take())) {
        m_state->borrowed += m_state->allocated > 0 && m_state->budget ? 1 : 0;
        ++m_state->allocated;
        lock.unlock();
        block = std::make_unique<std::vector<char>>(m_state->blockSize);
    } else {
        m_state->someoneWaits = true;
        return nullptr;
    }
    return lend(std::move(block), m_state);
}

BlockPool::Block BlockPool::acquire()
{
    for (;;) {
        if (Block block = tryAcquire())
            return block;
        std::unique_lock lock(m_state->mutex);
        m_state->returned.wait(lock, [&] { return !m_state->free.empty(); });
    }
}

// The block comes back to the pool's free list when its last holder lets go, on that holder's thread.
BlockPool::Block BlockPool::lend(std::unique_ptr<std::vector<char>> block, const std::shared_ptr<State>& state)
{
    return {block.release(), [state](std::vector<char>* raw) {
                std::function<void()> notify;
                {
                    std::lock_guard lock(state->mutex);
                    state->free.emplace_back(raw);
                    // A reader that found no block is called back once half of them are free, not for each one:
                    // it then reads several in a row instead of waking up (and being woken) once per block.
                    if (state->someoneWaits && state->free.size() * 2 >= state->allocated) {
                        state->someoneWaits = false;
                        notify = state->onAvailable;
                    }
                }
                state->returned.notify_all();
                if (notify)
                    notify();
            }};
}

PartPipeline::PartPipeline(PartHandler& target, std::function<void(ByteView)> raw)
    : m_target(target), m_raw(std::move(raw)), m_thread([this] { run(); })
{}

PartPipeline::~PartPipeline()
{
    drain();
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void PartPipeline::setSource(BlockPool::Block block)
{
    m_source = std::move(block);
}

ByteView PartPipeline::Copies::keep(ByteView bytes)
{
    // The first chunk small (most batches copy a few bytes held back at a read's end, if any), then doubling.
    constexpr size_t kFirstChunk = 1024;
    constexpr size_t kLargestChunk = size_t{64} * 1024;
    if (bytes.empty())
        return {};
    if (bytes.size() > m_capacity - m_used) { // the rest of the last chunk is left unused
        m_capacity = std::max(bytes.size(), std::clamp(m_capacity * 2, kFirstChunk, kLargestChunk));
        m_chunks.push_back(std::make_unique_for_overwrite<char[]>(m_capacity));
        m_used = 0;
    }
    char* out = m_chunks.back().get() + m_used;
    std::memcpy(out, bytes.data(), bytes.size());
    m_used += bytes.size();
    return {out, bytes.size()};
}

ByteView PartPipeline::hold(ByteView bytes)
{
    const char* begin = m_source ? m_source->data() : nullptr;
    if (!begin || bytes.data() < begin || bytes.data() + bytes.size() > begin + m_source->size())
        return m_batch.copies.keep(bytes);
    if (m_batch.pins.empty() || m_batch.pins.back() != m_source)
        m_batch.pins.push_back(m_source);
    return bytes;
}

void PartPipeline::onPartBegin(uint32_t index, uint64_t offset)
{
    m_batch.items.push_back({Item::Kind::Begin, index, offset, {}, {}});
}

void PartPipeline::onHeader(std::string_view name, std::string_view value)
{
    m_batch.items.push_back({Item::Kind::Header, 0, 0, hold(name), hold(value)});
}

void PartPipeline::onHeadersComplete(uint64_t offset)
{
    m_batch.items.push_back({Item::Kind::HeadersComplete, 0, offset, {}, {}});
}

void PartPipeline::onPartData(ByteView data, uint64_t offset)
{
    m_batch.items.push_back({Item::Kind::Data, 0, offset, hold(data), {}});
}

void PartPipeline::onPartEnd(uint64_t offset)
{
    m_batch.items.push_back({Item::Kind::End, 0, offset, {}, {}});
}

void PartPipeline::onDiagnostic(const Diagnostic& diagnostic)
{
    m_batch.items.push_back({Item::Kind::Diagnostic, uint32_t(m_batch.diagnostics.size()), 0, {}, {}});
    m_batch.diagnostics.push_back(diagnostic);
}

void PartPipeline::onBody(ByteView data)
{
    if (m_raw)
        m_batch.items.push_back({Item::Kind::Raw, 0, 0, hold(data), {}});
}

void PartPipeline::flush()
{
    // The batch pins the blocks it needs; the source is let go here, or a reader whose pool has one block left
    // would wait for ever for the block this pipeline still held (found with 16 uploads through forward mode).
    m_source.reset();
    if (m_batch.items.empty())
        return;
    {
        std::unique_lock lock(m_mutex);
        m_idle.wait(lock, [&] { return m_queue.size() < kMaxQueuedBatches; });
        m_queue.push_back(std::move(m_batch));
    }
    m_batch = {};
    m_wake.notify_one();
}

void PartPipeline::drain()
{
    flush();
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [&] { return m_queue.empty() && !m_busy; });
}

void PartPipeline::run()
{
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(m_mutex);
            m_busy = false;
            m_idle.notify_all();
            m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, with nothing left
            batch = std::move(m_queue.front());
            m_queue.pop_front();
            m_busy = true;
        }
        for (const Item& item : batch.items)
            handle(item, batch);
        m_cpuNs = threadCpuNanoseconds();
        // batch goes out of scope here: its pinned blocks return to their pool before the next wait
    }
}

void PartPipeline::handle(const Item& item, const Batch& batch)
{
    switch (item.kind) {
    case Item::Kind::Begin: m_target.onPartBegin(item.index, item.offset); break;
    case Item::Kind::Header: m_target.onHeader(item.bytes, item.value); break;
    case Item::Kind::HeadersComplete: m_target.onHeadersComplete(item.offset); break;
    case Item::Kind::Data: m_target.onPartData(item.bytes, item.offset); break;
    case Item::Kind::End: m_target.onPartEnd(item.offset); break;
    case Item::Kind::Diagnostic: m_target.onDiagnostic(batch.diagnostics[item.index]); break;
    case Item::Kind::Raw: m_raw(item.bytes); break;
    }
}

} // namespace upin::core
