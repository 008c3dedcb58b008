// Digests, and the pipeline that hashes and stores off the reading thread. (Every parser test also feeds its bodies
// through a pipeline and checks both hashes: support/chunking.cpp.)

#include "upin/core/digest.h"
#include "upin/core/part_pipeline.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

using namespace upin::core;

TEST_CASE("digests are the hex that sha256sum and xxh128sum print, in one piece or many", "[digest]")
{
    // printf '' | xxh128sum; printf hello | xxh128sum; printf hello | sha256sum
    CHECK(Digest::hex(HashKind::Xxh3, "") == "99aa06d3014798d86001c324468d497f");
    CHECK(Digest::hex(HashKind::Xxh3, "hello") == "b5e9c1ad071b3e7fc779cfaa5e523818");
    CHECK(Digest::hex(HashKind::Sha256, "hello") == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    CHECK(Digest::hex(HashKind::None, "hello").empty());
    for (HashKind kind : {HashKind::Sha256, HashKind::Xxh3}) {
        std::string data(1 << 20, '\0');
        for (size_t i = 0; i < data.size(); ++i)
            data[i] = char(i * 7919 % 251);
        Digest streamed(kind);
        for (size_t at = 0; at < data.size(); at += 1 + at % 4099)
            streamed.update(ByteView(data).substr(at, 1 + at % 4099));
        CHECK(streamed.finishHex() == Digest::hex(kind, data));
        streamed.update("hello"); // finishHex() resets: the object hashes again from nothing
        CHECK(streamed.finishHex() == Digest::hex(kind, "hello"));
    }
    CHECK(kHashNames.find("xxh3") == HashKind::Xxh3);
    CHECK_FALSE(kHashNames.find("md5").has_value());
}

TEST_CASE("a block pool lends a bounded number of blocks and says when a waiting reader may read again", "[pipeline]")
{
    BlockPool pool(64, 4);
    std::atomic<int> calls = 0;
    pool.setOnAvailable([&] { ++calls; });
    std::vector<BlockPool::Block> held;
    for (int i = 0; i < 4; ++i) {
        held.push_back(pool.tryAcquire());
        REQUIRE(held.back() != nullptr);
        CHECK(held.back()->size() == 64);
    }
    CHECK(pool.tryAcquire() == nullptr); // all four lent: the reader stops
    held.pop_back();
    CHECK(calls == 0); // one back is not yet half: the reader is not woken for each block
    held.pop_back();
    CHECK(calls == 1);
    CHECK(pool.tryAcquire() != nullptr);
    held.clear();
    CHECK(calls == 1); // nobody was waiting
    // acquire() waits for a block another thread lets go.
    std::vector<BlockPool::Block> all;
    all.reserve(4);
    for (int i = 0; i < 4; ++i)
        all.push_back(pool.acquire());
    std::thread other([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        all.pop_back();
    });
    BlockPool::Block waited = pool.acquire();
    other.join();
    CHECK(waited != nullptr);
    all.clear();
    waited.reset();
    pool.releaseIdle(1);
    for (int i = 0; i < 4; ++i) // freed blocks are allocated again when needed
        all.push_back(pool.tryAcquire());
    CHECK(all.back() != nullptr);
}

TEST_CASE("pools that share a budget hold no more than it allows beyond one block each", "[pipeline]")
{
    auto budget = std::make_shared<BlockBudget>(2);
    std::vector<BlockPool::Block> a, b;
    {
        BlockPool first(16, 8, budget), second(16, 8, budget);
        for (int i = 0; i < 3; ++i)
            a.push_back(first.tryAcquire()); // its own block, and two from the budget
        CHECK(a.back() != nullptr);
        CHECK(first.tryAcquire() == nullptr); // the budget is spent
        b.push_back(second.tryAcquire());     // a pool's first block needs no budget
        CHECK(b.back() != nullptr);
        CHECK(second.tryAcquire() == nullptr);
        int woken = 0;
        first.setOnAvailable([&] { ++woken; });
        a.pop_back();
        a.pop_back(); // two of its three back: the pool that waited may read again
        CHECK(woken == 1);
        first.releaseIdle(1); // one kept, one given back
        CHECK(budget->left() == 1);
        CHECK(second.tryAcquire() != nullptr);
        a.clear();
        b.clear();
    }
    CHECK(budget->left() == 2); // pools that end give back what they borrowed
}

namespace {
// Records what it is called with, slowly: the pipeline must hold the blocks until then.
struct SlowRecorder final : PartHandler {
    std::string seen;
    std::string raw;
    std::thread::id thread;
    void onPartBegin(uint32_t index, uint64_t) override { seen += "begin " + std::to_string(index) + ";"; }
    void onHeader(std::string_view name, std::string_view value) override
    {
        seen += std::string(name) + "=" + std::string(value) + ";";
    }
    void onPartData(ByteView data, uint64_t offset) override
    {
        thread = std::this_thread::get_id();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        seen += "data@" + std::to_string(offset) + ":" + std::string(data) + ";";
    }
    void onPartEnd(uint64_t offset) override { seen += "end@" + std::to_string(offset) + ";"; }
};
} // namespace

TEST_CASE("a pipeline hands callbacks to its thread in order, holding blocks instead of copying them", "[pipeline]")
{
    SlowRecorder target;
    BlockPool pool(8, 2);
    std::string expected;
    {
        PartPipeline pipeline(target, [&](ByteView data) { target.raw += std::string(data); });
        pipeline.onPartBegin(0, 0);
        std::string name = "name", value = "field";
        pipeline.onHeader(name, value);
        name = "gone", value = "gone"; // strings are copied
        expected = "begin 0;name=field;";
        for (int i = 0; i < 20; ++i) {
            // Two blocks: this waits for the slow target, and a block comes back (to be written over here) only once
            // the target has seen its bytes.
            BlockPool::Block block = pool.acquire();
            const std::string text = "chunk" + std::to_string(i % 10);
            std::copy(text.begin(), text.end(), block->begin());
            pipeline.setSource(block);
            pipeline.onBody(ByteView(block->data(), text.size()));
            pipeline.onPartData(ByteView(block->data(), text.size()), uint64_t(i));
            pipeline.flush();
            expected += "data@" + std::to_string(i) + ":" + text + ";";
        }
        pipeline.setSource(nullptr);
        std::string local = "copied";
        pipeline.onPartData(local, 99); // not in a block: copied, so it may change at once
        local = "XXXXXX";
        pipeline.onPartEnd(100);
        expected += "data@99:copied;end@100;";
        pipeline.drain();
        CHECK(target.seen == expected);
    }
    CHECK(target.thread != std::this_thread::get_id());
    CHECK(target.raw.size() == size_t{20} * 6);
}

TEST_CASE("a flushed pipeline lets its source go: a reader with a one-block pool gets the block back", "[pipeline]")
{
    SlowRecorder target;
    BlockPool pool(8, 1); // what a connection has left when the shared budget is spent
    PartPipeline pipeline(target);
    pipeline.onPartBegin(0, 0);
    for (int i = 0; i < 3; ++i) {
        BlockPool::Block block = pool.tryAcquire();
        REQUIRE(block); // the last read's block came back once the target had seen it
        std::copy_n("abcdefgh", 8, block->begin());
        pipeline.setSource(block);
        pipeline.onPartData(ByteView(block->data(), 8), uint64_t(i) * 8);
        pipeline.flush();
        block.reset();
        pipeline.drain();
    }
    pipeline.onPartEnd(24);
    pipeline.drain();
    CHECK(target.seen == "begin 0;data@0:abcdefgh;data@8:abcdefgh;data@16:abcdefgh;end@24;");
}
