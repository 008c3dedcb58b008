#include "sender/multipart_body.h"

#include <QFileInfo>

#include <cstring>

namespace upin::app {

namespace {

// Content-Disposition parameter value: quotes and backslashes escaped, CR/LF dropped (they would end the header).
QByteArray quoted(const QString& value)
{
    QByteArray out = value.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\r', "").replace('\n', "");
    return '"' + out + '"';
}

} // namespace

namespace {
// 16 blocks of 256 KiB read ahead: as the listener's reads, enough that neither thread waits on the other when
// the scheduler runs something else for a moment.
constexpr size_t kBlockSize = size_t{256} * 1024;
constexpr size_t kBlocks = 16;
constexpr int kBlocksToLend = 4; // of kBlocks: the rest keep the read-ahead going (lean plans, 2 blocks: none)
} // namespace

MultipartBody::MultipartBody(const UploadPlan& plan, const QString& boundary, QObject* parent)
    : QIODevice(parent), m_hash(plan.hash), m_blocks(kBlockSize, plan.lean ? 2 : kBlocks),
      m_blocksToLend(plan.lean ? 0 : kBlocksToLend)
{
    const QByteArray dashBoundary = "--" + boundary.toLatin1();
    for (const auto& part : plan.parts) {
        const int index = int(m_parts.size());
        PartInfo info;
        info.name = part.name;
        QByteArray head = dashBoundary + "\r\nContent-Disposition: form-data; name=" + quoted(part.name);
        Segment body{Segment::Kind::Literal, {}, {}, 0, part.fill, index};
        if (part.kind == PlanPart::Kind::Field) {
            body.literal = part.value.toUtf8();
            body.size = quint64(body.literal.size());
        } else if (part.kind == PlanPart::Kind::FieldFile) {
            body.kind = Segment::Kind::File;
            body.path = part.path;
            body.size = quint64(QFileInfo(part.path).size());
        } else {
            info.filename = !part.filename.isEmpty()            ? part.filename
                            : part.kind == PlanPart::Kind::File ? QFileInfo(part.path).fileName()
                                                                : part.name + QStringLiteral(".bin");
            head += "; filename=" + quoted(info.filename);
            QString type = part.contentType.isEmpty() ? guessContentType(info.filename) : part.contentType;
            head += "\r\nContent-Type: " + type.toUtf8();
            body.kind = part.kind == PlanPart::Kind::File ? Segment::Kind::File : Segment::Kind::Synthetic;
            body.path = part.path;
            body.size = part.kind == PlanPart::Kind::File ? quint64(QFileInfo(part.path).size()) : part.size;
            if (part.kind == PlanPart::Kind::Synthetic && part.shape) {
                auto& shape = m_shapes[*part.shape];
                if (!shape)
                    shape = core::ShapeContent::shared(*part.shape, boundary.toStdString());
                body.shape = shape.get();
            }
        }
        const bool field = part.kind == PlanPart::Kind::Field || part.kind == PlanPart::Kind::FieldFile;
        if (field && !part.contentType.isEmpty())
            head += "\r\nContent-Type: " + part.contentType.toUtf8();
        if (!part.transferEncoding.isEmpty())
            head += "\r\nContent-Transfer-Encoding: " + part.transferEncoding.toUtf8();
        head += "\r\n\r\n";
        m_segments.push_back({Segment::Kind::Literal, head, {}, quint64(head.size()), {}, -1});
        info.size = body.size;
        m_segments.push_back(body);
        m_segments.push_back({Segment::Kind::Literal, "\r\n", {}, 2, {}, -1});
        m_parts.push_back(info);
        m_hashers.emplace_back(m_hash);
    }
    QByteArray close = dashBoundary + "--\r\n";
    m_segments.push_back({Segment::Kind::Literal, close, {}, quint64(close.size()), {}, -1});
    m_partEnds.resize(m_parts.size());
    for (const auto& s : m_segments) {
        m_total += s.size;
        if (s.part >= 0)
            m_partEnds[size_t(s.part)] = m_total;
    }
}

MultipartBody::~MultipartBody()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_ready.clear(); // a reader waiting for a block gets one back, and sees the stop
    }
    m_filled.notify_all();
    m_chunk = {};
    if (m_reader.joinable())
        m_reader.join();
    m_hashPipeline.reset(); // hashes what was queued, then ends
}

std::vector<quint64> MultipartBody::delimiterOffsets() const
{
    return m_partEnds; // the CR LF that opens the next delimiter follows each part's last byte
}

std::vector<MultipartBody::PartInfo> MultipartBody::parts() const
{
    std::unique_lock lock(m_mutex);
    auto sent = [&](size_t i) { return m_partEnds[i] <= m_sent; };
    if (m_hashPipeline) // the parts sent whole are hashed soon after, if not yet
        m_hashed.wait(lock, [&] {
            for (size_t i = 0; i < m_parts.size(); ++i)
                if (sent(i) && m_parts[i].digest.isEmpty())
                    return false;
            return true;
        });
    std::vector<PartInfo> out = m_parts;
    for (size_t i = 0; i < out.size(); ++i)
        if (!sent(i)) // read ahead, but not all of it sent
            out[i].digest.clear();
    return out;
}

bool MultipartBody::openBody()
{
    for (const auto& s : m_segments)
        if (s.kind == Segment::Kind::File && !QFileInfo(s.path).isReadable()) {
            setErrorString(QStringLiteral("cannot read %1").arg(s.path));
            return false;
        }
    if (!open(QIODevice::ReadOnly))
        return false;
    if (m_hash != core::HashKind::None)
        m_hashPipeline = std::make_unique<core::PartPipeline>(static_cast<core::PartHandler&>(*this));
    m_reader = std::thread([this] { readAhead(); });
    return true;
}

void MultipartBody::readAhead()
{
    for (;;) {
        core::BlockPool::Block block = m_blocks.acquire(); // waits while the sending side holds them all
        QString error;
        if (m_hashPipeline)
            m_hashPipeline->setSource(block);
        const qint64 got = generate(block->data(), qint64(block->size()), error);
        if (m_hashPipeline)
            m_hashPipeline->flush();
        m_readCpuNs.store(core::threadCpuNanoseconds(), std::memory_order_relaxed);
        std::lock_guard lock(m_mutex);
        if (m_stop)
            return;
        if (got > 0)
            m_ready.push_back({std::move(block), got});
        m_readError = error;
        m_produced = got <= 0 || !error.isEmpty();
        m_filled.notify_all();
        if (m_produced)
            return;
    }
}

qint64 MultipartBody::bytesAvailable() const
{
    return qint64(m_total - m_sent) + QIODevice::bytesAvailable();
}

void MultipartBody::fillSynthetic(char* out, qint64 count, PlanPart::Fill fill)
{
    if (fill == PlanPart::Fill::Zero) {
        std::memset(out, 0, size_t(count));
        return;
    }
    if (fill == PlanPart::Fill::Pattern) { // the offset as text, repeated: easy to recognise in a hex view
        for (qint64 i = 0; i < count; ++i)
            out[i] = "0123456789abcdef"[(m_inSegment + quint64(i)) % 16];
        return;
    }
    for (qint64 i = 0; i < count; i += 8) { // xorshift64: several GB/s, no allocation
        m_rng ^= m_rng << 13;
        m_rng ^= m_rng >> 7;
        m_rng ^= m_rng << 17;
        std::memcpy(out + i, &m_rng, size_t(std::min<qint64>(8, count - i)));
    }
}

// On the hashing pipeline's thread: each part's bytes, as the read-ahead thread made them.
void MultipartBody::onPartBegin(uint32_t index, uint64_t /*offset*/)
{
    m_hashing = index;
}

void MultipartBody::onPartData(core::ByteView data, uint64_t /*offset*/)
{
    m_hashers[m_hashing].update(data);
}

void MultipartBody::onPartEnd(uint64_t /*offset*/)
{
    QString digest = QString::fromStdString(m_hashers[m_hashing].finishHex());
    {
        std::lock_guard lock(m_mutex);
        m_parts[m_hashing].digest = std::move(digest);
        // Before parts() can see the digest: the pipeline counts its CPU only once the whole batch is handled.
        m_hashCpuNs = core::threadCpuNanoseconds();
    }
    m_hashed.notify_all();
}

void MultipartBody::finishSegment()
{
    const Segment& s = m_segments[m_current];
    if (s.part >= 0 && m_hashPipeline) {
        if (s.size == 0)
            m_hashPipeline->onPartBegin(uint32_t(s.part), 0);
        m_hashPipeline->onPartEnd(0);
    }
    m_file.close();
    ++m_current;
    m_inSegment = 0;
}

// The next bytes of the body, up to maxSize; 0 at its end, -1 with error set when a file fails.
qint64 MultipartBody::generate(char* data, qint64 maxSize, QString& error)
{
    qint64 written = 0;
    while (written < maxSize && m_current < m_segments.size()) {
        Segment& s = m_segments[m_current];
        if (m_inSegment == s.size) { // empty value or file
            finishSegment();
            continue;
        }
        const qint64 want = qint64(std::min<quint64>(quint64(maxSize - written), s.size - m_inSegment));
        char* out = data + written;
        qint64 got = want;
        switch (s.kind) {
        case Segment::Kind::Literal: std::memcpy(out, s.literal.constData() + m_inSegment, size_t(want)); break;
        case Segment::Kind::Synthetic:
            if (s.shape)
                s.shape->fill(out, size_t(want), m_inSegment);
            else
                fillSynthetic(out, want, s.fill);
            break;
        case Segment::Kind::File:
            if (!m_file.isOpen()) {
                m_file.setFileName(s.path);
                if (!m_file.open(QIODevice::ReadOnly)) {
                    error = m_file.errorString();
                    return -1;
                }
            }
            got = m_file.read(out, want);
            if (got <= 0) { // the file shrank or failed while sending: the body would lie about its length
                error = QStringLiteral("%1: read failed or file shrank").arg(s.path);
                return -1;
            }
            break;
        }
        if (s.part >= 0 && m_hashPipeline) {
            if (m_inSegment == 0)
                m_hashPipeline->onPartBegin(uint32_t(s.part), 0);
            m_hashPipeline->onPartData({out, size_t(got)}, 0);
        }
        written += got;
        m_inSegment += quint64(got);
        if (m_inSegment == s.size)
            finishSegment();
    }
    return written;
}

// One mechanism for both ways out: read() copies what lend() would lend.
qint64 MultipartBody::readData(char* data, qint64 maxSize)
{
    qint64 copied = 0;
    while (copied < maxSize) {
        const Piece piece = nextPiece(maxSize - copied, copied == 0);
        if (piece.size < 0)
            return -1;
        if (piece.size == 0)
            break; // the end of the body, or nothing more ready now: the rest on the next read
        std::memcpy(data + copied, piece.data, size_t(piece.size));
        copied += piece.size;
    }
    return copied == 0 ? -1 : copied; // -1 at the end of the body
}

LendingBody::Piece MultipartBody::lend(qint64 maxSize)
{
    return nextPiece(maxSize, true);
}

// The next bytes of the current block, taking the next ready block when it is used up; waits for one only when
// told to. Size 0 at the end of the body (or when none is ready and it may not wait), -1 when reading failed.
LendingBody::Piece MultipartBody::nextPiece(qint64 maxSize, bool wait)
{
    if (!m_chunk.block) {
        std::unique_lock lock(m_mutex);
        if (m_ready.empty() && !wait)
            return {};
        m_filled.wait(lock, [&] { return !m_ready.empty() || m_produced; });
        if (m_ready.empty()) {
            if (m_readError.isEmpty())
                return {};
            setErrorString(m_readError);
            return {nullptr, nullptr, -1};
        }
        m_chunk = std::move(m_ready.front());
        m_ready.pop_front();
        m_chunkPos = 0;
    }
    const qint64 take = std::min(maxSize, m_chunk.size - m_chunkPos);
    Piece piece{m_chunk.block, m_chunk.block->data() + m_chunkPos, take};
    m_chunkPos += take;
    if (m_chunkPos == m_chunk.size)
        m_chunk = {};              // the block goes back to the read-ahead thread once the piece is let go too
    std::lock_guard lock(m_mutex); // parts() reads it
    m_sent += quint64(take);
    return piece;
}

} // namespace upin::app
