#pragma once
// A multipart/form-data request body generated while it is read: part headers, then file contents read in
// pieces, synthetic bytes generated on the fly, field values. Nothing is loaded whole, whatever the size.
// Each part is hashed (the plan's hash) as its bytes are made, so the sender knows what it sent without a second
// pass. A thread of its own reads and hashes ahead of the socket, into a bounded set of blocks (4 MiB): the
// thread that sends only copies them out, and the hashing runs on a third, a PartPipeline fed with each part's
// bytes: reading the files, hashing and sending all overlap instead of taking turns.

#include "sender/lending_body.h"
#include "sender/upload_plan.h"

#include "upin/core/digest.h"

#include "upin/core/part_pipeline.h"

#include <QFile>
#include <QIODevice>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace upin::app {

class MultipartBody final : public QIODevice, public LendingBody, private core::PartHandler {
    Q_OBJECT
public:
    MultipartBody(const UploadPlan& plan, const QString& boundary, QObject* parent = nullptr);
    ~MultipartBody() override; // stops the read-ahead thread

    // Opens for reading and starts reading ahead; false with errorString() when a file cannot be read.
    bool openBody();
    qint64 totalSize() const { return m_total; } // the Content-Length
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override;
    bool atEnd() const override { return m_sent >= m_total; }
    Piece lend(qint64 maxSize) override; // the bytes as the read-ahead thread made them, in their block
    int blocksToLend() const override { return m_blocksToLend; }

    struct PartInfo {
        QString name;
        QString filename;
        quint64 size = 0;
        QString digest; // set once the part has been sent completely (and hashing is on)
    };
    std::vector<PartInfo> parts() const;
    // Where each delimiter that follows a part begins ("\r\n--boundary"), in body offsets.
    std::vector<quint64> delimiterOffsets() const;
    // CPU time of the read-ahead thread and of the hashing thread (-1 without hashing) so far, ms; read after the
    // body has been sent and parts() has waited for its digests.
    double readCpuMs() const { return nsToMs(m_readCpuNs.load(std::memory_order_relaxed)); }
    double hashCpuMs() const { return m_hashPipeline ? nsToMs(m_hashCpuNs.load(std::memory_order_relaxed)) : -1; }

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    Piece nextPiece(qint64 maxSize, bool wait);
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    struct Segment {
        enum class Kind : uint8_t { Literal, File, Synthetic } kind;
        QByteArray literal;
        QString path;
        quint64 size = 0;
        PlanPart::Fill fill = PlanPart::Fill::Random;
        int part = -1;                             // part index whose body this is, -1 for headers and delimiters
        const core::ShapeContent* shape = nullptr; // Synthetic: shaped content, else fill
    };
    // The read-ahead thread's side: makes the body's next bytes and hashes them.
    void readAhead();
    qint64 generate(char* data, qint64 maxSize, QString& error);
    void finishSegment();
    // The hashing pipeline's side: the digest of each part.
    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onPartData(core::ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void fillSynthetic(char* out, qint64 count, PlanPart::Fill fill);

    std::vector<Segment> m_segments;
    std::map<core::BodyShape, std::shared_ptr<const core::ShapeContent>> m_shapes; // a cycle per shape, for all parts
    std::vector<PartInfo> m_parts;                                                 // digests written under m_mutex
    std::vector<quint64> m_partEnds; // body offset just past each part's last byte
    std::vector<core::Digest> m_hashers;
    core::HashKind m_hash;
    size_t m_current = 0;
    quint64 m_inSegment = 0;
    quint64 m_total = 0;
    QFile m_file;
    quint64 m_rng = 0x9E3779B97F4A7C15ull;

    // Between the two threads.
    struct Chunk {
        core::BlockPool::Block block;
        qint64 size = 0;
    };
    core::BlockPool m_blocks;
    mutable std::mutex m_mutex;
    std::condition_variable m_filled;
    mutable std::condition_variable m_hashed; // a part's digest is ready
    std::deque<Chunk> m_ready;
    bool m_produced = false; // the whole body is in m_ready (or was taken)
    bool m_stop = false;
    QString m_readError;
    std::atomic<uint64_t> m_readCpuNs = 0; // the read-ahead thread's CPU time, after each block
    std::atomic<uint64_t> m_hashCpuNs = 0; // the hashing thread's, at each part's end
    int m_blocksToLend = 0;
    static double nsToMs(uint64_t ns) { return ns == 0 ? -1 : double(ns) / 1e6; } // -1: it has not run
    std::thread m_reader;
    std::unique_ptr<core::PartPipeline> m_hashPipeline; // when hashing; fed by the read-ahead thread
    size_t m_hashing = 0;                               // the part m_hashPipeline's thread is hashing

    // The sending side's.
    Chunk m_chunk; // being copied out
    qint64 m_chunkPos = 0;
    quint64 m_sent = 0;
};

} // namespace upin::app
