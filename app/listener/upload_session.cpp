#include "listener/upload_session.h"

#include "capture/field_value.h"
#include "common/qt_text.h"
#include "inspect/report_json.h"

#include <QDir>
#include <QJsonArray>

#include <cmath>

namespace upin::app {

namespace {
constexpr qint64 kSampleIntervalMs = 50;
constexpr qsizetype kMaxStoredSamples = 20'000;
// Form field values are kept inline in capture.json up to this size each, and this much per capture in all;
// beyond that a field is saved to a file like a file part (the inline value then shows its first bytes).
constexpr qsizetype kInlineFieldBytes = qsizetype{64} * 1024;
constexpr quint64 kInlineCaptureBytes = quint64{1} << 20;

QJsonArray samplesToJson(const QList<ThroughputSample>& samples)
{
    QJsonArray out;
    for (const auto& s : samples)
        out.append(QJsonArray{s.msSinceStart, qint64(s.bytes)});
    return out;
}

} // namespace

QString endpointPath(Endpoint endpoint)
{
    return toQString(kEndpointPaths.name(endpoint));
}

QString captureStateName(CaptureState state)
{
    return toQString(kCaptureStateNames.name(state));
}

UploadSession::UploadSession(const SessionRequest& request, CaptureStore& store, Publish publish)
    : m_request(request), m_store(store), m_publish(std::move(publish)), m_id(store.nextId()),
      m_inlineBudget(kInlineCaptureBytes)
{
    m_clock.start();
}

UploadSession::~UploadSession()
{
    m_pipeline.reset(); // its thread uses the members below: it ends first
}

core::Result<std::unique_ptr<UploadSession>> UploadSession::start(const SessionRequest& request, CaptureStore& store,
                                                                  Publish publish)
{
    std::unique_ptr<UploadSession> session(new UploadSession(request, store, std::move(publish)));
    if (request.endpoint != Endpoint::Discard) {
        auto parser = core::MultipartParser::fromContentType(request.contentType.toStdString(), request.parser);
        if (!parser)
            return parser.error();
        session->m_parser.emplace(std::move(*parser));
        session->m_recorder =
            std::make_unique<core::EventRecorder>(core::EventRecorder::Settings{request.hash, false, request.parser});
    }
    const bool stores = request.endpoint == Endpoint::FilePart || request.endpoint == Endpoint::Capture;
    if (stores) {
        QString error;
        session->m_folder = store.beginCapture(session->m_id, endpointPath(request.endpoint), &error);
        if (session->m_folder.isEmpty()) { // nothing can be stored: the capture fails before its first byte
            session->m_ioFailure = IoFailure{store.root(), error, 0, -1, 0};
            session->m_status = core::Error{core::Errc::IoError, 0};
        } else {
            CaptureStore::reserveCaptureJsonSpace(session->m_folder);
        }
        const bool raw = request.endpoint == Endpoint::Capture || request.keepRaw;
        if (raw && !session->m_folder.isEmpty()) {
            // The whole request as it came: head.raw (at most the head limit, 64 KiB) and body.raw, whose offsets
            // are the parser's body offsets.
            QFile head(QDir(session->m_folder).filePath(QStringLiteral("head.raw")));
            if (!(head.open(QIODevice::WriteOnly) && head.write(request.rawHead) == request.rawHead.size() &&
                  head.flush())) { // nothing of the body is stored yet: the capture fails at body offset 0
                session->m_ioFailure = IoFailure{QStringLiteral("head.raw"), head.errorString(), 0, -1, 0};
                session->m_status = core::Error{core::Errc::IoError, 0};
            }
            session->m_rawFile.setFileName(QDir(session->m_folder).filePath(QStringLiteral("body.raw")));
            if (!session->m_rawFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
                session->writeChecked(session->m_rawFile, {}, 0, -1); // records the failure
        }
    }
    // Hashing and writing files off the connection's thread, so they overlap reading the next bytes. A request
    // that does neither only parses: handing its callbacks to another thread would cost more than they do.
    if (session->m_parser && (request.hash != core::HashKind::None || stores))
        session->m_pipeline.reset(new core::PartPipeline( // (make_unique cannot see the private base)
            static_cast<core::PartHandler&>(*session),
            [s = session.get()](core::ByteView data) { s->writeRaw(data); }));
    session->m_publish(session->event(ListenerEvent::Kind::CaptureStarted));
    return session;
}

QString UploadSession::matcherLabel() const
{
    return m_parser ? toQString(core::matcherName(m_request.parser.matcher))
                    : QStringLiteral("none"); // /discard parses nothing
}

ListenerEvent UploadSession::event(ListenerEvent::Kind kind) const
{
    ListenerEvent e;
    e.kind = kind;
    e.captureId = m_id;
    e.endpoint = endpointPath(m_request.endpoint);
    e.client = m_request.client;
    e.matcher = matcherLabel();
    e.bytes = m_bodyBytes;
    // Whole milliseconds begun, as stored captures are listed: a sub-millisecond capture reads 1 ms, with a rate.
    e.elapsedMs = qint64(std::ceil(double(m_clock.nsecsElapsed()) / 1e6));
    e.folder = m_folder;
    return e;
}

bool UploadSession::writeChecked(QFile& file, core::ByteView data, uint64_t fileStartOffset, int partIndex)
{
    const char* at = data.data();
    qint64 left = qint64(data.size());
    while (file.isOpen() && left > 0) { // a short write is retried: the next attempt fails with the reason
        const qint64 written = file.write(at, left);
        if (written <= 0)
            break;
        at += written;
        left -= written;
    }
    if (file.isOpen() && left == 0)
        return true;
    if (m_ioFailure)
        return false;
    IoFailure failure;
    failure.file = QFileInfo(file.fileName()).fileName();
    failure.message = file.errorString();
    failure.bytesOnDisk = quint64(std::max<qint64>(0, QFileInfo(file.fileName()).size()));
    failure.offset = fileStartOffset + failure.bytesOnDisk;
    failure.partIndex = partIndex;
    m_ioFailure = failure;
    m_ioFailed = true;
    m_partFile.close();
    m_rawFile.close();
    return false;
}

void UploadSession::setSource(core::BlockPool::Block block)
{
    if (m_pipeline)
        m_pipeline->setSource(std::move(block));
}

void UploadSession::onBody(core::ByteView data)
{
    m_bodyBytes += data.size();
    if (failed()) // a write failed on the pipeline's thread: nothing more is read into this capture
        return;
    if (m_pipeline) {
        if (m_rawFile.isOpen())
            m_pipeline->onBody(data);
        if (m_parser)
            m_status = m_parser->feed(data, *m_pipeline);
        m_pipeline->flush();
    } else if (m_parser) {
        if (m_rawFile.isOpen())
            writeRaw(data);
        m_status = m_parser->feed(data, *this);
    }
    sample(false);
}

void UploadSession::writeRaw(core::ByteView data)
{
    if (!m_ioFailure)
        writeChecked(m_rawFile, data, 0, -1);
}

void UploadSession::sample(bool force)
{
    const qint64 now = m_clock.elapsed();
    if (!force && m_lastSampleMs >= 0 && now - m_lastSampleMs < kSampleIntervalMs)
        return;
    m_lastSampleMs = now;
    ThroughputSample s{now, m_bodyBytes};
    if (m_allSamples.size() < kMaxStoredSamples)
        m_allSamples.append(s);
    ListenerEvent e = event(ListenerEvent::Kind::Progress);
    e.samples = {s};
    m_publish(std::move(e));
}

// After a failed write nothing more is recorded: the report ends where what is stored ends.
void UploadSession::onPartBegin(uint32_t index, uint64_t offset)
{
    if (!m_ioFailure)
        m_recorder->onPartBegin(index, offset);
}

void UploadSession::onHeader(std::string_view name, std::string_view value)
{
    if (!m_ioFailure)
        m_recorder->onHeader(name, value);
}

bool UploadSession::openPartFile(const core::PartSummary& part)
{
    const QString name = CaptureStore::safePartFileName(part.index, part.filename, part.name);
    m_partFile.setFileName(QDir(m_folder).filePath(name));
    if (!m_partFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) // large writes: skip Qt's extra copy
        return writeChecked(m_partFile, {}, part.bodyOffset, int(part.index));
    m_kept.last()["saved_as"] = name;
    return true;
}

void UploadSession::onHeadersComplete(uint64_t offset)
{
    if (m_ioFailure)
        return;
    m_recorder->onHeadersComplete(offset);
    const core::PartSummary& part = *m_recorder->currentPart();
    m_kept.append(QJsonObject{});
    m_collectingField = !m_folder.isEmpty() && !part.filename.has_value();
    m_fieldValue.clear();
    m_fieldTruncated = false;
    if (!m_ioFailure && !m_folder.isEmpty() && (m_request.endpoint == Endpoint::Capture || part.filename.has_value()))
        openPartFile(part);
    ListenerEvent e = event(ListenerEvent::Kind::PartStarted);
    e.part = part;
    m_publish(std::move(e));
}

// Keeps a field's first bytes for its inline value; a field too large for that goes to a file of its own.
void UploadSession::keepFieldData(core::ByteView data)
{
    const qsizetype room =
        qsizetype(std::min<quint64>(quint64(kInlineFieldBytes), m_inlineBudget + quint64(m_fieldValue.size()))) -
        m_fieldValue.size();
    if (!m_fieldTruncated && qsizetype(data.size()) > room) {
        m_fieldTruncated = true;
        const core::PartSummary& part = *m_recorder->currentPart();
        if (!m_partFile.isOpen() && openPartFile(part)) // the bytes so far first, then this chunk below
            writeChecked(m_partFile, {m_fieldValue.constData(), size_t(m_fieldValue.size())}, part.bodyOffset,
                         int(part.index));
    }
    const qsizetype take = std::min(room, qsizetype(data.size()));
    if (take > 0) {
        m_fieldValue.append(data.data(), take);
        m_inlineBudget -= quint64(take);
    }
}

void UploadSession::onPartData(core::ByteView data, uint64_t offset)
{
    if (m_ioFailure)
        return;
    m_recorder->onPartData(data, offset); // counted before it is stored: applyIoFailure() corrects a failed write
    if (m_collectingField)
        keepFieldData(data);
    if (m_partFile.isOpen()) {
        const core::PartSummary& part = *m_recorder->currentPart();
        writeChecked(m_partFile, data, part.bodyOffset, int(part.index));
    }
}

void UploadSession::finishKeptValue(const core::PartSummary& part)
{
    if (!m_collectingField || m_kept.isEmpty())
        return;
    m_collectingField = false;
    QJsonObject& kept = m_kept.last();
    storeFieldValue(kept, m_fieldValue, part.contentType);
    kept["value_truncated"] = m_fieldTruncated;
    m_fieldValue.clear();
}

void UploadSession::onPartEnd(uint64_t offset)
{
    if (m_ioFailure)
        return;
    m_recorder->onPartEnd(offset);
    m_partFile.close();
    finishKeptValue(*m_recorder->currentPart());
    ListenerEvent e = event(ListenerEvent::Kind::PartFinished);
    e.part = *m_recorder->currentPart();
    m_publish(std::move(e));
}

void UploadSession::onDiagnostic(const core::Diagnostic& diagnostic)
{
    if (!m_ioFailure)
        m_recorder->onDiagnostic(diagnostic);
}

// After a failed write the report claims only what is on disk: the part whose file failed has the size of that
// file, no hash, and is incomplete, and parts the parser saw after it in the same chunk are dropped (nothing of
// them was stored); the part that was open when body.raw failed is incomplete, without a hash.
void UploadSession::applyIoFailure(core::ParseReport& report) const
{
    if (!m_ioFailure)
        return;
    const int failed = m_ioFailure->partIndex;
    if (failed >= 0) {
        std::erase_if(report.parts, [failed](const core::PartSummary& part) { return int(part.index) > failed; });
        for (auto& part : report.parts) {
            if (int(part.index) == failed) {
                part.size = m_ioFailure->bytesOnDisk;
                part.digest.clear();
                part.complete = false;
            }
        }
    }
    if (report.parts.empty())
        return;
    core::PartSummary& last = report.parts.back();
    if (!last.complete)
        last.digest.clear();
}

QJsonObject UploadSession::finish(const core::BodyDecoder& wire, bool complete,
                                  std::optional<core::Error> transportError, const QString& detail)
{
    if (m_parser && !failed() && complete)
        m_status = m_parser->finish(m_pipeline ? static_cast<core::PartHandler&>(*m_pipeline) : *this);
    if (m_pipeline)
        m_pipeline->drain(); // every part hashed and written: from here on this thread reads what that one made
    if (m_ioFailure)         // a write failed: that, not the parser's outcome, is the capture's
        m_status = core::Error{core::Errc::IoError, m_ioFailure->offset};
    m_partFile.close();
    m_rawFile.close();
    if (m_collectingField && m_recorder && m_recorder->currentPart()) // a field cut off by the end of input
        finishKeptValue(*m_recorder->currentPart());
    sample(true);

    core::ParseReport report;
    if (m_recorder) {
        report = m_recorder->takeReport(m_status, *m_parser);
    } else {
        report.ok = !m_ioFailure;
        report.bytes = m_bodyBytes;
    }
    applyIoFailure(report);
    std::optional<core::Error> error = m_ioFailure ? m_status.error() : transportError ? transportError : report.error;
    m_state = m_ioFailure ? CaptureState::Failed
              : !complete ? CaptureState::Incomplete
              : error     ? CaptureState::Rejected
                          : CaptureState::Complete;

    QJsonObject answer = reportToJson(report, m_kept);
    m_kept.clear();
    answer["endpoint"] = endpointPath(m_request.endpoint);
    answer["matcher"] = matcherLabel();
    answer["hash"] = toQString(core::kHashNames.name(m_recorder ? m_request.hash : core::HashKind::None));
    answer["bytes"] = qint64(m_bodyBytes);
    answer["framing"] = framingName(m_request.framing.kind);
    answer["capture_id"] = QString::number(m_id);

    auto setOutcome = [&] {
        answer["ok"] = m_state == CaptureState::Complete;
        QJsonValue errorJson = error ? QJsonValue(errorToJson(*error)) : QJsonValue(QJsonValue::Null);
        if (m_ioFailure) {
            QJsonObject io = errorJson.toObject();
            io["file"] = m_ioFailure->file;
            io["system_message"] = m_ioFailure->message;
            errorJson = io;
        } else if (!detail.isEmpty() && errorJson.isObject()) {
            QJsonObject withDetail = errorJson.toObject();
            withDetail["detail"] = detail;
            errorJson = withDetail;
        }
        answer["error"] = errorJson;
        answer["state"] = captureStateName(m_state);
        answer["elapsed_ms"] = double(m_clock.nsecsElapsed()) / 1e6;
    };
    setOutcome();
    if (!m_folder.isEmpty()) {
        QJsonObject capture = answer;
        QJsonObject request = m_request.head;
        request["target"] = m_request.target; // normalised: an absolute-form target's path and query
        request["host"] = m_request.host;
        request["content_type"] = m_request.contentType;
        request["client"] = m_request.client;
        request["received_at"] = m_request.receivedAt.toString(Qt::ISODateWithMs);
        request["head_ms"] = m_request.headMs;
        addWireToJson(request, m_request.framing, &wire);
        capture["request"] = request;
        capture["throughput"] = samplesToJson(m_allSamples);
        capture["raw_body"] =
            m_rawFile.fileName().isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QStringLiteral("body.raw"));
        QString writeError;
        if (!CaptureStore::writeCaptureJson(m_folder, capture, &writeError) && !m_ioFailure) {
            m_ioFailure = IoFailure{QStringLiteral("capture.json"), writeError, m_bodyBytes, -1, 0};
            error = core::Error{core::Errc::IoError, m_bodyBytes};
            m_state = CaptureState::Failed;
            setOutcome();
        }
    }
    QJsonObject summary{{"id", QString::number(m_id)},        {"endpoint", answer["endpoint"]},
                        {"client", m_request.client},         {"state", answer["state"]},
                        {"bytes", answer["bytes"]},           {"parts", qint64(report.parts.size())},
                        {"elapsed_ms", answer["elapsed_ms"]}, {"folder", m_folder}};
    m_store.endCapture(m_folder, summary);

    ListenerEvent done = event(ListenerEvent::Kind::CaptureFinished);
    done.elapsedMs = qint64(std::ceil(answer["elapsed_ms"].toDouble())); // as capture.json says, so rows read alike
    done.state = m_state;
    done.error = error;
    done.errorDetail = m_ioFailure ? QStringLiteral("%1: %2").arg(m_ioFailure->file, m_ioFailure->message) : detail;
    done.partCount = int(report.parts.size());
    m_publish(std::move(done));
    return answer;
}

} // namespace upin::app
