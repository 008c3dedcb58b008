#include "server/request_admission.h"

#include "common/qt_text.h"
#include "server/listener_guards.h"
#include "server/refusal_record.h"

#include <QUrl>

namespace upin::app {

namespace {

// Who may ask: sets admission.refusal (421, 403), or the CORS headers for an allowed page of another origin.
void checkCaller(const core::RequestHead& head, const ListenerGuards& guards, const char* who, bool tls,
                 RequestAdmission& admission)
{
    const QString& host = admission.host;
    // No Host: HTTP/1.0 or a hand-made request; browsers always send one.
    if (admission.hasHost && !hostAllowed(host, guards.allowedHosts)) {
        admission.refusal =
            Refusal{421, "this " + QByteArray(who) + " is not " + host.toUtf8() +
                             ": call it by its address or localhost, or allow the name (the Listen tab's "
                             "Settings › Allowed host names, or --allow-host NAME)\n"};
        return;
    }
    bool hasOrigin = false;
    const QString origin = toQString(head.field("origin", &hasOrigin)).trimmed();
    // No Origin: curl and other programs, or a page's same-origin GET. The listener's own form page (GET /) posts
    // with our own origin, the one the browser reached us by.
    const QString own = (tls ? QLatin1String("https://") : QLatin1String("http://")) + host;
    if (!hasOrigin || origin.compare(own, Qt::CaseInsensitive) == 0)
        return;
    if (guards.allowedOrigins.contains(QStringLiteral("*")) ||
        guards.allowedOrigins.contains(origin, Qt::CaseInsensitive)) {
        admission.corsHeaders = "Access-Control-Allow-Origin: " + origin.toUtf8() + "\r\nVary: Origin\r\n";
        return;
    }
    // Any page the user has open could otherwise fill the captures folder, read the capture list, or reach the
    // user's server through the forwarder.
    // The origin first, in a clause of its own: the captures list shows the first clause.
    admission.refusal = Refusal{403, "origin " + origin.toUtf8() + " is not allowed: its web pages may not use this " +
                                         QByteArray(who) + "; allow them with --allow-origin " + origin.toUtf8() +
                                         " (or in the Listen tab's Settings)\n"};
}

// CONNECT host:port (RFC 9110 9.3.6), to a proxy: the authority alone, with a port.
void admitTunnel(const QString& target, const core::BodyFraming& framing, RequestAdmission& admission)
{
    const QUrl url(QStringLiteral("//") + target);
    if (!url.isValid() || url.host().isEmpty() || url.port() <= 0 || !url.userInfo().isEmpty() ||
        !url.path().isEmpty() || url.hasQuery() || url.hasFragment() || target.contains(QLatin1Char('/'))) {
        admission.refusal = Refusal{400, "CONNECT takes a host and a port (CONNECT example.com:443)\n"};
        return;
    }
    if (framing.kind == core::BodyFraming::Kind::Chunked ||
        (framing.kind == core::BodyFraming::Kind::ContentLength && framing.contentLength > 0)) {
        admission.refusal = Refusal{400, "a CONNECT request carries no body\n"};
        return;
    }
    admission.tunnelTo = target;
    admission.host = target;
}

} // namespace

namespace {
// Only the forms a server of uploads is asked for (RFC 9112 3.2), read one way by every mode: a target that a relay
// and its upstream could read differently ("captures", "http:/x", a ".." that climbs out of the forwarder's path
// prefix once the upstream normalises it) is refused.
std::optional<Refusal> targetRefusal(const QString& target, bool absolute, const QUrl& url, const QString& method)
{
    const bool asterisk = target == QLatin1String("*") && method == QLatin1String("OPTIONS");
    if (!asterisk && ((!absolute && !target.startsWith(QLatin1Char('/'))) || !url.isValid()))
        return Refusal{400, "the request target must be a path (/...) or an absolute http:// URL\n"};
    // RFC 9112 3.2: no fragment in a request target, no userinfo in an http URL (RFC 9110 4.2.4); a '#' would hide
    // a ".." from the check below from what is sent on, and a password would go on in Host and into the records.
    if (target.contains(QLatin1Char('#')) || !url.userInfo().isEmpty())
        return Refusal{400, "the request target may not have a fragment (#) or a user name\n"};
    if (url.path().split(QLatin1Char('/')).contains(QLatin1String("..")))
        return Refusal{400, "the request target may not have a \"..\" segment\n"};
    return std::nullopt;
}
} // namespace

RequestAdmission admitRequest(const core::RequestHead& head, const ListenerGuards& guards, const char* who, bool tls,
                              Admit as)
{
    const bool proxy = as == Admit::Proxy;
    RequestAdmission admission;
    const QString target = toQString(head.target);
    // Absolute form (`POST http://127.0.0.1:8080/file-part`), which RFC 9112 says servers accept, or origin form.
    const bool absolute = target.startsWith(QLatin1String("http://"), Qt::CaseInsensitive) ||
                          target.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
    const QUrl url(absolute ? target : QStringLiteral("http://server") + target);
    admission.target =
        url.path(QUrl::FullyEncoded) + (url.hasQuery() ? QLatin1Char('?') + url.query(QUrl::FullyEncoded) : QString());
    admission.path = url.path();
    admission.query = url.query(QUrl::FullyEncoded);
    admission.method = toQString(head.method);
    admission.headOnly = admission.method == QLatin1String("HEAD");
    // RFC 9112 3.2.2: with an absolute-form target, its authority names the host and the Host field is ignored.
    admission.hasHost = absolute;
    admission.host = absolute ? url.authority() : toQString(head.field("host", &admission.hasHost)).trimmed();
    admission.framing = core::bodyFraming(head);
    if (absolute)
        admission.scheme = url.scheme().toLower();
    if (admission.method == QLatin1String("CONNECT") && as != Admit::Server) {
        if (as == Admit::Tunnel)
            admission.refusal = Refusal{400, "CONNECT inside a tunnel\n"};
        else if (admission.framing)
            admitTunnel(target, *admission.framing, admission);
        return admission;
    }
    if (proxy && !absolute) {
        admission.refusal = Refusal{400, "this is a proxy: ask it for an absolute http:// URL (curl -x "
                                         "http://127.0.0.1:PORT http://server/path)\n"};
        return admission;
    }
    admission.refusal = targetRefusal(target, absolute, url, admission.method);
    if (admission.refusal)
        return admission;
    if (as == Admit::Server)
        checkCaller(head, guards, who, tls, admission);
    if (admission.refusal)
        return admission;
    const bool bodiless =
        admission.method == QLatin1String("GET") || admission.headOnly || admission.method == QLatin1String("OPTIONS");
    auto& framing = admission.framing;
    if (bodiless && (!framing || framing->kind == core::BodyFraming::Kind::Chunked ||
                     (framing->kind == core::BodyFraming::Kind::ContentLength && framing->contentLength > 0)))
        admission.refusal = Refusal{400, "GET, HEAD and OPTIONS requests carry no body here\n"};
    return admission;
}

std::optional<HeadRefusal> headRefusal(const RequestAdmission& admission, quint64 maxBodyBytes)
{
    if (admission.refusal)
        return HeadRefusal{admission.refusal->status, refusalReason(admission.refusal->text), std::nullopt};
    if (!admission.framing) {
        const bool coding = admission.framing.error().code == core::Errc::UnsupportedTransferEncoding;
        return HeadRefusal{coding ? 501 : 400, QStringLiteral("bad request framing"), admission.framing.error()};
    }
    if (admission.framing->kind == core::BodyFraming::Kind::ContentLength &&
        admission.framing->contentLength > maxBodyBytes)
        return HeadRefusal{413, QStringLiteral("body too large"), core::Error{core::Errc::BodyTooLarge, maxBodyBytes}};
    return std::nullopt;
}

} // namespace upin::app
