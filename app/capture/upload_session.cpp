#include "capture/upload_session.h"
#include "capture/capture_record.h"
#include "common/upin_headers.h"

#include <QUrlQuery>

#include "capture/report_json.h"
#include "common/qt_text.h"

#include <QDir>

#include <cmath>
#include <future>
#include <system_error>

namespace upin::app {

namespace {
constexpr qint64 kSampleIntervalMs = 50;

constexpr qsizetype kMaxStoredSamples = 20'000;

constexpr size_t kPartsForAThreadOfItsOwn = 256; // capture.json's (finish() says why)

} // namespace

QString endpointPath(Endpoint endpoint)
{
    return toQString(kEndpointPaths.name(endpoint));
}

QString requestedHashName(const QString& query, const core::RequestHead& head)
{
    const QString hash = QUrlQuery(query).queryItemValue(QStringLiteral("hash"));
    return !hash.isEmpty() ? hash : toQString(head.field(QByteArray(kHashHeader).toLower().toStdString()));
}

UploadSession::UploadSession(const SessionRequest& request, CaptureStore& store, Publish publish)
    : m_request(request), m_store(store),
      m_publish(request.unlisted ? Publish([](const CaptureEvent&) {}) : std::move(publish)), m_id(store.nextId()),
      m_endpointLabel(request.forwardedTo.isEmpty() ? endpointPath(request.endpoint)
                      : request.proxied             ? QStringLiteral("proxy → ") + request.forwardedTo
                                                    : QStringLiteral("→ ") + request.forwardedTo)
{
    m_clock.start();
    m_readCpuStartNs = core::threadCpuNanoseconds();
}

UploadSession::~UploadSession()
{
    m_hashing.reset(); // their threads use the members below: they end first
    m_storing.reset();
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
    const bool forwarded = !request.forwardedTo.isEmpty();
    // A forwarded body that is not multipart, kept whole when asked: body.raw and head.raw, no parts.
    const bool keepsWhole = forwarded && request.endpoint == Endpoint::Discard && request.keepRaw;
    const bool stores = request.endpoint == Endpoint::FilePart || request.endpoint == Endpoint::Capture || keepsWhole;
    if ((stores || forwarded) && !request.unlisted) {
        QString error;
        session->m_folder = store.beginCapture(
            session->m_id, forwarded ? QStringLiteral("forward") : endpointPath(request.endpoint), &error);
        if (session->m_folder.isEmpty()) { // nothing can be stored: the capture fails before its first byte
            session->m_storeFailure = StoreFailure{store.root(), error, 0};
        } else {
            CaptureStore::reserveCaptureJsonSpace(session->m_folder);
            if (stores) {
                // /capture keeps fields inline as /file-part does (body.raw holds them too): a file per field made
                // a form of 10,000 fields cost 10,000 file creations.
                using PartFiles = CaptureWriter::PartFiles;
                const PartFiles partFiles =
                    (request.endpoint == Endpoint::Capture && request.captureBodyOnly) || keepsWhole
                        ? PartFiles::None
                        : PartFiles::FileParts;
                session->m_writer = std::make_unique<CaptureWriter>(session->m_folder, partFiles, request.parser);
                if (request.endpoint == Endpoint::Capture || request.keepRaw)
                    session->m_writer->startRaw(request.rawHead);
            }
        }
    }
    session->startPipelines();
    session->m_matcherLabel = session->matcherLabel();
    session->m_publish(session->event(CaptureEvent::Kind::CaptureStarted));
    return session;
}

// SHA-256 and storing off the connection's thread, each on its own, so that they overlap reading the next bytes
// and each other. XXH3 stays on it: it hashes bytes still in cache at tens of GB/s, and handing them to another
// thread costs more than that (a 200 MiB relay: 30 ms of CPU more than no hash through a pipeline). A request that
// does neither only parses, for the same reason.
void UploadSession::startPipelines()
{
    if (m_writer)
        m_storing = std::make_unique<core::PartPipeline>(
            *m_writer, [writer = m_writer.get()](core::ByteView data) { writer->writeRaw(data); });
    if (!m_parser)
        return; // /discard: nothing to parse (a forwarded body kept whole is only written)
    core::PartHandler& recording = *this;
    if (m_request.hash == core::HashKind::Sha256)
        m_hashing = std::make_unique<core::PartPipeline>(recording);
    core::PartHandler* recordingTarget = m_hashing ? static_cast<core::PartHandler*>(m_hashing.get()) : &recording;
    if (m_storing) {
        m_tee = std::make_unique<core::PartTee>(*recordingTarget, *m_storing);
        m_partTarget = m_tee.get();
    } else {
        m_partTarget = recordingTarget;
    }
    if (!m_request.forwardedTo.isEmpty()) {
        m_tallying = std::make_unique<Tallying>();
        m_tallying->next = m_partTarget;
        m_partTarget = m_tallying.get();
    }
}

UploadSession::PartTally UploadSession::tally() const
{
    PartTally tally = m_tallying ? m_tallying->tally : PartTally{};
    tally.parsed = bool(m_status);
    return tally;
}

QString UploadSession::matcherLabel() const
{
    return m_parser ? toQString(core::matcherName(m_request.parser.matcher))
                    : QStringLiteral("none"); // /discard parses nothing
}

CaptureEvent UploadSession::event(CaptureEvent::Kind kind) const
{
    CaptureEvent e;
    e.kind = kind;
    CaptureSummary& c = e.capture;
    c.id = m_id;
    c.received = m_request.receivedAt;
    c.endpoint = m_endpointLabel;
    c.method = m_request.method;
    c.fromProbe = m_request.fromProbe;
    c.client = m_request.client;
    c.tls = m_request.transport.label();
    c.matcher = m_matcherLabel;
    c.bytes = m_bodyBytes;
    // Whole milliseconds begun, as stored captures are listed: a sub-millisecond capture reads 1 ms, with a rate.
    c.elapsedMs = qint64(std::ceil(double(m_clock.nsecsElapsed()) / 1e6));
    c.folder = m_folder;
    return e;
}

void UploadSession::setSource(core::BlockPool::Block block)
{
    if (m_hashing)
        m_hashing->setSource(block);
    if (m_storing)
        m_storing->setSource(std::move(block));
}

void UploadSession::onBody(core::ByteView data)
{
    m_bodyBytes += data.size();
    if (failed()) // storing failed on the writer's thread: nothing more is read into this capture
        return;
    if (m_writer && m_writer->keepsRaw())
        m_storing->onBody(data);
    m_feedMs.store(m_clock.elapsed(), std::memory_order_relaxed);
    if (m_parser)
        m_status = m_parser->feed(data, *m_partTarget);
    sample(false);
}

void UploadSession::flush()
{
    for (core::PartPipeline* pipeline : {m_hashing.get(), m_storing.get()})
        if (pipeline)
            pipeline->flush();
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
    CaptureEvent e = event(CaptureEvent::Kind::Progress);
    e.samples = {s};
    e.capture.parts = int(m_partsBegun);
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
    ++m_partsBegun;
    m_part = ShownPart{m_feedMs.load(std::memory_order_relaxed), false};
    if (m_partsShown < kPartsAlwaysTimed || m_part.beganMs - m_lastPartShownMs >= kPartTimingIntervalMs)
        showPart();
}

void UploadSession::onPartData(core::ByteView data, uint64_t offset)
{
    m_recorder->onPartData(data, offset);
    if (!m_part.shown && m_feedMs.load(std::memory_order_relaxed) - m_part.beganMs >= kPartTimingIntervalMs)
        showPart();
}

void UploadSession::onPartEnd(uint64_t offset)
{
    m_recorder->onPartEnd(offset);
    if (!m_part.shown && m_feedMs.load(std::memory_order_relaxed) - m_part.beganMs >= kPartTimingIntervalMs)
        showPart(); // its bytes came early, its end late
    if (!m_part.shown)
        return;
    CaptureEvent e = event(CaptureEvent::Kind::PartFinished);
    e.part = *m_recorder->currentPart();
    m_publish(std::move(e));
}

void UploadSession::showPart()
{
    CaptureEvent e = event(CaptureEvent::Kind::PartStarted);
    e.partBeganMs = m_part.beganMs; // shown late, it still begins where it began
    e.part = *m_recorder->currentPart();
    m_publish(std::move(e));
    m_part.shown = true;
    ++m_partsShown;
    m_lastPartShownMs = m_feedMs.load(std::memory_order_relaxed);
}

void UploadSession::onDiagnostic(const core::Diagnostic& diagnostic)
{
    m_recorder->onDiagnostic(diagnostic);
}

// After a failed write the report claims only what is stored, though the hashing side may have read further: the
// part being stored keeps the bytes that were (incomplete, without a hash), and the parts after it are dropped;
// with no part being stored, the parts from the first byte not stored on are dropped.
void UploadSession::applyStoreFailure(core::ParseReport& report) const
{
    if (!m_storeFailure)
        return;
    const StoreFailure& failure = *m_storeFailure;
    if (failure.partIndex < 0) {
        std::erase_if(report.parts, [&](const core::PartSummary& part) { return part.offset >= failure.offset; });
        return;
    }
    std::erase_if(report.parts, [&](const core::PartSummary& part) { return int(part.index) > failure.partIndex; });
    for (auto& part : report.parts) {
        if (int(part.index) == failure.partIndex) {
            part.size = failure.partBytes;
            part.digest.clear();
            part.complete = false;
            part.children.clear();
        }
    }
}

QByteArrayList UploadSession::finish(const core::BodyDecoder& wire, bool complete,
                                     std::optional<core::Error> transportError, const QString& detail,
                                     const ForwardRecord* forward, int cutStatus)
{
    drainPipelines(complete);
    const Ending ending{complete, transportError, detail, forward, cutStatus};
    CaptureRecord record = makeRecord(wire, ending);
    QByteArrayList answer = m_folder.isEmpty() ? answerOf(record, ending) : store(record, ending);
    publishFinished(std::move(record));
    return answer;
}

void UploadSession::drainPipelines(bool complete)
{
    m_feedMs.store(m_clock.elapsed(), std::memory_order_relaxed); // the last part's end, if the body ends here
    if (m_parser && !failed() && complete)
        m_status = m_parser->finish(*m_partTarget);
    // Every part hashed and stored: from here on this thread reads what the pipelines' threads made.
    for (core::PartPipeline* pipeline : {m_hashing.get(), m_storing.get()})
        if (pipeline)
            pipeline->drain();
    if (m_writer) {
        m_writer->close();
        if (!m_storeFailure)
            m_storeFailure = m_writer->failure();
    }
    if (m_storeFailure) // a write failed: that, not the parser's outcome, is the capture's
        m_status = core::Error{core::Errc::IoError, m_storeFailure->offset};
    sample(true);
}

CaptureRecord UploadSession::makeRecord(const core::BodyDecoder& wire, const Ending& ending)
{
    CaptureRecord record;
    if (m_recorder) {
        record.report = m_recorder->takeReport(m_status, *m_parser);
    } else {
        record.report.ok = !m_storeFailure;
        record.report.bytes = m_bodyBytes;
    }
    applyStoreFailure(record.report);
    record.id = m_id;
    record.endpoint = m_endpointLabel;
    record.matcher = m_matcherLabel;
    record.hash = toQString(core::kHashNames.name(m_recorder ? m_request.hash : core::HashKind::None));
    if (m_writer)
        record.kept = m_writer->kept();
    record.bytes = m_bodyBytes;
    record.framing = framingName(m_request.framing.kind);
    if (m_request.http2)
        record.http2 = m_request.http2();
    // Where the time went, per thread: reading and parsing (the connection's thread, which also records when there
    // is no hashing pipeline; its CPU time from the body's start, so it includes other connections the thread
    // served meanwhile: Qt reads the socket before we see the bytes, so there is no finer way to count it),
    // hashing, storing. With a core for each they overlap; see bench-e2e.
    auto ms = [](uint64_t ns) { return double(ns) / 1e6; };
    record.cpuMs.readParse = ms(core::threadCpuNanoseconds() - m_readCpuStartNs);
    if (m_hashing)
        record.cpuMs.hash = ms(m_hashing->cpuNanoseconds());
    if (m_storing)
        record.cpuMs.store = ms(m_storing->cpuNanoseconds());
    setOutcome(record, ending,
               m_storeFailure          ? m_status.error()
               : ending.transportError ? ending.transportError
                                       : record.report.error);
    if (ending.forward)
        record.forward = *ending.forward;
    // The request: in capture.json, or (no folder) in the record the window's Inspect shows.
    record.request = RequestRecord::fromRawHead(m_request.rawHead);
    record.request.target = m_request.target; // normalised: an absolute-form target's path and query
    record.request.host = m_request.host;
    record.request.contentType = m_request.contentType;
    record.request.client = m_request.client;
    record.request.receivedAt = m_request.receivedAt;
    record.request.headMs = m_request.headMs;
    record.request.transport = m_request.transport;
    if (!m_request.transport.http.isEmpty()) // head.raw is its header list written as HTTP/1.1; it came as HTTP/2
        record.request.version = QStringLiteral("HTTP/2");
    record.request.setWire(m_request.framing, &wire);
    return record;
}

void UploadSession::setOutcome(CaptureRecord& record, const Ending& ending, std::optional<core::Error> error)
{
    m_state = m_storeFailure     ? CaptureState::Failed
              : !ending.complete ? CaptureState::Incomplete
              : error            ? CaptureState::Rejected
                                 : CaptureState::Complete;
    record.state = m_state;
    record.error = error;
    record.detail = ending.detail;
    if (m_storeFailure)
        record.writeFailure = CaptureRecord::WriteFailure{m_storeFailure->file, m_storeFailure->message};
    record.elapsedMs = double(m_clock.nsecsElapsed()) / 1e6;
    m_answerStatus = ending.forward                      ? 0
                     : m_state == CaptureState::Failed   ? 507 // the body was fine; storing it was not
                     : !ending.complete                  ? ending.cutStatus
                     : m_state == CaptureState::Complete ? 200
                                                         : 400;
    record.answered.reset();
    if (m_answerStatus != 0)
        record.answered = CaptureRecord::Answered{m_answerStatus, m_request.briefAnswer};
}

// Forward mode's client gets the upstream's answer: none of ours is made (for 10,000 parts, megabytes of JSON).
QByteArrayList UploadSession::answerOf(const CaptureRecord& record, const Ending& ending) const
{
    return ending.forward
               ? QByteArrayList()
               : record.answerJson(m_request.briefAnswer ? CaptureRecord::Detail::Brief : CaptureRecord::Detail::Full);
}

QByteArrayList UploadSession::store(CaptureRecord& record, const Ending& ending)
{
    record.throughput = m_allSamples;
    record.rawBodyKept = m_writer && m_writer->keepsRaw();
    auto writeJson = [&record, folder = m_folder] {
        QString writeError;
        const bool ok = CaptureStore::writeCaptureJson(
            folder, [&record](JsonWriter& w) { record.writeJson(w); }, &writeError);
        return std::pair{ok, writeError};
    };
    // For many parts capture.json is made and written on a thread of its own while this one makes the answer:
    // for a form of 10,000 fields each is megabytes, and one after the other they were half of /file-part's
    // time. For a few parts a thread would cost more than it saves; and if none can be had, it is done here.
    std::future<std::pair<bool, QString>> written;
    if (record.report.parts.size() >= kPartsForAThreadOfItsOwn) {
        try {
            written = std::async(std::launch::async, writeJson);
        } catch (const std::system_error&) {}
    }
    QByteArrayList answer = answerOf(record, ending);
    const auto [ok, writeError] = written.valid() ? written.get() : writeJson();
    if (!ok && !m_storeFailure) { // the answer says so instead
        m_storeFailure = StoreFailure{QStringLiteral("capture.json"), writeError, m_bodyBytes};
        setOutcome(record, ending, core::Error{core::Errc::IoError, m_bodyBytes});
        answer = answerOf(record, ending);
    }
    return answer;
}

void UploadSession::publishFinished(CaptureRecord record)
{
    CaptureEvent done;
    done.kind = CaptureEvent::Kind::CaptureFinished;
    done.capture = record.summary(m_folder);
    if (!m_request.unlisted)
        m_store.endCapture(done.capture);
    if (m_folder.isEmpty())
        done.record = std::make_shared<const CaptureRecord>(std::move(record));
    m_publish(std::move(done));
}

} // namespace upin::app
