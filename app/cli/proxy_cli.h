#pragma once
// The proxy command's own parts (the relay itself is forward's, cli/forward_command.cpp): its certificate
// authority's info and replacement, and the lines it starts with.

#include <QString>

namespace upin::app {
class Server;
}

namespace upin::app::cli {

// "http://HOST:PORT", an IPv6 address in brackets; "PORT" in words when it is 0 (picked at start).
QString proxyUrlFor(const QString& host, quint16 port);
// proxy --ca-info: where the authority is and how to trust it (made now if there was none). The exit code.
int printCaInfo(const QString& proxyUrl);
// proxy --ca-regenerate: a new authority in place of the old, after a yes on the terminal (or --yes). The exit code.
int regenerateCa(const QString& proxyUrl, bool confirmed);
// What a started proxy prints: where it listens, then how to trust its authority.
void printProxyStarted(const Server& proxy);

} // namespace upin::app::cli
