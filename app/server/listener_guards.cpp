#include "server/listener_guards.h"

#include <QHostAddress>

#include "common/byte_size.h"
#include "common/option_rules.h"

#include <cmath>
#include <optional>

namespace upin::app {

namespace {

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 6);
}

QString setSeconds(int& ms, const QString& text)
{
    return checkSeconds(text, &ms);
}

QStringList listFrom(const QString& text)
{
    QStringList items;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty())
            items.append(item.trimmed());
    return items;
}

// Origins as browsers send them: scheme://host[:port], no path, in lower case; "null" (file:// pages, sandboxed
// frames) and "*" (any) as they are. nullopt when one is not an origin.
std::optional<QStringList> origins(const QString& text)
{
    QStringList out;
    for (const QString& item : listFrom(text)) {
        const QString origin = item.toLower();
        const qsizetype hostStart = origin.indexOf(QLatin1String("://")) + 3;
        const bool schemeOk =
            origin.startsWith(QLatin1String("http://")) || origin.startsWith(QLatin1String("https://"));
        if (origin != QLatin1String("*") && origin != QLatin1String("null") &&
            (!schemeOk || origin.size() == hostStart || origin.indexOf(QLatin1Char('/'), hostStart) >= 0))
            return std::nullopt;
        out.append(origin);
    }
    return out;
}

// Host names as a Host header carries them, without a port (the port is not compared); "*" allows any.
std::optional<QStringList> hostNames(const QString& text)
{
    QStringList out;
    for (const QString& item : listFrom(text)) {
        QString name = item.toLower();
        if (name.contains(QLatin1Char('/')) || name.contains(QLatin1Char(' '))) // a URL, not a name
            return std::nullopt;
        if (!name.startsWith(QLatin1Char('[')) && name.count(QLatin1Char(':')) == 1)
            name.truncate(name.indexOf(QLatin1Char(':')));
        if (name.isEmpty())
            return std::nullopt;
        out.append(name);
    }
    return out;
}

// A size from lowest to highest bytes (HTTP/2's windows and frames are 31- and 24-bit), in words when it is not.
QString setSize(qint32& value, const QString& text, quint64 lowest, quint64 highest, const char* rule)
{
    const auto size = parseByteSize(text.trimmed());
    if (!size || *size < lowest || *size > highest)
        return QString::fromLatin1(rule);
    value = qint32(*size);
    return QString();
}

constexpr quint64 kMaxWindow = (quint64{1} << 31) - 1; // RFC 9113 6.9.1
constexpr quint64 kMaxFrame = (quint64{1} << 24) - 1;  // RFC 9113 6.5.2

} // namespace

const std::array<GuardSetting, 11> kGuardSettings{{
    {"head-timeout", "Request head within (s)",
     "seconds a client has to send a request's head (line and headers) once it starts; else 408 (default 10)",
     "SECONDS", false, [](const ListenerGuards& g) { return seconds(g.headTimeoutMs); },
     [](ListenerGuards& g, const QString& t) { return setSeconds(g.headTimeoutMs, t); }},
    {"idle-timeout", "Silence mid-request (s)",
     "seconds without a byte in the middle of a request before the client gets 408 (default 30)", "SECONDS", false,
     [](const ListenerGuards& g) { return seconds(g.idleTimeoutMs); },
     [](ListenerGuards& g, const QString& t) { return setSeconds(g.idleTimeoutMs, t); }},
    {"keep-alive-timeout", "Keep-alive wait (s)",
     "seconds an open connection may wait for its next request before it is closed; when every connection slot is "
     "taken, the longest-waiting one is closed for a new client (default 15)",
     "SECONDS", false, [](const ListenerGuards& g) { return seconds(g.keepAliveTimeoutMs); },
     [](ListenerGuards& g, const QString& t) { return setSeconds(g.keepAliveTimeoutMs, t); }},
    {"answer-timeout", "Answer taken within (s)",
     "seconds a client has to read the listener's answer before the connection is dropped (default 30)", "SECONDS",
     false, [](const ListenerGuards& g) { return seconds(g.answerTimeoutMs); },
     [](ListenerGuards& g, const QString& t) { return setSeconds(g.answerTimeoutMs, t); }},
    {"min-body-rate", "Slowest body (bytes/s)",
     "slowest accepted body, bytes per second over each 10 s after the first 10 s, e.g. 512 or 4K; slower uploads "
     "get 408 (default 1K; 0 turns it off)",
     "SIZE", false, [](const ListenerGuards& g) { return exactByteSize(g.minBodyBytesPerSecond); },
     [](ListenerGuards& g, const QString& t) {
         auto rate = parseByteSize(t.trimmed());
         if (!rate || *rate > quint64{1} << 40) // 1 TiB/s: beyond any link, and no overflow in rate x window
             return QStringLiteral("give bytes per second up to 1T, such as 512 or 4K (0 turns it off)");
         g.minBodyBytesPerSecond = *rate;
         return QString();
     }},
    {"allow-origin", "Allowed web origins",
     "a web page origin (e.g. http://localhost:3000, or * for any) allowed to upload and read answers; pages of "
     "other origins get 403 (default: none but the listener's own)",
     "ORIGIN", true, [](const ListenerGuards& g) { return g.allowedOrigins.join(QLatin1String(", ")); },
     [](ListenerGuards& g, const QString& t) {
         auto list = origins(t);
         if (!list)
             return QStringLiteral("give web origins such as http://localhost:3000 (no path), null or *");
         g.allowedOrigins = *list;
         return QString();
     },
     true},
    {"allow-host", "Allowed host names",
     "a host name (e.g. uploads.test) clients may call the listener by, besides its IP addresses and localhost; "
     "others get 421 (default: none)",
     "NAME", true, [](const ListenerGuards& g) { return g.allowedHosts.join(QLatin1String(", ")); },
     [](ListenerGuards& g, const QString& t) {
         auto list = hostNames(t);
         if (!list)
             return QStringLiteral("give host names such as uploads.test (no scheme or path), or *");
         g.allowedHosts = *list;
         return QString();
     },
     true},
    {"h2-stream-window", "HTTP/2 stream window (bytes)",
     "bytes an HTTP/2 client may send on a stream before it waits for our WINDOW_UPDATE "
     "(SETTINGS_INITIAL_WINDOW_SIZE), 1 to 2G-1; 65535 is the protocol's default, which many servers keep "
     "(default 16M)",
     "SIZE", false, [](const ListenerGuards& g) { return exactByteSize(quint64(g.http2.streamWindow)); },
     [](ListenerGuards& g, const QString& t) {
         return setSize(g.http2.streamWindow, t, 1, kMaxWindow,
                        "give a window of 1 to 2G-1 bytes, such as 65535 or 16M");
     }},
    {"h2-connection-window", "HTTP/2 connection window (bytes)",
     "bytes an HTTP/2 client may send on all its streams before it waits for our WINDOW_UPDATE, 65535 (the "
     "protocol's start) to 2G-1 (default 16M)",
     "SIZE", false, [](const ListenerGuards& g) { return exactByteSize(quint64(g.http2.connectionWindow)); },
     [](ListenerGuards& g, const QString& t) {
         return setSize(g.http2.connectionWindow, t, 65'535, kMaxWindow,
                        "give a window of 65535 to 2G-1 bytes, such as 1M");
     }},
    {"h2-max-frame", "HTTP/2 largest frame (bytes)",
     "the largest frame an HTTP/2 client may send (SETTINGS_MAX_FRAME_SIZE), 16K to 16M-1 (default 16K)", "SIZE", false,
     [](const ListenerGuards& g) { return exactByteSize(quint64(g.http2.maxFrameSize)); },
     [](ListenerGuards& g, const QString& t) {
         return setSize(g.http2.maxFrameSize, t, 16'384, kMaxFrame, "give a frame size of 16K to 16M-1 bytes");
     }},
    {"h2-window-update", "HTTP/2 WINDOW_UPDATE",
     "when the listener gives an HTTP/2 client its window back: half (once half a window is used, as nghttp2, "
     "nginx and most servers do) or at-once (after each DATA received) (default half)",
     "WHEN", false,
     [](const ListenerGuards& g) { return g.http2.updateAtOnce ? QStringLiteral("at-once") : QStringLiteral("half"); },
     [](ListenerGuards& g, const QString& t) {
         const QString when = t.trimmed();
         if (when != QLatin1String("half") && when != QLatin1String("at-once"))
             return QStringLiteral("give half or at-once");
         g.http2.updateAtOnce = when == QLatin1String("at-once");
         return QString();
     }},
}};

// A Host header naming this listener: an IP address (a rebinding page reaches us under its own DNS name, never an
// address), localhost, or a name the user allowed.
bool hostAllowed(const QString& host, const QStringList& allowed)
{
    QString name = host;
    if (name.startsWith(QLatin1Char('['))) // [::1]:8080
        return name.indexOf(QLatin1Char(']')) > 0;
    const qsizetype colon = name.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0)
        name.truncate(colon);
    if (name.endsWith(QLatin1Char('.')))
        name.chop(1);
    name = name.toLower();
    return QHostAddress(name).protocol() == QAbstractSocket::IPv4Protocol || name == QLatin1String("localhost") ||
           name.endsWith(QLatin1String(".localhost")) || allowed.contains(QStringLiteral("*")) ||
           allowed.contains(name, Qt::CaseInsensitive);
}

} // namespace upin::app
