#include "probe/probe_runner.h"

#include "probe/answer_check.h"

#include "common/byte_size.h"
#include "common/qt_text.h"
#include "probe/probe_uploads.h"
#include "probe/process_memory.h"
#include "sender/sender.h"
#include "server/server_config.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace upin::app {

using probe_uploads::failed;
using probe_uploads::failure;
using probe_uploads::planBytes;

namespace {
constexpr int kSettleMs = 150;

// One boundary for the whole probe, shaped like a browser's: the dense shapes are made of its prefixes.
const QString kBoundary = QStringLiteral("----UploadInspectorProbe7MA4YWxkTrZu0gW");
constexpr int kManyFields = 10'000;
constexpr qsizetype kFieldBytes = 100;
constexpr int kManyFiles = 1'000;
constexpr quint64 kFileBytes = quint64{16} << 10; // 15.6 MiB in all: the cost per part, not per byte, is its point
constexpr int kSplitParts = 64;
} // namespace

ProbeRunner::ProbeRunner(QObject* parent) : QObject(parent), m_deadline(new QTimer(this))
{
    m_deadline->setSingleShot(true);
    connect(m_deadline, &QTimer::timeout, this, &ProbeRunner::onDeadline);
}

// --max-time is a bound, not only a rule for starting uploads: a server that answers without end, or stalls just
// under the stall timeout, is stopped there; the probe then ends with what it measured.
void ProbeRunner::onDeadline()
{
    m_timedOut = true;
    for (Sender* sender : m_running)
        sender->cancel();
}
ProbeRunner::~ProbeRunner() = default;

// The request's side of a probe's upload: the target, the user's headers and options, the probe's nonce.
UploadPlan ProbeRunner::requestFor(const ProbeSettings& settings, const QUrl& url)
{
    UploadPlan plan;
    plan.targets = {url};
    plan.engine = UploadPlan::Engine::Raw;
    plan.hash = core::HashKind::Xxh3;
    plan.boundary = kBoundary;
    plan.method = settings.method;
    // The user's headers (a cookie, a token) and the probe's nonce are for the target only: a --baseline may be
    // another machine's, which has no business with them (as curl drops auth on a redirect to another host).
    const bool toTarget = settings.baseline.isEmpty() || url != settings.baseline;
    if (toTarget)
        plan.headers = settings.headers;
    // http://user:secret@host/ as curl takes it: Basic auth, unless a header of the user's says otherwise.
    const bool ownAuth = std::any_of(plan.headers.cbegin(), plan.headers.cend(), [](const PlanHeader& h) {
        return h.enabled && h.name.compare(QLatin1String("Authorization"), Qt::CaseInsensitive) == 0;
    });
    if (!url.userName().isEmpty() && !ownAuth)
        plan.headers.append({QStringLiteral("Authorization"), basicAuthorization(url.userName(), url.password())});
    plan.targets = {url.adjusted(QUrl::RemoveUserInfo)};
    plan.caCertificates = settings.caCertificates;
    plan.insecure = settings.insecure;
    plan.stallTimeoutMs = settings.stallTimeoutMs;
    plan.parts = settings.extraParts;
    // Our forwarder then says what passed, with this value back.
    if (toTarget)
        plan.headers.append(
            {QString::fromLatin1(kProbeHeader), settings.nonce.isEmpty() ? QStringLiteral("1") : settings.nonce});
    return plan;
}

UploadPlan ProbeRunner::planFor(const ProbeSettings& settings, const QString& shape, quint64 size, const QUrl& url)
{
    UploadPlan plan = requestFor(settings, url);
    PlanPart part;
    part.kind = PlanPart::Kind::Synthetic;
    part.name = settings.field;
    part.shape = core::BodyShape::Plain;
    if (shape == QLatin1String("many-fields")) {
        for (int i = 0; i < kManyFields; ++i) {
            PlanPart f;
            f.name = QStringLiteral("f%1").arg(i);
            f.value = QString(kFieldBytes, QLatin1Char('a' + i % 26));
            plan.parts.append(f);
        }
        return plan;
    }
    if (shape == QLatin1String("many-files")) {
        part.size = kFileBytes;
        for (int i = 0; i < kManyFiles; ++i) {
            part.filename = QStringLiteral("f%1.bin").arg(i, 4, 10, QLatin1Char('0'));
            plan.parts.append(part);
        }
        return plan;
    }
    if (shape == QLatin1String("split-delimiters")) { // plain in 64 files, each delimiter written in two pieces
        plan.splitDelimiters = true;
        part.size = std::max<quint64>(1, size / kSplitParts);
        for (int i = 0; i < kSplitParts; ++i) {
            part.filename = QStringLiteral("split%1.bin").arg(i, 2, 10, QLatin1Char('0'));
            plan.parts.append(part);
        }
        return plan;
    }
    plan.chunked = shape == QLatin1String("chunked");
    part.size = size;
    part.shape = core::kBodyShapeNames.find(shape.toStdString()).value_or(core::BodyShape::Plain);
    plan.parts.append(part);
    return plan;
}

void ProbeRunner::start(const ProbeSettings& settings)
{
    m_settings = settings;
    m_steps.clear();
    m_done = 0;
    m_phaseStart = 0;
    m_phase = Phase::Shapes;
    m_cancelled = false;
    m_timedOut = false;
    m_report = {};
    if (m_settings.nonce.isEmpty()) // what our forwarder must say back (a server behind it never sees it)
        m_settings.nonce = QString::number(QRandomGenerator::system()->generate64(), 16);
    m_report.target = settings.target.adjusted(QUrl::RemoveUserInfo); // the report is for sharing
    m_report.baseline = settings.baseline;
    m_report.pid = settings.pid;
    const QHostAddress host(settings.target.host());
    const bool local = settings.target.host() == QLatin1String("localhost") || host.isLoopback();
    if (m_report.pid == 0 && local)
        m_report.pid = listeningPid(quint16(settings.target.port(80)), &m_report.pidNote);
    else if (m_report.pid == 0)
        m_report.pidNote = QStringLiteral("the server is not on this machine (give --pid to watch a local one)");
    m_report.cores = local ? QThread::idealThreadCount() : 0;
    m_wireMBps = 0;
    m_memory.reset(); // a runner probes again from the Probe tab: the last probe's process is not this one's
    // The window probing its own listener: watched, and said, since the probe's own buffers are in the figures.
    m_report.watchedSelf = m_report.pid == QCoreApplication::applicationPid();
    if (m_report.pid > 0) {
        m_report.processName = processName(m_report.pid); // a forwarder in front of the server is named as itself
        m_memory = std::make_unique<RssSampler>(m_report.pid, m_clock);
    }
    m_clock.start();
    m_deadline->start(std::chrono::seconds(settings.maxSeconds));
    addShapeSteps();
    runNext();
}

// The next step within the budgets; when a phase's steps are done, the next phase's are made from its results.
void ProbeRunner::runNext()
{
    while (!m_cancelled) {
        if (m_done == m_steps.size()) {
            if (m_phase == Phase::Shapes)
                addPlainAgainStep();
            if (m_phase == Phase::PlainAgain) {
                measureAgainstPlain(m_report); // which shapes look slow (the findings are made at the end)
                addRecheckSteps();
            }
            if (m_phase == Phase::Recheck && m_settings.scaling && plainMeasured() &&
                !scalingSizes(m_settings.size).isEmpty())
                addScalingSteps();
            if (m_phase == Phase::Scaling)
                addConcurrencySteps();
            if (m_phase == Phase::Concurrency)
                break;
            m_phase = Phase(int(m_phase) + 1);
            m_phaseStart = m_done;
            continue;
        }
        quint64 bytes = 0;
        for (const UploadPlan& plan : m_steps[m_done].plans)
            bytes += planBytes(plan);
        const bool overTime = m_timedOut || m_clock.elapsed() > qint64(m_settings.maxSeconds) * 1000;
        if (!overTime && m_report.bytesSent + bytes <= m_settings.maxBytes) {
            // Before an upload whose memory is watched, a moment for the server to free the last one: a threaded
            // server drops a request's objects just after its answer, which would count as this upload's start.
            const Step& step = m_steps[m_done];
            if (step.watchMemory && m_memory)
                QTimer::singleShot(kSettleMs, this, [this] {
                    if (!m_cancelled)
                        startStep(m_steps[m_done]);
                    else
                        finish();
                });
            else
                startStep(step);
            return;
        }
        m_report.skipped << m_steps[m_done].label;
        ++m_done;
    }
    finish();
}

// Scaling is plain's and another shape's against plain's: without plain's figure (left out, refused) it has no
// reference, and its uploads would only spend the budget.
bool ProbeRunner::plainMeasured() const
{
    const ShapeRow* plain = m_report.shapeRow(QStringLiteral("plain"));
    return plain && plain->seconds > 0;
}

void ProbeRunner::startStep(const Step& step)
{
    static const QStringList phases{tr("body shapes"), tr("plain again"), tr("rechecks"), tr("scaling"),
                                    tr("parallel uploads")};
    emit progress(phases[int(m_phase)], step.label, m_done - m_phaseStart, int(m_steps.size()) - m_phaseStart);
    m_results.clear();
    if (step.watchMemory && m_memory)
        m_memory->start();
    m_stepClock.start();
    QList<Sender*> senders;
    for (qsizetype i = 0; i < step.plans.size(); ++i) {
        auto* sender = new Sender(this);
        senders.append(sender);
        connect(sender, &Sender::finished, this, [this, sender](const QList<RunResult>& runs) {
            m_results += runs;
            m_running.removeOne(sender);
            sender->deleteLater();
            if (m_running.isEmpty())
                stepDone();
        });
    }
    m_running = senders;
    for (qsizetype i = 0; i < senders.size(); ++i)
        senders[i]->start(step.plans[i]);
}

void ProbeRunner::stepDone()
{
    const double wall = double(m_stepClock.nsecsElapsed()) / 1e9;
    Step& step = m_steps[m_done];
    const quint64 growth = step.watchMemory && m_memory ? m_memory->stop(&m_report.rss) : 0;
    if (step.watchMemory && m_memory)
        m_report.processes = std::max(m_report.processes, m_memory->processCount());
    for (const RunResult& r : m_results)
        m_report.bytesSent += r.bytesSent;
    if (m_timedOut) { // stopped at --max-time: its runs were cut, not answered
        m_report.skipped << step.label + QStringLiteral(" (stopped at the time budget)");
        judgeCutRuns(step);
    } else if (!m_cancelled) {
        step.record(m_results, wall, growth);
        emit updated(m_report);
    }
    ++m_done;
    runNext();
}

// A run the deadline cut after a long wait is a timeout on a valid body, not only a step left out: a server that
// stopped reading (under the stall timeout's 30 s when --max-time is shorter), or that sent its head and then
// dripped, or never ended, its answer.
void ProbeRunner::judgeCutRuns(const Step& step)
{
    constexpr double kStuckSeconds = 5;
    const QString shape = step.label == QLatin1String("warming up") // plain, at most 8 MiB
                              ? QStringLiteral("plain")
                              : step.label.section(QLatin1Char(':'), 0, 0).section(QLatin1Char(','), 0, 0);
    for (const RunResult& r : m_results) {
        const double lastProgress = r.upload.isEmpty() ? 0 : double(r.upload.last().msSinceStart) / 1000;
        QString why;
        if (r.httpStatus == 0 && r.bytesSent < r.bodyBytes && r.totalSeconds - lastProgress >= kStuckSeconds)
            why = QStringLiteral("the server took %1 of it, then read nothing for %2 s")
                      .arg(formatBytes(r.bytesSent))
                      .arg(r.totalSeconds - lastProgress, 0, 'f', 1);
        else if (r.httpStatus > 0 && r.responseHeadSeconds >= 0 &&
                 r.totalSeconds - r.responseHeadSeconds >= kStuckSeconds)
            why = QStringLiteral("the server answered %1, and its answer had not ended %2 s later")
                      .arg(QString::fromUtf8(r.statusLine))
                      .arg(r.totalSeconds - r.responseHeadSeconds, 0, 'f', 1);
        if (why.isEmpty())
            continue;
        m_report.findings.append({QStringLiteral("rejected_valid_body"), shape,
                                  QStringLiteral("a valid %1 body of %2 timed out: %3, until the time budget "
                                                 "(--max-time) stopped the probe")
                                      .arg(shape, formatBytes(r.bodyBytes), why)});
        return; // one is the finding: the others of a round wait on the same server
    }
}

void ProbeRunner::checkAnswer(const QString& shape, const RunResult& result)
{
    auto once = [&](const QString& kind, const QString& message) {
        for (const ProbeFinding& f : m_report.findings)
            if (f.kind == kind && f.shape == shape)
                return;
        m_report.findings.append({kind, shape, message});
    };
    // A refusal first: the server stopped taking the body, and whatever the forwarder saw is a part of it.
    if (failed(result)) {
        once(QStringLiteral("rejected_valid_body"), QStringLiteral("a valid %1 body of %2 was refused: %3")
                                                        .arg(shape, formatBytes(result.bodyBytes), failure(result)));
        return;
    }
    // Through our forwarder: what it saw pass tells the server's fault from the client's.
    const ForwarderSaw saw = forwarderSaw(result, m_settings.nonce);
    const QString passed =
        saw.capture > 0 && saw.wrong.isEmpty()
            ? QStringLiteral(" (our forwarder on the way saw every part whole: capture %1)").arg(saw.capture)
            : QString();
    if (!saw.wrong.isEmpty())
        once(QStringLiteral("wrong_bytes"), QStringLiteral("%1 body: %2").arg(shape, saw.wrong));
    else if (const QString why = wrongBytes(result, m_settings.expectSizePath, m_settings.field); !why.isEmpty())
        once(QStringLiteral("wrong_bytes"), QStringLiteral("%1 body: %2%3").arg(shape, why, passed));
    else if (result.response.size() >= kKeptResponseBytes && QJsonDocument::fromJson(result.response).isNull() &&
             !m_report.uncheckedAnswers.contains(shape))
        m_report.uncheckedAnswers << shape; // said, not passed over in silence: it may be an echo cut short
    else if (!expectedSizeFound(result, m_settings.expectSizePath) && !m_report.expectMissing.contains(shape))
        m_report.expectMissing << shape;
}

void ProbeRunner::cancel()
{
    m_cancelled = true;
    m_report.cancelled = true;
    for (Sender* sender : m_running)
        sender->cancel();
}

void ProbeRunner::finish()
{
    m_deadline->stop();
    if (m_memory)
        m_memory->stop(&m_report.rss);
    for (const ShapeRow& row : m_report.shapes)
        if (row.rssGrowth > m_report.peakGrowth) {
            m_report.peakGrowth = row.rssGrowth;
            m_report.growthPerByte = row.bytes > 0 ? double(row.rssGrowth) / double(row.bytes) : 0;
            m_report.peakShape = row.shape;
        }
    addFindings(m_report); // after the rejections and wrong bytes found while running, which it reads
    m_report.seconds = double(m_clock.nsecsElapsed()) / 1e9;
    emit finished(m_report);
}

} // namespace upin::app
