#include "probe/probe_runner.h"

#include "probe/answer_check.h"

#include "common/byte_size.h"
#include "common/qt_text.h"
#include "probe/process_memory.h"
#include "sender/sender.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>

namespace upin::app {

namespace {
constexpr int kSettleMs = 150;

// One boundary for the whole probe, shaped like a browser's: the dense shapes are made of its prefixes.
const QString kBoundary = QStringLiteral("----UploadInspectorProbe7MA4YWxkTrZu0gW");
constexpr int kManyFields = 10'000;
constexpr qsizetype kFieldBytes = 100;
constexpr int kManyFiles = 1'000;
constexpr quint64 kFileBytes = quint64{64} << 10;
constexpr int kSplitParts = 64;
constexpr quint64 kConcurrentBytes = quint64{8} << 20; // each client's upload in the concurrency rounds
constexpr quint64 kSmallestScaled = quint64{4} << 20;

quint64 planBytes(const UploadPlan& plan)
{
    quint64 bytes = 0;
    for (const PlanPart& part : plan.parts)
        bytes += (part.kind == PlanPart::Kind::Synthetic ? part.size : quint64(part.value.size())) + 160;
    return bytes * quint64(plan.targets.size());
}

double percentile(QList<double> values, double share)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min<qsizetype>(values.size() - 1, qsizetype(share * double(values.size())))];
}

bool failed(const RunResult& r)
{
    return !r.error.isEmpty() || r.httpStatus == 0 || r.httpStatus >= 400 || !r.bodySent();
}

QString failure(const RunResult& r)
{
    return !r.error.isEmpty()        ? r.error
           : !r.statusLine.isEmpty() ? QString::fromUtf8(r.statusLine)
                                     : QStringLiteral("no answer");
}

} // namespace

ProbeRunner::ProbeRunner(QObject* parent) : QObject(parent) {}
ProbeRunner::~ProbeRunner() = default;

UploadPlan ProbeRunner::planFor(const ProbeSettings& settings, const QString& shape, quint64 size, const QUrl& url)
{
    UploadPlan plan;
    plan.targets = {url};
    plan.engine = UploadPlan::Engine::Raw;
    plan.hash = core::HashKind::Xxh3;
    plan.boundary = kBoundary;
    plan.method = settings.method;
    plan.headers = settings.headers;
    plan.caCertificates = settings.caCertificates;
    plan.insecure = settings.insecure;
    plan.stallTimeoutMs = settings.stallTimeoutMs;
    plan.parts = settings.extraParts;
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
    m_report = {};
    m_report.target = settings.target.adjusted(QUrl::RemoveUserInfo); // the report is for sharing
    m_report.baseline = settings.baseline;
    m_report.pid = settings.pid;
    const QHostAddress host(settings.target.host());
    const bool local = settings.target.host() == QLatin1String("localhost") || host.isLoopback();
    if (m_report.pid == 0 && local)
        m_report.pid = listeningPid(quint16(settings.target.port(80)), &m_report.pidNote);
    else if (m_report.pid == 0)
        m_report.pidNote = QStringLiteral("the server is not on this machine (give --pid to watch a local one)");
    m_wireMBps = 0;
    m_memory.reset(); // a runner probes again from the Probe tab: the last probe's process is not this one's
    if (m_report.pid > 0)
        m_memory = std::make_unique<RssSampler>(m_report.pid, m_clock);
    m_clock.start();
    addShapeSteps();
    runNext();
}

// First a warm-up of each side, not counted: a probe's first upload also pays for starting up (our client's and
// the baseline's, which once read as a server 4x nearer the wire on plain than on every other shape; a Go server's
// first heap growth, which made plain its slowest shape and every other one look fast). Each shape: the baseline
// once, then the target twice (the better run counts: one slow run on a shared machine is not a finding).
void ProbeRunner::addShapeSteps()
{
    for (const QUrl& side : {m_settings.baseline, m_settings.target})
        m_steps.append(
            {QStringLiteral("warming up"),
             {planFor(m_settings, QStringLiteral("plain"), std::min(m_settings.size, kConcurrentBytes), side)},
             false,
             [this, side](const QList<RunResult>& runs, double, quint64) {
                 // No answer at all (refused, no such host, a TLS failure): nothing after it would measure a server.
                 if (!runs.isEmpty() && runs.first().httpStatus == 0) {
                     m_report.unreachable = QStringLiteral("%1 could not be reached: %2")
                                                .arg(side.toString(QUrl::RemoveUserInfo), failure(runs.first()));
                     m_cancelled = true;
                 }
             }});
    for (const QString& shape : m_settings.shapes) {
        const UploadPlan target = planFor(m_settings, shape, m_settings.size, m_settings.target);
        ShapeRow row;
        row.shape = shape;
        m_report.shapes.append(row);
        const qsizetype index = m_report.shapes.size() - 1;
        if (shape.startsWith(QLatin1String("many-"))) // plain of the form's own size: the same fixed cost per request
            for (int attempt = 0; attempt < 2; ++attempt)
                m_steps.append({QStringLiteral("%1: plain of its size, run %2 of 2").arg(shape).arg(attempt + 1),
                                {planFor(m_settings, QStringLiteral("plain"), planBytes(target), m_settings.target)},
                                false,
                                [this, index](const QList<RunResult>& runs, double, quint64) {
                                    double& best = m_report.shapes[index].plainSameSizeSeconds;
                                    if (!runs.isEmpty() && !failed(runs.first()) &&
                                        (best <= 0 || runs.first().totalSeconds < best))
                                        best = runs.first().totalSeconds;
                                }});
        m_steps.append({QStringLiteral("%1: baseline").arg(shape),
                        {planFor(m_settings, shape, m_settings.size, m_settings.baseline)},
                        false,
                        [this, index](const QList<RunResult>& runs, double, quint64) {
                            if (!runs.isEmpty() && !failed(runs.first()))
                                m_report.shapes[index].baselineSeconds = runs.first().totalSeconds;
                        }});
        for (int attempt = 0; attempt < 2; ++attempt)
            m_steps.append({QStringLiteral("%1: run %2 of 2").arg(shape).arg(attempt + 1),
                            {target},
                            true,
                            [this, index, shape, attempt](const QList<RunResult>& runs, double, quint64 growth) {
                                ShapeRow& row = m_report.shapes[index];
                                // The smaller growth of the two: a server that holds bodies grows by each one; a
                                // garbage-collected runtime grows once (by buffers it frees later) and reuses it.
                                row.rssGrowth = attempt == 0 ? growth : std::min(row.rssGrowth, growth);
                                if (runs.isEmpty())
                                    return;
                                const RunResult& r = runs.first();
                                row.bytes = r.bodyBytes;
                                row.status = r.httpStatus;
                                row.statusLine = QString::fromUtf8(r.statusLine);
                                checkAnswer(shape, r);
                                if (failed(r))
                                    row.error = failure(r);
                                else if (row.seconds < 0 || r.totalSeconds < row.seconds)
                                    row.seconds = r.totalSeconds;
                            }});
    }
}

// Plain and the slowest content shape (by its rate against plain's; not the forms' shapes, nor a paced one) at sizes doubling from 4 MiB to the probe's.
void ProbeRunner::addScalingSteps()
{
    measureAgainstPlain(m_report); // to find the slowest (the findings are made at the end, with every figure)
    QStringList shapes{QStringLiteral("plain")};
    const ShapeRow* slowest = nullptr;
    for (const ShapeRow& row : m_report.shapes)
        if (!row.shape.startsWith(QLatin1String("many-")) && !judgedByBaseline(row.shape) &&
            row.shape != QLatin1String("plain") && row.vsPlain > 0 && (!slowest || row.vsPlain > slowest->vsPlain))
            slowest = &row;
    if (slowest)
        shapes << slowest->shape;
    for (const QString& shape : shapes) {
        m_report.scaling.append({shape, {}, {}, 0});
        const qsizetype index = m_report.scaling.size() - 1;
        for (quint64 size = kSmallestScaled; size <= m_settings.size; size *= 2)
            for (int attempt = 0; attempt < 2; ++attempt) // the better of two: one stalled run bends the fit
                m_steps.append(
                    {QStringLiteral("scaling %1: %2, run %3 of 2").arg(shape, formatBytes(size)).arg(attempt + 1),
                     {planFor(m_settings, shape, size, m_settings.target)},
                     false,
                     [this, index, size](const QList<RunResult>& runs, double, quint64) {
                         if (runs.isEmpty() || failed(runs.first()))
                             return;
                         ScalingRow& row = m_report.scaling[index];
                         const double seconds = runs.first().totalSeconds;
                         if (!row.sizes.isEmpty() && row.sizes.last() == size)
                             row.seconds.last() = std::min(row.seconds.last(), seconds);
                         else
                             row.sizes.append(size), row.seconds.append(seconds);
                         row.exponent = fitExponent(row.sizes, row.seconds);
                     }});
    }
}

void ProbeRunner::addConcurrencySteps()
{
    const quint64 each = std::min(m_settings.size, kConcurrentBytes);
    for (int clients : m_settings.concurrency) {
        // The same round to the baseline first: what this machine's client allows at this count.
        UploadPlan wire = planFor(m_settings, QStringLiteral("plain"), each, m_settings.baseline);
        wire.lean = true;
        m_steps.append({QStringLiteral("%1 parallel uploads: baseline").arg(clients), QList<UploadPlan>(clients, wire),
                        false, [this](const QList<RunResult>& runs, double wall, quint64) {
                            quint64 bytes = 0;
                            for (const RunResult& r : runs)
                                bytes += failed(r) ? 0 : r.bodyBytes;
                            m_wireMBps = wall > 0 ? double(bytes) / 1e6 / wall : 0;
                        }});
        UploadPlan plan = planFor(m_settings, QStringLiteral("plain"), each, m_settings.target);
        plan.lean = true;                             // sixteen at 4 MiB each would take the probe past 100 MiB
        for (int attempt = 0; attempt < 2; ++attempt) // the better round counts, and every failure
            m_steps.append({QStringLiteral("%1 parallel uploads, round %2 of 2").arg(clients).arg(attempt + 1),
                            QList<UploadPlan>(clients, plan), false,
                            [this, clients, attempt](const QList<RunResult>& runs, double wall, quint64) {
                                ConcurrencyRow row;
                                row.clients = clients;
                                row.uploads = int(runs.size());
                                QList<double> seconds;
                                quint64 bytes = 0;
                                for (const RunResult& r : runs) {
                                    if (failed(r)) {
                                        ++row.errors;
                                        if (row.firstError.isEmpty())
                                            row.firstError = failure(r);
                                        continue;
                                    }
                                    seconds.append(r.totalSeconds);
                                    bytes += r.bodyBytes;
                                }
                                row.mbPerSecond = wall > 0 ? double(bytes) / 1e6 / wall : 0;
                                row.p50 = percentile(seconds, 0.5);
                                row.p95 = percentile(seconds, 0.95);
                                row.baselineMBps = m_wireMBps;
                                if (attempt == 0 || m_report.concurrency.isEmpty()) {
                                    m_report.concurrency.append(row);
                                    return;
                                }
                                ConcurrencyRow& first = m_report.concurrency.last();
                                row.errors += first.errors;
                                row.uploads += first.uploads;
                                row.firstError = first.firstError.isEmpty() ? row.firstError : first.firstError;
                                if (row.mbPerSecond > first.mbPerSecond)
                                    first = row;
                                else
                                    first.errors = row.errors, first.firstError = row.firstError,
                                    first.uploads = row.uploads;
                            }});
    }
}

// The next step within the budgets; when a phase's steps are done, the next phase's are made from its results.
void ProbeRunner::runNext()
{
    while (!m_cancelled) {
        if (m_done == m_steps.size()) {
            if (m_phase == Phase::Shapes && m_settings.scaling && m_settings.shapes.contains(QStringLiteral("plain")))
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
        const bool overTime = m_clock.elapsed() > qint64(m_settings.maxSeconds) * 1000;
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

void ProbeRunner::startStep(const Step& step)
{
    static const QStringList phases{tr("body shapes"), tr("scaling"), tr("parallel uploads")};
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
    if (m_timedOut) // stopped at --max-time: its runs were cut, not answered
        m_report.skipped << step.label + QStringLiteral(" (stopped at the time budget)");
    else if (!m_cancelled) {
        step.record(m_results, wall, growth);
        emit updated(m_report);
    }
    ++m_done;
    runNext();
}

void ProbeRunner::checkAnswer(const QString& shape, const RunResult& result)
{
    auto once = [&](const QString& kind, const QString& message) {
        for (const ProbeFinding& f : m_report.findings)
            if (f.kind == kind && f.shape == shape)
                return;
        m_report.findings.append({kind, shape, message});
    };
    if (failed(result))
        once(QStringLiteral("rejected_valid_body"), QStringLiteral("a valid %1 body of %2 was refused: %3")
                                                        .arg(shape, formatBytes(result.bodyBytes), failure(result)));
    else if (const QString why = wrongBytes(result, m_settings.expectSizePath, m_settings.field); !why.isEmpty())
        once(QStringLiteral("wrong_bytes"), QStringLiteral("%1 body: %2").arg(shape, why));
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
    if (m_memory)
        m_memory->stop(&m_report.rss);
    for (const ShapeRow& row : m_report.shapes)
        if (row.rssGrowth > m_report.peakGrowth) {
            m_report.peakGrowth = row.rssGrowth;
            m_report.growthPerByte = row.bytes > 0 ? double(row.rssGrowth) / double(row.bytes) : 0;
            m_report.peakShape = row.shape;
        }
    QList<ProbeFinding> found = m_report.findings; // rejections and wrong bytes, found while running
    m_report.findings.clear();
    addFindings(m_report);
    m_report.findings = found + m_report.findings;
    m_report.seconds = double(m_clock.nsecsElapsed()) / 1e9;
    emit finished(m_report);
}

} // namespace upin::app
