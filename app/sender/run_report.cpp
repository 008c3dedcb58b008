#include "sender/run_report.h"

#include <cmath>

#include <QJsonDocument>

#include "common/byte_size.h"
#include "common/qt_text.h"

#include <QJsonObject>

#include <algorithm>

namespace upin::app {

namespace {

struct Summary {
    double median = 0, min = 0, max = 0, mean = 0;
};

Summary summarize(std::vector<double> values)
{
    if (values.empty())
        return {};
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    size_t n = values.size();
    double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    return {median, values.front(), values.back(), sum / double(n)};
}

QString integrityText(const RunResult& r)
{
    if (r.parts.isEmpty())
        return QStringLiteral("not-checked");
    bool checked = false;
    for (const auto& p : r.parts) {
        if (p.state == PartCheck::State::Mismatch)
            return QStringLiteral("mismatch");
        checked = checked || p.state == PartCheck::State::Match;
    }
    return r.integrityOk() ? QStringLiteral("match")
           : checked       ? QStringLiteral("partial")
                           : QStringLiteral("not-checked");
}

QString failureReason(const RunResult& r)
{
    if (r.cancelled)
        return QStringLiteral("cancelled");
    if (!r.error.isEmpty())
        return r.error;
    const QByteArray status = r.statusLine.mid(r.statusLine.indexOf(' ') + 1); // "404 Not Found"
    return status.isEmpty() ? QStringLiteral("HTTP %1").arg(r.httpStatus) : QString::fromLatin1(status);
}

} // namespace

QList<TargetStats> statsByTarget(const QList<RunResult>& runs)
{
    QList<TargetStats> out;
    for (const auto& r : runs) {
        const auto same = [&](const TargetStats& s) { return s.holds(r); };
        if (std::find_if(out.begin(), out.end(), same) == out.end()) {
            out.append(TargetStats{});
            out.last().target = r.target;
            out.last().method = r.method;
            out.last().bodyBytes = r.bodyBytes;
        }
    }
    for (auto& s : out) {
        std::vector<double> times, rates, parse, hash, store, ownHash;
        for (const auto& r : runs) {
            if (!s.holds(r))
                continue;
            s.partCount = std::max(s.partCount, int(r.parts.size()));
            if (!r.accepted()) {
                ++s.failures;
                s.lastFailure = failureReason(r);
                continue;
            }
            ++s.count;
            times.push_back(r.totalSeconds);
            rates.push_back(r.mbPerSecond());
            if (r.cpu.hashMs >= 0 && r.totalSeconds > 0)
                ownHash.push_back(r.cpu.hashMs / (r.totalSeconds * 1000));
            const QJsonObject cpu = QJsonDocument::fromJson(r.response).object()[QLatin1String("cpu_ms")].toObject();
            if (cpu.contains(QLatin1String("read_parse")) && r.totalSeconds > 0) {
                parse.push_back(cpu[QLatin1String("read_parse")].toDouble() / (r.totalSeconds * 1000));
                hash.push_back(cpu[QLatin1String("hash")].toDouble() / (r.totalSeconds * 1000));
                store.push_back(cpu[QLatin1String("store")].toDouble() / (r.totalSeconds * 1000)); // null: 0
            }
            s.integrityFailures += integrityText(r) == QLatin1String("mismatch");
            s.notChecked += r.hash != core::HashKind::None && !r.parts.isEmpty() &&
                            integrityText(r) == QLatin1String("not-checked");
        }
        Summary t = summarize(times), m = summarize(rates);
        s.medianSeconds = t.median, s.minSeconds = t.min, s.maxSeconds = t.max, s.meanSeconds = t.mean;
        s.medianMBps = m.median, s.minMBps = m.min, s.maxMBps = m.max, s.meanMBps = m.mean;
        if (!ownHash.empty())
            s.ownHashShare = summarize(ownHash).median;
        if (!parse.empty()) {
            s.parseShare = summarize(parse).median;
            s.hashShare = summarize(hash).median;
            s.storeShare = summarize(store).median;
        }
    }
    return out;
}

QString targetText(const TargetStats& s)
{
    return s.method == QLatin1String("POST") ? s.target.toString() : s.method + QLatin1Char(' ') + s.target.toString();
}

QString bodyText(const TargetStats& s)
{
    if (s.partCount == 0)
        return formatBytes(s.bodyBytes);
    return s.partCount == 1 ? QStringLiteral("%1 in 1 part").arg(formatBytes(s.bodyBytes))
                            : QStringLiteral("%1 in %2 parts").arg(formatBytes(s.bodyBytes)).arg(s.partCount);
}

QString boundBy(const TargetStats& s)
{
    if (s.count == 0)
        return QStringLiteral("no run completed");
    const auto percent = [](double share) {
        return QStringLiteral("%1%").arg(std::lround(std::min(share, 1.0) * 100));
    };
    // The sender's own hashing thread, when it ran most of the time: SHA-256 at ~1.5-2 GB/s paces a fast server.
    if (s.ownHashShare >= 0.5 && s.ownHashShare >= std::max({s.parseShare, s.hashShare, s.storeShare}))
        return QStringLiteral("hashing on this side (%1 of the time)").arg(percent(s.ownHashShare));
    if (s.parseShare < 0)
        return QStringLiteral("not reported (the answers carry no cpu_ms: not our listener)");
    if (s.parseShare >= 0.5)
        return QStringLiteral("parsing (%1 of the time)").arg(percent(s.parseShare));
    if (s.hashShare >= 0.5)
        return QStringLiteral("hashing (%1 of the time)").arg(percent(s.hashShare));
    if (s.storeShare >= 0.5)
        return QStringLiteral("storing (%1 of the time)").arg(percent(s.storeShare));
    // No one stage bounds it: the listener's stages together (each on its own thread, overlapping), or the wire.
    const double together = s.parseShare + s.hashShare + s.storeShare;
    // The listener's hashing is not this side's: with both, both are said.
    const QString ownHash =
        s.ownHashShare >= 0 ? QStringLiteral("; hashing on this side %1").arg(percent(s.ownHashShare)) : QString();
    return QStringLiteral("%1 (parsing %2, hashing %3, storing %4%5)")
        .arg(together >= 0.5 ? QStringLiteral("the listener's work together") : QStringLiteral("the transfer"),
             percent(s.parseShare), percent(s.hashShare), percent(s.storeShare), ownHash);
}

QString runsToCsv(const QList<RunResult>& runs)
{
    // What a run did not measure is an empty cell, never -1 or 0 that a spreadsheet would average in.
    const auto seconds = [](double s) { return s >= 0 ? QString::number(s, 'f', 6) : QString(); };
    QString csv = QStringLiteral("target,run,status,error,body_bytes,bytes_sent,total_s,last_byte_s,response_head_s,"
                                 "mb_per_s,integrity,protocol,tls,certificate_checked,method\n");
    for (const auto& r : runs) {
        QString error = r.error;
        error.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        csv += QStringLiteral("%1,%2,%3,\"%4\",%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15\n")
                   .arg(r.target.toString())
                   .arg(r.run + 1)
                   .arg(r.httpStatus > 0 ? QString::number(r.httpStatus) : QString())
                   .arg(error)
                   .arg(r.bodyBytes)
                   .arg(r.bodySent() ? r.bodyBytes : r.bytesSent)
                   .arg(seconds(r.totalSeconds), r.bodySent() ? seconds(r.lastByteSeconds) : QString(),
                        seconds(r.responseHeadSeconds))
                   .arg(r.mbPerSecond() > 0 ? QString::number(r.mbPerSecond(), 'f', 2) : QString())
                   .arg(integrityText(r))
                   .arg(r.protocol, r.tls)
                   // "no" for --insecure; empty over plain http, where there is no certificate
                   .arg(r.tls.isEmpty() ? QString()
                        : r.insecure    ? QStringLiteral("no")
                                        : QStringLiteral("yes"))
                   .arg(r.method);
    }
    return csv;
}

QJsonArray runsToJson(const QList<RunResult>& runs)
{
    QJsonArray out;
    for (const auto& r : runs) {
        QJsonArray parts, samples;
        const QString hashKey = toQString(core::kHashNames.name(r.hash));
        for (const auto& p : r.parts)
            parts.append(QJsonObject{{"name", p.name},
                                     {"size", qint64(p.size)},
                                     {"sent_" + hashKey, p.sentDigest},
                                     {"received_" + hashKey, p.receivedDigest},
                                     {"state", p.state == PartCheck::State::Match      ? "match"
                                               : p.state == PartCheck::State::Mismatch ? "mismatch"
                                                                                       : "not-checked"}});
        for (const auto& s : r.upload)
            samples.append(QJsonArray{s.msSinceStart, qint64(s.bytes)});
        auto ms = [](double v) { return v < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(v); };
        const QJsonObject cpu{{"read", ms(r.cpu.readMs)},
                              {"hash", ms(r.cpu.hashMs)},
                              {"send", ms(r.cpu.sendMs)},
                              {"process", ms(r.cpu.processMs)}};
        QJsonArray headers;
        for (const auto& [name, value] : r.responseHeaders)
            headers.append(QJsonObject{{"name", QString::fromLatin1(name)}, {"value", QString::fromUtf8(value)}});
        QJsonObject run{{"target", r.target.toString()},
                        {"method", r.method},
                        {"run", r.run + 1},
                        {"started_at_ms", r.startedAtMs},
                        {"status", r.httpStatus},
                        {"status_line", QString::fromUtf8(r.statusLine)},
                        {"response_headers", headers},
                        {"response_body", QString::fromUtf8(r.response.left(kShownResponseBytes))},
                        {"response_body_truncated", r.response.size() > kShownResponseBytes},
                        {"answered_early", r.answeredEarly},
                        {"bytes_sent", qint64(r.bytesSent)},
                        {"error", r.error},
                        {"cancelled", r.cancelled},
                        {"bytes", qint64(r.bodyBytes)},
                        {"total_s", r.totalSeconds},
                        {"last_byte_s", r.lastByteSeconds},
                        {"response_head_s", r.responseHeadSeconds},
                        {"mb_per_s", r.mbPerSecond()},
                        {"cpu_ms", cpu},
                        {"integrity", integrityText(r)},
                        {"hash", hashKey},
                        {"protocol", r.protocol},
                        {"tls", r.tls.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.tls)},
                        {"insecure", r.insecure},
                        {"parts", parts},
                        {"upload_samples", samples}};
        if (r.http2)
            run["http2"] = r.http2->toJson();
        out.append(run);
    }
    return out;
}

QString checksText(const TargetStats& s)
{
    return s.failures
               ? QStringLiteral("%1 of %2 failed (%3)").arg(s.failures).arg(s.failures + s.count).arg(s.lastFailure)
           : s.integrityFailures ? QStringLiteral("%1 MISMATCH").arg(s.integrityFailures)
           : s.notChecked        ? QStringLiteral("%1 not checked").arg(s.notChecked)
                                 : QStringLiteral("ok");
}

QString statsTable(const QList<TargetStats>& stats)
{
    QString out = QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                      .arg(QStringLiteral("target"), -44)
                      .arg(QStringLiteral("runs"), 4)
                      .arg(QStringLiteral("median s"), 9)
                      .arg(QStringLiteral("min s"), 8)
                      .arg(QStringLiteral("max s"), 8)
                      .arg(QStringLiteral("MB/s"), 8)
                      .arg(QStringLiteral("checks"), -12)
                      .arg(QStringLiteral("bound by"));
    for (const auto& s : stats) {
        // No run that succeeded: no figures to show (zeros would read as measurements).
        auto figure = [&](double value, int width, int decimals) {
            return s.count > 0 ? QStringLiteral("%1").arg(value, width, 'f', decimals)
                               : QStringLiteral("%1").arg(QStringLiteral("-"), width);
        };
        out += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                   .arg(targetText(s), -44)
                   .arg(s.count, 4)
                   .arg(figure(s.medianSeconds, 9, 3), figure(s.minSeconds, 8, 3), figure(s.maxSeconds, 8, 3),
                        figure(s.medianMBps, 8, 1))
                   .arg(checksText(s), -12)
                   .arg(boundBy(s));
    }
    return out;
}

} // namespace upin::app
