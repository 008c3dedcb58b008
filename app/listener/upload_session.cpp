#include "listener/upload_session.h"

#include "common/qt_text.h"
#include "inspect/report_json.h"

#include <QDir>
#include <QJsonArray>

namespace upin::app {

namespace {
constexpr qint64 kSampleIntervalMs = 50;
constexpr qsizetype kMaxStoredSamples = 20'000;

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
    : m_request(request), m_store(store), m_publish(std::move(publish)), m_id(store.nextId())
{
    m_clock.start();
}

UploadSession::~UploadSession() = default;

core::Result<std::unique_ptr<UploadSession>> UploadSession::start(const SessionRequest& request, CaptureStore& store,
                                                                  Publish publish)
{
    std::unique_ptr<UploadSession> session(new UploadSession(request, store, std::move(publish)));
    if (request.endpoint != Endpoint::Discard) {
        core::Options options;
        options.matcher = request.matcher;
        auto parser = core::MultipartParser::fromContentType(request.contentType.toStdString(), options);
        if (!parser)
            return parser.error();
        session->m_parser.emplace(std::move(*parser));
        session->m_recorder =
            std::make_unique<core::EventRecorder>(core::EventRecorder::Settings{request.hash, false, options});
    }
    const bool stores = request.endpoint == Endpoint::FilePart || request.endpoint == Endpoint::Capture;
    if (stores) {
        session->m_folder = store.createFolder(session->m_id, endpointPath(request.endpoint));
        const bool raw = request.endpoint == Endpoint::Capture || request.keepRaw;
        if (raw && !session->m_folder.isEmpty()) {
            session->m_rawFile.setFileName(QDir(session->m_folder).filePath(QStringLiteral("body.raw")));
            session->m_rawFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered);
        }
    }
    session->m_publish(session->event(ListenerEvent::Kind::CaptureStarted));
    return session;
}

QString UploadSession::matcherLabel() const
{
    return m_parser ? toQString(core::matcherName(m_request.matcher))
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
    e.elapsedMs = m_clock.elapsed();
    e.folder = m_folder;
    return e;
}

void UploadSession::onBody(core::ByteView data)
{
    m_bodyBytes += data.size();
    if (m_rawFile.isOpen())
        m_rawFile.write(data.data(), qint64(data.size()));
    if (m_parser && m_status)
        m_status = m_parser->feed(data, *this);
    sample(false);
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

void UploadSession::onPartBegin(uint32_t index, uint64_t offset)
{
    m_recorder->onPartBegin(index, offset);
}

void UploadSession::onHeader(std::string_view name, std::string_view value)
{
    m_recorder->onHeader(name, value);
}

void UploadSession::onHeadersComplete(uint64_t offset)
{
    m_recorder->onHeadersComplete(offset);
    const core::PartSummary& part = *m_recorder->currentPart();
    const bool save = !m_folder.isEmpty() && (m_request.endpoint == Endpoint::Capture || part.filename.has_value());
    m_savedFiles.append(QString());
    if (save) {
        QString name = CaptureStore::safePartFileName(part.index, part.filename, part.name);
        m_partFile.setFileName(QDir(m_folder).filePath(name));
        if (m_partFile.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) // large writes: skip Qt's extra copy
            m_savedFiles.last() = name;
    }
    ListenerEvent e = event(ListenerEvent::Kind::PartStarted);
    e.part = part;
    m_publish(std::move(e));
}

void UploadSession::onPartData(core::ByteView data, uint64_t offset)
{
    m_recorder->onPartData(data, offset);
    if (m_partFile.isOpen())
        m_partFile.write(data.data(), qint64(data.size()));
}

void UploadSession::onPartEnd(uint64_t offset)
{
    m_recorder->onPartEnd(offset);
    m_partFile.close();
    ListenerEvent e = event(ListenerEvent::Kind::PartFinished);
    e.part = *m_recorder->currentPart();
    m_publish(std::move(e));
}

void UploadSession::onDiagnostic(const core::Diagnostic& diagnostic)
{
    m_recorder->onDiagnostic(diagnostic);
}

QJsonObject UploadSession::finish(bool complete, std::optional<core::Error> transportError)
{
    if (m_parser && m_status && complete)
        m_status = m_parser->finish(*this);
    m_partFile.close();
    m_rawFile.close();
    sample(true);

    core::ParseReport report;
    if (m_recorder) {
        report = m_recorder->takeReport(m_status, *m_parser);
    } else {
        report.ok = true;
        report.bytes = m_bodyBytes;
    }
    std::optional<core::Error> error = transportError ? transportError : report.error;
    CaptureState state = !complete ? CaptureState::Incomplete : error ? CaptureState::Rejected : CaptureState::Complete;

    QJsonObject answer = reportToJson(report);
    QJsonArray parts = answer["parts"].toArray();
    for (qsizetype i = 0; i < parts.size(); ++i) {
        QJsonObject part = parts[i].toObject();
        if (i < m_savedFiles.size() && !m_savedFiles[i].isEmpty())
            part["saved_as"] = m_savedFiles[i];
        parts[i] = part;
    }
    answer["parts"] = parts;
    answer["ok"] = state == CaptureState::Complete;
    answer["error"] = error ? QJsonValue(errorToJson(*error)) : QJsonValue(QJsonValue::Null);
    answer["endpoint"] = endpointPath(m_request.endpoint);
    answer["matcher"] = matcherLabel();
    answer["hash"] = m_request.hash ? QStringLiteral("sha256") : QStringLiteral("none");
    answer["bytes"] = qint64(m_bodyBytes);
    answer["framing"] = m_request.framing;
    answer["elapsed_ms"] = double(m_clock.nsecsElapsed()) / 1e6;
    answer["capture_id"] = QString::number(m_id);
    answer["state"] = captureStateName(state);

    QJsonObject summary{{"id", QString::number(m_id)},        {"endpoint", answer["endpoint"]},
                        {"client", m_request.client},         {"state", answer["state"]},
                        {"bytes", answer["bytes"]},           {"parts", qint64(report.parts.size())},
                        {"elapsed_ms", answer["elapsed_ms"]}, {"folder", m_folder}};
    if (!m_folder.isEmpty()) {
        QJsonObject capture = answer;
        capture["request"] = QJsonObject{
            {"target", m_request.target}, {"content_type", m_request.contentType}, {"client", m_request.client}};
        capture["throughput"] = samplesToJson(m_allSamples);
        capture["raw_body"] =
            m_rawFile.fileName().isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QStringLiteral("body.raw"));
        m_store.writeCaptureJson(m_folder, capture);
    }
    m_store.remember(summary);

    ListenerEvent done = event(ListenerEvent::Kind::CaptureFinished);
    done.state = state;
    done.error = error;
    done.partCount = int(report.parts.size());
    m_publish(std::move(done));
    return answer;
}

} // namespace upin::app
