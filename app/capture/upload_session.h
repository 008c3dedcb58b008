#pragma once
// One POST request's body on its way through the listener: body bytes in, parts parsed (or not, for /discard),
// hashed, saved to the capture folder or dropped, value events out, and at the end the JSON answer and
// capture.json. Created and fed on the connection's thread, which reads and parses (and hashes with XXH3); SHA-256
// (with the recording of the parts) and storing (a CaptureWriter) each run on a PartPipeline's thread when the
// request does them, in the parser's order, and finish() waits for both before it answers.

#include "capture/capture_event.h"
#include "capture/capture_store.h"
#include "capture/capture_writer.h"
#include "capture/forward_record.h"
#include "capture/h2_record.h"

#include "upin/core/event_recorder.h"
#include "upin/core/http.h"
#include "upin/core/part_pipeline.h"

#include <QDateTime>
#include <QElapsedTimer>
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
// The hash a request asks for: its ?hash=, else its Upload-Inspector-Hash header (our sender's); empty: neither.
QString requestedHashName(const QString& query, const core::RequestHead& head);

struct SessionRequest {
    Endpoint endpoint = Endpoint::PartEvent;
    core::Options parser;                         // limits and leniency; matcher chosen per request
    core::HashKind hash = core::HashKind::Sha256; // of every part; none for /discard
    bool keepRaw = false;
    bool captureBodyOnly = false; // /capture stores the body once, in body.raw, and no part files
    bool briefAnswer = false;     // ?answer=brief: the answer lists each part's name, size and digest only
    QString method;               // as the request line had it
    bool fromProbe = false;       // it carries the probe's Upload-Inspector-Probe header: one of a probe's uploads
    QString contentType;
    QString client;
    QString target;
    QString host; // the listener as the client named it (Host, or an absolute-form target's authority)
    core::BodyFraming framing;
    QByteArray rawHead;   // the head's bytes as received: head.raw, beside body.raw, and capture.json's request
    QDateTime receivedAt; // when the head's first byte arrived (UTC)
    double headMs = 0;    // from the head's first byte to its last
    Transport transport;
    // Forward mode: the upstream URL the request goes on to. Its capture gets a folder of its own ("forward") even
    // when no part is stored, listed as "→ URL", and finish() adds the upstream's side.
    QString forwardedTo;
    bool proxied = false; // it came through the proxy (its URL named the upstream): listed as "proxy → URL"
    // A proxy's request its filters leave out (--only-host, --only-uploads): relayed, and neither stored, listed
    // nor published.
    bool unlisted = false;
    // Over HTTP/2: the stream's frame log as it stands, read when the capture's record is made (capture.json's
    // "http2"). On the connection's thread, as finish().
    std::function<Http2Record()> http2;
};

class UploadSession final : public core::BodySink, private core::PartHandler {
public:
    using Publish = std::function<void(CaptureEvent)>;

    // Fails (returns the error) when the Content-Type is not multipart with a usable boundary.
    static core::Result<std::unique_ptr<UploadSession>> start(const SessionRequest& request, CaptureStore& store,
                                                              Publish publish);
    ~UploadSession() override;

    void onBody(core::ByteView data) override; // from the body decoder
    // The block the next onBody() bytes lie in (the connection's read): the pipeline holds it instead of copying.
    void setSource(core::BlockPool::Block block);
    // Hands what the last read brought to the pipelines, in one batch however many chunks (a chunked body of
    // 16-byte chunks would otherwise cost a thread hand-off per chunk).
    void flush();
    // The parser rejected the body or a write failed: answer now, read no more.
    bool failed() const { return !m_status || m_storeFailure || (m_writer && m_writer->failed()); }

    // Ends the session: complete = the whole body arrived. Returns the JSON answer (compact, its text in pieces;
    // none in forward mode); writes capture.json, with the wire's figures from the body decoder (chunks, trailer bytes).
    // detail, when given, says why in words (e.g. the listener stopped); it goes into the error and the event.
    // forward: forward mode's record of the exchange (forward_record.h), kept in capture.json as "forward".
    // cutStatus: what the client is answered when its body was cut short (413, 408, 400 for bad chunks; 0: nothing,
    // it left or the listener stopped); a whole body's status is the capture's own (answerStatus()).
    QByteArrayList finish(const core::BodyDecoder& wire, bool complete,
                          std::optional<core::Error> transportError = std::nullopt, const QString& detail = {},
                          const ForwardRecord* forward = nullptr, int cutStatus = 0);
    CaptureState state() const { return m_state; } // after finish()
    // After finish(): the status the listener answers with, as capture.json's answer.status records it: 200 for a
    // complete capture, 400 for a body the parser rejected, 507 when storing failed, else cutStatus. 0 in forward
    // mode, where the upstream answers.
    int answerStatus() const { return m_answerStatus; }
    quint64 id() const { return m_id; }

    // Forward mode: the parts whole so far and their bytes, counted on the connection's thread as the parser hands
    // them on (the record is made on the hashing thread until finish()), for a probe that asks what passed.
    struct PartTally {
        quint32 parts = 0;
        quint64 bytes = 0;
        bool parsed = true; // no parser error so far
    };
    PartTally tally() const;

private:
    UploadSession(const SessionRequest& request, CaptureStore& store, Publish publish);
    void startPipelines();

    // The recording side (PartHandler): the report's parts, hashed, and their events. On the hash pipeline's
    // thread when the request hashes with SHA-256, else on the connection's.
    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(core::ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void onDiagnostic(const core::Diagnostic& diagnostic) override;
    void applyStoreFailure(core::ParseReport& report) const;
    // finish()'s steps, in order: the pipelines drained, the record made, capture.json written (or, with no
    // folder, only the answer made), the finished capture published.
    struct Ending {
        bool complete = false;
        std::optional<core::Error> transportError;
        QString detail;
        const ForwardRecord* forward = nullptr;
        int cutStatus = 0;
    };
    void drainPipelines(bool complete);
    CaptureRecord makeRecord(const core::BodyDecoder& wire, const Ending& ending);
    void setOutcome(CaptureRecord& record, const Ending& ending, std::optional<core::Error> error);
    QByteArrayList answerOf(const CaptureRecord& record, const Ending& ending) const;
    QByteArrayList store(CaptureRecord& record, const Ending& ending);
    void publishFinished(CaptureRecord record);
    void sample(bool force);
    CaptureEvent event(CaptureEvent::Kind kind) const;
    QString matcherLabel() const;
    void showPart(); // the current part's PartStarted event

    SessionRequest m_request;
    CaptureStore& m_store;
    Publish m_publish;
    quint64 m_id;
    QString m_endpointLabel; // "/file-part", or "→ http://upstream/path" in forward mode
    QString m_matcherLabel;
    QString m_folder;
    std::optional<core::MultipartParser> m_parser;
    std::unique_ptr<core::EventRecorder> m_recorder;
    std::unique_ptr<CaptureWriter> m_writer; // when the request stores (and its folder exists)
    // SHA-256 and storing each run on a thread of their own when the request does them, so that they overlap
    // each other and reading: m_hashing feeds this object's recording side, m_storing the writer. The parser
    // feeds m_partTarget: one of them, both (m_tee), or this object itself. The destructor stops them first.
    std::unique_ptr<core::PartPipeline> m_hashing;
    std::unique_ptr<core::PartPipeline> m_storing;
    std::unique_ptr<core::PartTee> m_tee;
    core::PartHandler* m_partTarget = nullptr;
    // Forward mode: between the parser and m_partTarget, counting.
    struct Tallying final : core::PartHandler {
        core::PartHandler* next = nullptr;
        PartTally tally;
        void onPartBegin(uint32_t index, uint64_t offset) override { next->onPartBegin(index, offset); }
        void onHeader(std::string_view name, std::string_view value) override { next->onHeader(name, value); }
        void onHeadersComplete(uint64_t offset) override { next->onHeadersComplete(offset); }
        void onPartData(core::ByteView data, uint64_t offset) override
        {
            tally.bytes += data.size();
            next->onPartData(data, offset);
        }
        void onPartEnd(uint64_t offset) override
        {
            ++tally.parts;
            next->onPartEnd(offset);
        }
        void onDiagnostic(const core::Diagnostic& diagnostic) override { next->onDiagnostic(diagnostic); }
    };
    std::unique_ptr<Tallying> m_tallying;
    core::Result<void> m_status;                // the parser's outcome (connection thread)
    std::optional<StoreFailure> m_storeFailure; // from the writer, read once it has drained; or the folder's
    CaptureState m_state = CaptureState::Receiving;
    int m_answerStatus = 0;
    QElapsedTimer m_clock;
    uint64_t m_readCpuStartNs = 0;        // the connection thread's CPU time when the body began
    QList<ThroughputSample> m_allSamples; // bounded: one per 50 ms
    qint64 m_lastSampleMs = -1;
    // m_clock when the connection thread last fed the parser: the recording side times parts by it, not by a clock
    // read of its own at each part's start, data and end (for 10,000 small parts those reads were a tenth of the
    // recording's time). On a hashing pipeline's thread that is the newest read, which may be later than the one
    // that brought the part, as a clock read there was.
    std::atomic<qint64> m_feedMs = 0;
    std::atomic<quint64> m_bodyBytes = 0; // counted by the connection thread, read in events of both
    // The recording side's (part events are sent sparingly: kPartsAlwaysTimed in capture_event.h says how).
    std::atomic<quint32> m_partsBegun = 0; // read by the connection thread's Progress events
    struct ShownPart {
        qint64 beganMs = 0;
        bool shown = false;
    } m_part;
    quint32 m_partsShown = 0;
    qint64 m_lastPartShownMs = 0;
};

} // namespace upin::app
