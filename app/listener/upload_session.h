#pragma once
// One POST request's body on its way through the listener: body bytes in, parts parsed (or not, for /discard),
// hashed, saved to the capture folder or dropped, value events out, and at the end the JSON answer and
// capture.json. Created and fed on the connection's thread, which reads and parses; when the request hashes or
// stores, the rest (the PartHandler side below: recording, hashing, writing files) runs on a PartPipeline's thread,
// in the same order, and finish() waits for it before it answers.

#include "capture/capture_store.h"
#include "listener/listener_types.h"

#include "upin/core/event_recorder.h"
#include "upin/core/http_request.h"
#include "upin/core/part_pipeline.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>

#include <atomic>
#include <functional>
#include <memory>

namespace upin::app {

enum class Endpoint : uint8_t { PartEvent, FilePart, Capture, Discard };
inline constexpr core::EnumNames<Endpoint, 4> kEndpointPaths{{{{Endpoint::PartEvent, "/part-event"},
                                                               {Endpoint::FilePart, "/file-part"},
                                                               {Endpoint::Capture, "/capture"},
                                                               {Endpoint::Discard, "/discard"}}}};
QString endpointPath(Endpoint endpoint);

struct SessionRequest {
    Endpoint endpoint = Endpoint::PartEvent;
    core::Options parser;                         // limits and leniency; matcher chosen per request
    core::HashKind hash = core::HashKind::Sha256; // of every part; none for /discard
    bool keepRaw = false;
    QString contentType;
    QString client;
    QString target;
    QString host; // the listener as the client named it (Host, or an absolute-form target's authority)
    core::BodyFraming framing;
    QJsonObject head;     // requestHeadToJson: method, target, version, headers, head_bytes
    QByteArray rawHead;   // the head's bytes as received: head.raw, beside body.raw
    QDateTime receivedAt; // when the head's first byte arrived (UTC)
    double headMs = 0;    // from the head's first byte to its last
};

class UploadSession final : public core::BodySink, private core::PartHandler {
public:
    using Publish = std::function<void(ListenerEvent)>;

    // Fails (returns the error) when the Content-Type is not multipart with a usable boundary.
    static core::Result<std::unique_ptr<UploadSession>> start(const SessionRequest& request, CaptureStore& store,
                                                              Publish publish);
    ~UploadSession() override;

    void onBody(core::ByteView data) override; // from the body decoder
    // The block the next onBody() bytes lie in (the connection's read): the pipeline holds it instead of copying.
    void setSource(core::BlockPool::Block block);
    // The parser rejected the body or a write failed: answer now, read no more.
    bool failed() const { return !m_status || m_ioFailed.load(std::memory_order_relaxed); }

    // Ends the session: complete = the whole body arrived. Returns the JSON answer; writes capture.json, with
    // the wire's figures from the body decoder (chunks, trailer bytes). detail, when given, says why in words
    // (e.g. the listener stopped); it goes into the error and the event.
    QJsonObject finish(const core::BodyDecoder& wire, bool complete,
                       std::optional<core::Error> transportError = std::nullopt, const QString& detail = {});
    CaptureState state() const { return m_state; } // after finish()

private:
    UploadSession(const SessionRequest& request, CaptureStore& store, Publish publish);

    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(core::ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void onDiagnostic(const core::Diagnostic& diagnostic) override;
    void writeRaw(core::ByteView data);
    bool openPartFile(const core::PartSummary& part);
    bool writeChecked(QFile& file, core::ByteView data, uint64_t fileStartOffset, int partIndex);
    void keepFieldData(core::ByteView data);
    void finishKeptValue(const core::PartSummary& part);
    void applyIoFailure(core::ParseReport& report) const;
    void sample(bool force);
    ListenerEvent event(ListenerEvent::Kind kind) const;
    QString matcherLabel() const;

    SessionRequest m_request;
    CaptureStore& m_store;
    Publish m_publish;
    quint64 m_id;
    QString m_folder;
    std::optional<core::MultipartParser> m_parser;
    std::unique_ptr<core::EventRecorder> m_recorder;
    // Where body bytes and parser callbacks go: the pipeline when this request hashes or stores (recording,
    // hashing and writing then run on its thread), else this object itself. The destructor stops it first.
    std::unique_ptr<core::PartPipeline> m_pipeline;
    core::Result<void> m_status;          // the parser's outcome (connection thread)
    std::atomic<bool> m_ioFailed = false; // set by the pipeline's thread with m_ioFailure
    QFile m_partFile;
    QFile m_rawFile;
    // What the capture keeps of each top-level part, by part index: "saved_as" (a file in the folder) and/or an
    // inline "value" of a form field (with "value_encoding", "value_truncated"). Merged into the parts' JSON.
    QList<QJsonObject> m_kept;
    QByteArray m_fieldValue; // the current field's first bytes, bounded by kInlineFieldBytes
    bool m_collectingField = false;
    bool m_fieldTruncated = false;
    quint64 m_inlineBudget = 0; // inline value bytes this capture may still hold
    struct IoFailure {
        QString file;       // name inside the capture folder
        QString message;    // the system's error text
        quint64 offset = 0; // body offset of the first byte not stored
        int partIndex = -1; // the part whose file failed; -1 for body.raw or capture.json
        quint64 bytesOnDisk = 0;
    };
    std::optional<IoFailure> m_ioFailure; // the pipeline's thread's until finish() has drained it
    CaptureState m_state = CaptureState::Receiving;
    QElapsedTimer m_clock;
    QList<ThroughputSample> m_pendingSamples;
    QList<ThroughputSample> m_allSamples; // bounded: one per 50 ms
    qint64 m_lastSampleMs = -1;
    std::atomic<quint64> m_bodyBytes = 0; // counted by the connection thread, read in events of both
};

} // namespace upin::app
