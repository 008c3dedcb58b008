#pragma once
// What a capture stores of a request while it arrives: file parts each in a file of its own (none when the body is
// kept once, in body.raw), form fields' first bytes inline for capture.json (a field too large for that goes to a
// file too), and for raw captures head.raw and body.raw. A PartHandler, so that it runs on a PartPipeline's thread beside the one that
// hashes: writing then overlaps hashing as well as reading. It knows nothing of hashes or answers. The first write
// that fails stops it; failure() says which file, why, and the first body byte not stored.

#include "capture/kept_part.h"

#include "upin/core/event_recorder.h"

#include <QByteArray>
#include <QFile>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace upin::app {

struct StoreFailure {
    QString file;          // name inside the capture folder (or the folder, when it could not be made)
    QString message;       // the system's error text
    quint64 offset = 0;    // body offset of the first byte not stored
    int partIndex = -1;    // the top-level part that was being stored, if any
    quint64 partBytes = 0; // of it, the bytes stored (in its file, or kept inline)
};

class CaptureWriter final : public core::PartHandler {
public:
    // Which parts get a file of their own: file parts (and fields too large to keep inline), or none (/capture
    // keeping the body once: body.raw holds every part's bytes, read from it by offset).
    enum class PartFiles : uint8_t { FileParts, None };
    // limits: the parser's, for the part headers this writer reads to name its files.
    CaptureWriter(QString folder, PartFiles partFiles, const core::Options& limits);

    // Writes head.raw and opens body.raw; false when either fails (failure() says why).
    bool startRaw(const QByteArray& rawHead);
    void writeRaw(core::ByteView data); // the body's bytes as they came, after startRaw()
    bool keepsRaw() const { return m_keepsRaw; }

    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(core::ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;

    // Closes the files; a field cut off by the end of the input keeps what arrived. Call once, at the end.
    void close();
    bool failed() const { return m_failed.load(std::memory_order_relaxed); } // from any thread
    const std::optional<StoreFailure>& failure() const { return m_failure; } // after close()
    // What was kept of each top-level part, by index: a file in the folder and/or a form field's inline value.
    const QList<KeptPart>& kept() const { return m_kept; }

private:
    bool write(QFile& file, core::ByteView data, uint64_t fileStartOffset);
    bool openPartFile(const core::PartSummary& part);
    void keepFieldData(core::ByteView data);
    void finishKeptValue();

    QString m_folder;
    PartFiles m_partFiles;
    core::EventRecorder m_parts; // names, filenames and types (no hashes, no header lines): the files' names
    QFile m_partFile;
    QFile m_rawFile;
    bool m_keepsRaw = false;
    QList<KeptPart> m_kept;
    QByteArray m_fieldValue; // the current field's first bytes, bounded by kInlineFieldBytes
    bool m_collectingField = false;
    bool m_fieldTruncated = false;
    quint64 m_partStored = 0; // bytes of the current part handled without a failure
    quint64 m_inlineBudget;   // inline value bytes this capture may still hold
    std::optional<StoreFailure> m_failure;
    std::atomic<bool> m_failed = false;
};

} // namespace upin::app
