#include "capture/capture_writer.h"

#include "capture/capture_store.h"
#include "capture/kept_part.h"

#include <QDir>
#include <QFileInfo>

namespace upin::app {

namespace {
// Form field values are kept inline in capture.json up to this size each, and this much per capture in all;
// beyond that a field is saved to a file like a file part (the inline value then shows its first bytes).
constexpr qsizetype kInlineFieldBytes = qsizetype{64} * 1024;
constexpr quint64 kInlineCaptureBytes = quint64{1} << 20;
} // namespace

CaptureWriter::CaptureWriter(QString folder, PartFiles partFiles, const core::Options& limits)
    : m_folder(std::move(folder)), m_partFiles(partFiles),
      m_parts(core::EventRecorder::Settings{core::HashKind::None, false, limits, false}),
      m_inlineBudget(kInlineCaptureBytes)
{}

bool CaptureWriter::startRaw(const QByteArray& rawHead)
{
    // The whole request as it came: head.raw (at most the head limit, 64 KiB) and body.raw, whose offsets are the
    // parser's body offsets. Nothing of the body is stored yet: a failure here fails the capture at offset 0.
    QFile head(QDir(m_folder).filePath(QStringLiteral("head.raw")));
    if (!(head.open(QIODevice::WriteOnly) && head.write(rawHead) == rawHead.size() && head.flush())) {
        m_failure = StoreFailure{QStringLiteral("head.raw"), head.errorString(), 0};
        m_failed = true;
        return false;
    }
    m_keepsRaw = true;
    m_rawFile.setFileName(QDir(m_folder).filePath(QStringLiteral("body.raw")));
    if (!m_rawFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return write(m_rawFile, {}, 0); // records the failure
    return true;
}

void CaptureWriter::writeRaw(core::ByteView data)
{
    if (!m_failure)
        write(m_rawFile, data, 0);
}

bool CaptureWriter::write(QFile& file, core::ByteView data, uint64_t fileStartOffset)
{
    if (file.isOpen() && CaptureStore::writeWhole(file, data.data(), qint64(data.size())))
        return true;
    if (m_failure)
        return false;
    const quint64 onDisk = quint64(std::max<qint64>(0, QFileInfo(file.fileName()).size()));
    m_failure = StoreFailure{QFileInfo(file.fileName()).fileName(), file.errorString(), fileStartOffset + onDisk};
    const core::PartSummary* part = m_parts.currentPart();
    if (part && !part->complete) { // what of it is stored: up to its file's failure, or what came before this chunk
        m_failure->partIndex = int(part->index);
        m_failure->partBytes = &file == &m_partFile ? onDisk : m_partStored;
    }
    m_failed = true;
    m_partFile.close();
    m_rawFile.close();
    return false;
}

// After a failed write nothing more is stored or kept: what is on disk ends where the failure says.
void CaptureWriter::onPartBegin(uint32_t index, uint64_t offset)
{
    if (!m_failure)
        m_parts.onPartBegin(index, offset);
}

void CaptureWriter::onHeader(std::string_view name, std::string_view value)
{
    if (!m_failure)
        m_parts.onHeader(name, value);
}

bool CaptureWriter::openPartFile(const core::PartSummary& part)
{
    const QString name = CaptureStore::safePartFileName(part.index, part.filename, part.name);
    m_partFile.setFileName(QDir(m_folder).filePath(name));
    if (!m_partFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) // large writes: skip Qt's extra copy
        return write(m_partFile, {}, part.bodyOffset);
    m_kept.last().savedAs = name;
    return true;
}

void CaptureWriter::onHeadersComplete(uint64_t offset)
{
    if (m_failure)
        return;
    m_parts.onHeadersComplete(offset);
    const core::PartSummary& part = *m_parts.currentPart();
    m_partStored = 0;
    m_kept.append(KeptPart{});
    m_collectingField = !part.filename.has_value();
    m_fieldValue.clear();
    m_fieldTruncated = false;
    if (m_partFiles == PartFiles::FileParts && part.filename.has_value())
        openPartFile(part);
}

// Keeps a field's first bytes for its inline value; a field too large for that goes to a file of its own, unless
// body.raw is where every part's bytes are kept.
void CaptureWriter::keepFieldData(core::ByteView data)
{
    const qsizetype room =
        qsizetype(std::min<quint64>(quint64(kInlineFieldBytes), m_inlineBudget + quint64(m_fieldValue.size()))) -
        m_fieldValue.size();
    if (!m_fieldTruncated && qsizetype(data.size()) > room) {
        m_fieldTruncated = true;
        const core::PartSummary& part = *m_parts.currentPart();
        if (m_partFiles != PartFiles::None && !m_partFile.isOpen() &&
            openPartFile(part)) // the bytes so far first, then this chunk below
            write(m_partFile, {m_fieldValue.constData(), size_t(m_fieldValue.size())}, part.bodyOffset);
    }
    const qsizetype take = std::min(room, qsizetype(data.size()));
    if (take > 0) {
        m_fieldValue.append(data.data(), take);
        m_inlineBudget -= quint64(take);
    }
}

void CaptureWriter::onPartData(core::ByteView data, uint64_t offset)
{
    if (m_failure)
        return;
    m_parts.onPartData(data, offset);
    if (m_collectingField)
        keepFieldData(data);
    if (m_partFile.isOpen() && !m_failure)
        write(m_partFile, data, m_parts.currentPart()->bodyOffset);
    if (!m_failure)
        m_partStored += data.size();
}

void CaptureWriter::finishKeptValue()
{
    if (!m_collectingField || m_kept.isEmpty())
        return;
    m_collectingField = false;
    KeptPart& kept = m_kept.last();
    kept.setValue(m_fieldValue, m_parts.currentPart()->contentType);
    kept.valueTruncated = m_fieldTruncated;
    m_fieldValue.clear();
}

void CaptureWriter::onPartEnd(uint64_t offset)
{
    if (m_failure)
        return;
    m_parts.onPartEnd(offset);
    m_partFile.close();
    finishKeptValue();
}

void CaptureWriter::close()
{
    m_partFile.close();
    m_rawFile.close();
    if (m_parts.currentPart()) // a field cut off by the end of input keeps what arrived
        finishKeptValue();
}

} // namespace upin::app
