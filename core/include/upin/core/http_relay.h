#pragma once
// The request head a reverse proxy sends on (RFC 9110 7.6): a pure function, so that what the forwarder does to a
// head is tested, and fuzzed, apart from any socket.
//
// - Hop-by-hop fields are dropped: Connection and every field it names, Keep-Alive, Proxy-Connection, TE, Upgrade,
//   Proxy-Authorization, Proxy-Authenticate.
// - A Connection field that names Content-Length, Transfer-Encoding or Host is refused (ConnectionNamesFraming):
//   dropping the framing while the body goes on would let the upstream read the body as a request of its own
//   (request smuggling), and nginx refuses framing conflicts the same way.
// - The framing fields go on as they came, so the upstream reads the body exactly as it is passed on: byte for
//   byte, in the client's framing (bodyFraming() has already refused anything ambiguous); a Content-Length
//   repeated with the same value goes on once (RFC 9110 8.6).
// - Host is the upstream's, unless preserved; X-Forwarded-For gets the client's address after any it had,
//   X-Forwarded-Proto and X-Forwarded-Host are ours (a client's own are replaced).
// - The target goes in origin form (an absolute-form target's path and query) after the upstream's path prefix.
// - A forward proxy (forwardedFields off) adds no X-Forwarded-* fields and passes a client's own unchanged: it
//   relays the request the client made to the server the client named, as mitmproxy and browsers' proxies do.

#include "upin/core/http.h"

#include <span>

namespace upin::core {

struct RelayTarget {
    std::string_view pathPrefix;                 // the upstream URL's path; a trailing '/' is dropped
    std::string_view upstreamHost;               // its authority, for Host
    bool preserveHost = false;                   // keep the client's Host instead
    std::string_view clientAddress;              // appended to X-Forwarded-For
    std::string_view proto = "http";             // X-Forwarded-Proto: how the client reached us
    std::span<const std::string_view> ownFields; // addressed to the relay itself: dropped, as hop-by-hop fields are
    bool forwardedFields = true;                 // a reverse proxy's X-Forwarded-For, -Proto and -Host
};

// The target in origin form: "/path?query" of an absolute-form target, "/" when it has none, as it is otherwise.
std::string_view originForm(std::string_view target);
// The authority ("host:port") of an absolute-form target; empty for any other form.
std::string_view authorityOf(std::string_view target);

Result<std::string> relayHead(const RequestHead& head, const RelayTarget& target);

} // namespace upin::core
