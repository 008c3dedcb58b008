#pragma once
// One POST request's body on its way through the listener: body bytes in, parts parsed (or not, for /discard),
// hashed, saved to the capture folder or dropped, value events out, and at the end the JSON answer and
// capture.json. Lives on the connection's worker thread.

#include "capture/capture_store.h"
#include "listener/listener_types.h"

#include "upin/core/event_recorder.h"
#include "upin/core/http_request.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>

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
    core::MatcherKind matcher = core::MatcherKind::Simd;
    bool hash = true;
    bool keepRaw = false;
    QString contentType;
    QString client;
    QString target;
    QString framing; // "content-length" or "chunked"
};

class UploadSession final : public core::BodySink, private core::PartHandler {
public:
    using Publish = std::function<void(ListenerEvent)>;

    // Fails (returns the error) when the Content-Type is not multipart with a usable boundary.
    static core::Result<std::unique_ptr<UploadSession>> start(const SessionRequest& request, CaptureStore& store,
                                                              Publish publish);
    ~UploadSession() override;

    void onBody(core::ByteView data) override; // from the body decoder
    bool failed() const { return m_status.has_value() == false; }

    // Ends the session: complete = the whole body arrived. Returns the JSON answer; writes capture.json.
    QJsonObject finish(bool complete, std::optional<core::Error> transportError = std::nullopt);

private:
    UploadSession(const SessionRequest& request, CaptureStore& store, Publish publish);

    void onPartBegin(uint32_t index, uint64_t offset) override;
    void onHeader(std::string_view name, std::string_view value) override;
    void onHeadersComplete(uint64_t offset) override;
    void onPartData(core::ByteView data, uint64_t offset) override;
    void onPartEnd(uint64_t offset) override;
    void onDiagnostic(const core::Diagnostic& diagnostic) override;
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
    core::Result<void> m_status;
    QFile m_partFile;
    QFile m_rawFile;
    QStringList m_savedFiles; // per part index, empty when not saved
    QElapsedTimer m_clock;
    QList<ThroughputSample> m_pendingSamples;
    QList<ThroughputSample> m_allSamples; // bounded: one per 50 ms
    qint64 m_lastSampleMs = -1;
    quint64 m_bodyBytes = 0;
};

} // namespace upin::app
