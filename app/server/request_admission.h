#pragma once
// Who may ask, and what a request may be, for every mode (the listener, the forwarder and the proxy): written once
// so that a guard holds for all. Pure: a head and the guards in, a verdict out.
//
// - The Host (or an absolute-form target's authority, which RFC 9112 3.2.2 says wins) must name us: an IP
//   address, localhost or an allowed name, else 421 (a DNS-rebinding page reaches 127.0.0.1 under its own name).
// - A page of another origin (Origin is not our own) gets 403 unless allowed, and then CORS headers for every
//   answer to this request.
// - GET, HEAD and OPTIONS carry no body (a body there would be read as the next request: smuggling's shape): 400.
// Two Host fields never get here: core refuses the head (duplicate_host).

#include "server/server_config.h"

#include "upin/core/http.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace upin::app {

struct Refusal {
    int status = 400;
    QByteArray text; // the plain-text answer, a sentence ending in a newline
};

struct RequestAdmission {
    QString target; // origin form (path and query, percent-encoded as sent)
    QString path;   // decoded
    QString query;  // as sent, without the '?'
    QString method;
    QString host;     // the Host field, or an absolute-form target's authority
    QString scheme;   // an absolute-form target's ("http" or "https"), else empty
    QString tunnelTo; // CONNECT's "host:port", to a proxy
    bool hasHost = false;
    bool headOnly = false;  // HEAD: the answer has no body
    QByteArray corsHeaders; // for an allowed page of another origin
    core::Result<core::BodyFraming> framing = core::BodyFraming{};
    std::optional<Refusal> refusal; // set: answer this, with the connection closed
};

// Whose request it is. A server's (the listener, the forwarder). A forward proxy's: its absolute-form target names
// the server it is for (required), or it is a CONNECT to "host:port"; neither the host nor the Origin is ours to
// check (the server's, as for any request the client makes without a proxy). A request inside a proxy's tunnel:
// for the tunnel's server, in any form but CONNECT, unchecked alike.
enum class Admit : uint8_t { Server, Proxy, Tunnel };

// What a transport answers, itself, for a head admitRequest judged: the guards' refusal, a framing it cannot read
// (400, or 501 for a transfer coding it does not know), a Content-Length over maxBodyBytes (413, the body never
// read). nullopt: the request goes to the mode's handler. Every transport asks this one function.
struct HeadRefusal {
    int status = 400;
    QString reason;
    std::optional<core::Error> error;
};
std::optional<HeadRefusal> headRefusal(const RequestAdmission& admission, quint64 maxBodyBytes);

// who: "listener", "forwarder" or "proxy", for the words of a refusal. tls: our own origin is https://HOST.
RequestAdmission admitRequest(const core::RequestHead& head, const ListenerGuards& guards, const char* who, bool tls,
                              Admit as = Admit::Server);

} // namespace upin::app
