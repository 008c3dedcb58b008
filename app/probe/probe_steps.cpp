// The probe's plan: the steps of each phase, made when the phase begins, each with what it records in the report.
// ProbeRunner (probe_runner.cpp) runs them in order within the budgets.

#include "probe/probe_runner.h"

#include "common/byte_size.h"
#include "probe/answer_check.h"
#include "probe/probe_uploads.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <memory>

namespace upin::app {

using probe_uploads::failed;
using probe_uploads::failure;
using probe_uploads::location;
using probe_uploads::planBytes;
using probe_uploads::redirectedAfterUpload;

namespace {

constexpr quint64 kConcurrentBytes = quint64{2} << 20; // each client's upload in the concurrency rounds
// The warm-up's: more than loopback's socket buffers hold, so that a server that stops reading is met there.
constexpr quint64 kWarmUpBytes = quint64{8} << 20;
constexpr quint64 kSmallestScaled = quint64{4} << 20;

double percentile(QList<double> values, double share)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    // The nearest rank: of two, the median is the first and p95 the second.
    const auto rank = qsizetype(std::ceil(share * double(values.size())));
    return values[std::clamp<qsizetype>(rank - 1, 0, values.size() - 1)];
}

// How many times slower than plain a shape is, by its recheck too when it had one (the smaller counts).
double slowness(const ShapeRow& row)
{
    return row.recheckVsPlain > 0 ? std::min(row.vsPlain, row.recheckVsPlain) : row.vsPlain;
}

} // namespace

// First a warm-up of each side, not counted: a probe's first upload also pays for starting up (our client's and
// the baseline's, which once read as a server 4x nearer the wire on plain than on every other shape; a Go server's
// first heap growth, which made plain its slowest shape and every other one look fast). Each shape: the baseline
// once, then the target twice (the better run counts: one slow run on a shared machine is not a finding).
void ProbeRunner::addShapeSteps()
{
    for (const QUrl& side : {m_settings.baseline, m_settings.target})
        m_steps.append({QStringLiteral("warming up"),
                        {planFor(m_settings, QStringLiteral("plain"), std::min(m_settings.size, kWarmUpBytes), side)},
                        false,
                        [this, side](const QList<RunResult>& runs, double, quint64) {
                            if (!runs.isEmpty())
                                judgeWarmUp(side, runs.first());
                        }});
    for (const QString& shape : m_settings.shapes) {
        const UploadPlan target = planFor(m_settings, shape, m_settings.size, m_settings.target);
        ShapeRow row;
        row.shape = shape;
        row.parts = int(target.parts.size());
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
                                recordShapeRun(index, shape, attempt, runs, growth);
                            }});
    }
}

void ProbeRunner::recordShapeRun(qsizetype index, const QString& shape, int attempt, const QList<RunResult>& runs,
                                 quint64 growth)
{
    ShapeRow& row = m_report.shapes[index];
    // The smaller growth of the two: a server that holds bodies grows by each one; a garbage-collected runtime grows
    // once (by buffers it frees later) and reuses it.
    row.rssGrowth = attempt == 0 ? growth : std::min(row.rssGrowth, growth);
    if (runs.isEmpty())
        return;
    const RunResult& r = runs.first();
    row.bytes = r.bodyBytes;
    row.status = r.httpStatus;
    row.statusLine = QString::fromUtf8(r.statusLine);
    checkAnswer(shape, r);
    if (const ForwarderSaw saw = forwarderSaw(r, m_settings.nonce); saw.capture > 0 && saw.wrong.isEmpty())
        row.forwarderCapture = saw.capture;
    if (failed(r))
        row.error = failure(r);
    else if (row.seconds < 0 || r.totalSeconds < row.seconds)
        row.seconds = r.totalSeconds;
}

// Plain once more after every shape: its first runs came first of all, and a server's first large uploads pay for
// its start (a Go server's heap growing to hold 64 MiB made plain 2.5x slower than the shapes after it, and every
// other shape look fast). The better of its three runs counts.
void ProbeRunner::addPlainAgainStep()
{
    for (qsizetype index = 0; index < m_report.shapes.size(); ++index)
        if (m_report.shapes[index].shape == QLatin1String("plain"))
            m_steps.append({QStringLiteral("plain again"),
                            {planFor(m_settings, QStringLiteral("plain"), m_settings.size, m_settings.target)},
                            false,
                            [this, index](const QList<RunResult>& runs, double, quint64) {
                                ShapeRow& row = m_report.shapes[index];
                                if (!runs.isEmpty() && !failed(runs.first()) &&
                                    (row.seconds < 0 || runs.first().totalSeconds < row.seconds))
                                    row.seconds = runs.first().totalSeconds;
                            }});
}

// A shape that looks slow is timed again at once, right after plain (split-delimiters: after its baseline): its two
// runs and plain's were minutes apart, and a shared machine's busy moment can fall on one and not the other; a
// pair back to back shares it. The finding stands when the pair shows it too (slowShape()).
void ProbeRunner::addRecheckSteps()
{
    const ShapeRow* plain = m_report.shapeRow(QStringLiteral("plain"));
    const double plainVsBaseline = plain ? plain->vsBaseline() : 0;
    for (qsizetype index = 0; index < m_report.shapes.size(); ++index) {
        const ShapeRow& row = m_report.shapes[index];
        if (!looksSlow(row))
            continue;
        const bool byBaseline = judgedByBaseline(row.shape);
        const UploadPlan shaped = planFor(m_settings, row.shape, m_settings.size, m_settings.target);
        const UploadPlan reference =
            byBaseline ? planFor(m_settings, row.shape, m_settings.size, m_settings.baseline)
                       : planFor(m_settings, QStringLiteral("plain"),
                                 row.plainSameSizeSeconds > 0 ? planBytes(shaped) : m_settings.size, m_settings.target);
        auto referencePace = std::make_shared<double>(0); // seconds per byte
        m_steps.append({QStringLiteral("%1 again: %2 first").arg(row.shape, byBaseline ? "its baseline" : "plain"),
                        {reference},
                        false,
                        [referencePace](const QList<RunResult>& runs, double, quint64) {
                            if (!runs.isEmpty() && !failed(runs.first()) && runs.first().bodyBytes > 0)
                                *referencePace = runs.first().totalSeconds / double(runs.first().bodyBytes);
                        }});
        m_steps.append(
            {QStringLiteral("%1 again").arg(row.shape),
             {shaped},
             false,
             [this, index, byBaseline, plainVsBaseline, referencePace](const QList<RunResult>& runs, double, quint64) {
                 if (runs.isEmpty() || failed(runs.first()) || runs.first().bodyBytes == 0 || *referencePace <= 0)
                     return;
                 double ratio = runs.first().totalSeconds / double(runs.first().bodyBytes) / *referencePace;
                 if (byBaseline)
                     ratio = plainVsBaseline > 0 ? ratio / plainVsBaseline : 0;
                 m_report.shapes[index].recheckVsPlain = ratio;
             }});
    }
}

// Not a byte taken (refused, no such host, a TLS failure), or an answer that says the probe itself is wrong (no
// such path, method or permission; a redirect to a login page): nothing after it would measure the server, and the
// probe stops with what to check. A server that took bytes and then reset or stalled was reached: a finding, and
// its shapes say more. A redirect after the body is how a form is answered: taken, and said.
void ProbeRunner::judgeWarmUp(const QUrl& side, const RunResult& r)
{
    const QString where = side.toString(QUrl::RemoveUserInfo);
    const QString to = location(r);
    // A segment of the Location's path that names a login ("/accounts/login", "/auth/sign_in"), not one that
    // only contains such letters ("/author/uploads", "/uploads/42?session=ok").
    static const QRegularExpression login(QStringLiteral("(^|/)(log_?in|sign_?in|auth|sessions?)(/|$)"),
                                          QRegularExpression::CaseInsensitiveOption);
    const bool redirect = redirectedAfterUpload(r) || (r.httpStatus == 303 && !failed(r)); // the body was taken
    const bool toLogin = redirect && login.match(QUrl(to).path()).hasMatch();
    if (r.httpStatus == 0 && r.bytesSent == 0)
        m_report.unreachable = QStringLiteral("%1 could not be reached: %2").arg(where, failure(r));
    else if (QList<int>{401, 403, 404, 405}.contains(r.httpStatus))
        m_report.unreachable = QStringLiteral("%1 answered %2 to the first upload: check the URL, the method (-X) and "
                                              "any auth header (-H); nothing was measured")
                                   .arg(where, QString::fromUtf8(r.statusLine));
    else if (r.httpStatus == 307 || r.httpStatus == 308) // "send it there": a probe of another URL
        m_report.unreachable = QStringLiteral("%1 answered %2 to the first upload: it wants the body sent to %3; probe "
                                              "that URL")
                                   .arg(where, QString::fromUtf8(r.statusLine), to);
    else if (toLogin)
        m_report.unreachable = QStringLiteral("%1 answered %2 to a login page (%3): give the session's cookie or an "
                                              "auth header with -H")
                                   .arg(where, QString::fromUtf8(r.statusLine), to);
    else if (redirect && side == m_settings.target)
        m_report.redirect = QStringLiteral("%1 to %2").arg(QString::fromUtf8(r.statusLine), to);
    else if (side == m_settings.target && failed(r))
        checkAnswer(QStringLiteral("plain"), r); // reached, and the body refused or stalled: plain's finding
    m_cancelled = m_cancelled || !m_report.unreachable.isEmpty();
}

// Plain and the slowest content shape (by its rate against plain's; not the forms' shapes, nor a paced one) at
// sizes doubling from 4 MiB to the probe's.
void ProbeRunner::addScalingSteps()
{
    QStringList shapes{QStringLiteral("plain")};
    const ShapeRow* slowest = nullptr;
    for (const ShapeRow& row : m_report.shapes)
        if (!row.shape.startsWith(QLatin1String("many-")) && !judgedByBaseline(row.shape) &&
            row.shape != QLatin1String("plain") && slowness(row) > 0 &&
            (!slowest || slowness(row) > slowness(*slowest)))
            slowest = &row;
    if (slowest)
        shapes << slowest->shape;
    for (const QString& shape : shapes) {
        m_report.scaling.append({shape, {}, {}, 0});
        const qsizetype index = m_report.scaling.size() - 1;
        for (quint64 size : scalingSizes(m_settings.size))
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
        // The same round to the baseline first, twice (the better counts, as the server's): what this machine's
        // client allows at this count. One slow baseline round would hide a collapse, one slow server round fake it.
        UploadPlan wire = planFor(m_settings, QStringLiteral("plain"), each, m_settings.baseline);
        wire.lean = true;
        for (int attempt = 0; attempt < 2; ++attempt)
            m_steps.append(
                {QStringLiteral("%1 parallel uploads: baseline, round %2 of 2").arg(clients).arg(attempt + 1),
                 QList<UploadPlan>(clients, wire), false,
                 [this, attempt](const QList<RunResult>& runs, double wall, quint64) {
                     quint64 bytes = 0;
                     for (const RunResult& r : runs)
                         bytes += failed(r) ? 0 : r.bodyBytes;
                     const double rate = wall > 0 ? double(bytes) / 1e6 / wall : 0;
                     m_wireMBps = attempt == 0 ? rate : std::max(m_wireMBps, rate);
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

// The steps as the add*Steps() above make them, counted: warm-ups, each shape to the baseline once and the target
// twice (a form shape: plain of its size twice more), scaling of plain and one other shape, the parallel rounds.
// 4 MiB doubling up to the probe's size, and the size itself when it is not one of them (5M: 4M and 5M). Fewer
// than two sizes fit no exponent: none then.
QList<quint64> ProbeRunner::scalingSizes(quint64 size)
{
    QList<quint64> sizes;
    for (quint64 at = kSmallestScaled; at <= size; at *= 2)
        sizes.append(at);
    if (!sizes.isEmpty() && sizes.last() != size)
        sizes.append(size);
    return sizes.size() >= 2 ? sizes : QList<quint64>{};
}

ProbeRunner::Estimate ProbeRunner::estimate(const ProbeSettings& settings)
{
    Estimate sum;
    auto add = [&](int uploads, const UploadPlan& plan) {
        sum.uploads += uploads;
        sum.bytes += quint64(uploads) * planBytes(plan);
    };
    add(2, planFor(settings, QStringLiteral("plain"), std::min(settings.size, kWarmUpBytes), settings.target));
    if (settings.shapes.contains(QStringLiteral("plain"))) // plain again
        add(1, planFor(settings, QStringLiteral("plain"), settings.size, settings.target));
    for (const QString& shape : settings.shapes) {
        const UploadPlan plan = planFor(settings, shape, settings.size, settings.target);
        add(3, plan);
        if (shape.startsWith(QLatin1String("many-")))
            add(2, planFor(settings, QStringLiteral("plain"), planBytes(plan), settings.target));
    }
    const bool another = std::any_of(settings.shapes.cbegin(), settings.shapes.cend(), [](const QString& shape) {
        return shape != QLatin1String("plain") && !shape.startsWith(QLatin1String("many-")) && !judgedByBaseline(shape);
    });
    if (settings.scaling && settings.shapes.contains(QStringLiteral("plain")))
        for (quint64 size : scalingSizes(settings.size))
            add(another ? 4 : 2, planFor(settings, QStringLiteral("plain"), size, settings.target));
    for (int clients : settings.concurrency)
        add(4 * clients,
            planFor(settings, QStringLiteral("plain"), std::min(settings.size, kConcurrentBytes), settings.target));
    return sum;
}

} // namespace upin::app
