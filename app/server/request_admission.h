#pragma once
// Who may ask, and what a request may be, for every mode (the listener and the forwarder): written once so that
// a guard holds for both. Pure: a head and the guards in, a verdict out.
//
// - The Host (or an absolute-form target's authority, which RFC 9112 3.2.2 says wins) must name us: an IP
//   address, localhost or an allowed name, else 421 (a DNS-rebinding page reaches 127.0.0.1 under its own name).
// - A page of another origin (Origin is not our own) gets 403 unless allowed, and then CORS headers for every
//   answer to this request.
// - GET, HEAD and OPTIONS carry no body (a body there would be read as the next request: smuggling's shape): 400.
// Two Host fields never get here: core refuses the head (duplicate_host).

#include "server/listener_types.h"

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
    QString host;   // the Host field, or an absolute-form target's authority
    QString scheme; // an absolute-form target's ("http" or "https"), else empty
    bool hasHost = false;
    bool headOnly = false;  // HEAD: the answer has no body
    QByteArray corsHeaders; // for an allowed page of another origin
    core::Result<core::BodyFraming> framing = core::BodyFraming{};
    std::optional<Refusal> refusal; // set: answer this, with the connection closed
};

// who: "listener" or "forwarder", for the words of a refusal. tls: our own origin is https://HOST. proxy: a forward
// proxy's request, whose absolute-form target names the server it is for: required, and neither its host nor the
// Origin is ours to check (the server's, as for any request the client makes without a proxy).
RequestAdmission admitRequest(const core::RequestHead& head, const ListenerGuards& guards, const char* who, bool tls,
                              bool proxy = false);

// RFC 9110 reason phrases for the statuses we answer with.
QByteArray reasonPhrase(int status);

} // namespace upin::app
