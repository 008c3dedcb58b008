#include "capture/h2_record.h"

#include <QJsonArray>

namespace upin::app {

namespace {

QJsonArray settingsJson(const QList<Http2Record::Setting>& settings)
{
    QJsonArray out;
    for (const auto& s : settings)
        out.append(QJsonObject{{"name", s.name}, {"value", qint64(s.value)}});
    return out;
}

QList<Http2Record::Setting> settingsFrom(const QJsonArray& json)
{
    QList<Http2Record::Setting> out;
    for (const auto& v : json)
        out.append({v[QLatin1String("name")].toString(), quint32(v[QLatin1String("value")].toInteger())});
    return out;
}

QJsonArray framesJson(const QList<Http2Frame>& frames)
{
    QJsonArray out;
    for (const Http2Frame& f : frames) {
        QJsonObject o{{"ms", f.ms},       {"sent", f.sent},     {"type", f.type},
                      {"flags", f.flags}, {"stream", f.stream}, {"length", qint64(f.length)}};
        if (!f.detail.isEmpty())
            o["detail"] = f.detail;
        if (f.increment != 0)
            o["increment"] = f.increment;
        out.append(o);
    }
    return out;
}

QList<Http2Frame> framesFrom(const QJsonArray& json)
{
    QList<Http2Frame> out;
    for (const auto& v : json) {
        Http2Frame f;
        f.ms = v[QLatin1String("ms")].toDouble();
        f.sent = v[QLatin1String("sent")].toBool();
        f.type = v[QLatin1String("type")].toString();
        f.flags = quint8(v[QLatin1String("flags")].toInt());
        f.stream = qint32(v[QLatin1String("stream")].toInteger());
        f.length = quint32(v[QLatin1String("length")].toInteger());
        f.detail = v[QLatin1String("detail")].toString();
        f.increment = v[QLatin1String("increment")].toInteger();
        out.append(f);
    }
    return out;
}

QJsonObject dataJson(const Http2Record& r)
{
    QJsonArray bySize;
    for (quint64 n : r.dataBySize)
        bySize.append(qint64(n));
    return {{"frames", qint64(r.dataFrames)},
            {"bytes", qint64(r.dataBytes)},
            {"min", qint64(r.dataMin)},
            {"max", qint64(r.dataMax)},
            {"by_size", bySize}};
}

QJsonObject flowJson(const Http2Record& r)
{
    QJsonArray stalls, window;
    for (const auto& s : r.stallList)
        stalls.append(QJsonArray{s.atMs, s.ms});
    for (const auto& w : r.window)
        window.append(QJsonArray{w.ms, w.least, w.most});
    return {{"window_updates", r.windowUpdates},
            {"initial_window", r.initialWindow},
            {"stalls", qint64(r.stalls)},
            {"stalled_ms", r.stalledMs},
            {"stall_list", stalls},
            {"window", window}};
}

void readFlow(const QJsonObject& flow, Http2Record& r)
{
    r.windowUpdates = flow["window_updates"].toString();
    r.initialWindow = flow["initial_window"].toInteger();
    r.stalls = quint64(flow["stalls"].toInteger());
    r.stalledMs = flow["stalled_ms"].toDouble();
    for (const auto& s : flow["stall_list"].toArray())
        r.stallList.append({s[0].toDouble(), s[1].toDouble()});
    for (const auto& w : flow["window"].toArray())
        r.window.append({w[0].toDouble(), w[1].toInteger(), w[2].toInteger()});
}

} // namespace

QString Http2Record::stallsInWords() const
{
    if (stalls == 0)
        return QStringLiteral("never blocked by flow control");
    return QStringLiteral("blocked by flow control: %1 s in %2 wait%3")
        .arg(stalledMs / 1000.0, 0, 'f', 2)
        .arg(stalls)
        .arg(stalls == 1 ? QString() : QStringLiteral("s"));
}

QJsonObject Http2Record::toJson() const
{
    QJsonObject counted;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        counted[it.key()] = qint64(it.value());
    QJsonObject out{{"http", http},
                    {"settings_sent", settingsJson(settingsSent)},
                    {"settings_received", settingsJson(settingsReceived)},
                    {"frames_first", framesJson(firstFrames)},
                    {"frames_last", framesJson(lastFrames)},
                    {"frames_omitted", qint64(framesOmitted)},
                    {"counts", counted},
                    {"data", dataJson(*this)},
                    {"flow", flowJson(*this)},
                    {"summary", stallsInWords()}};
    if (rttMs)
        out["rtt_ms"] = *rttMs;
    return out;
}

Http2Record Http2Record::fromJson(const QJsonObject& json)
{
    Http2Record r;
    r.http = json["http"].toString();
    r.settingsSent = settingsFrom(json["settings_sent"].toArray());
    r.settingsReceived = settingsFrom(json["settings_received"].toArray());
    if (json.contains("rtt_ms"))
        r.rttMs = json["rtt_ms"].toDouble();
    r.firstFrames = framesFrom(json["frames_first"].toArray());
    r.lastFrames = framesFrom(json["frames_last"].toArray());
    r.framesOmitted = quint64(json["frames_omitted"].toInteger());
    const QJsonObject counted = json["counts"].toObject();
    for (auto it = counted.begin(); it != counted.end(); ++it)
        r.counts[it.key()] = quint64(it.value().toInteger());
    const QJsonObject data = json["data"].toObject();
    r.dataFrames = quint64(data["frames"].toInteger());
    r.dataBytes = quint64(data["bytes"].toInteger());
    r.dataMin = quint32(data["min"].toInteger());
    r.dataMax = quint32(data["max"].toInteger());
    const QJsonArray bySize = data["by_size"].toArray();
    for (size_t i = 0; i < r.dataBySize.size() && i < size_t(bySize.size()); ++i)
        r.dataBySize[i] = quint64(bySize[qsizetype(i)].toInteger());
    readFlow(json["flow"].toObject(), r);
    return r;
}

} // namespace upin::app
