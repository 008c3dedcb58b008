#pragma once
// Who may use a proxy: never an open relay. A proxy on 127.0.0.1 serves this machine; one bound to another
// address (--bind) serves the networks of the interfaces it listens on too (a phone on the same Wi-Fi), and any
// other client (one routed from elsewhere, the internet's) gets a 403 naming --allow-client, which says which
// networks instead, as Squid's localnet rules and mitmproxy's refusal of non-local clients do.

#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace upin::app {

using Subnet = QPair<QHostAddress, int>; // QHostAddress::parseSubnet's

// Loopback, and the subnet of every interface address `bind` listens on (all of them for the any-address).
QList<Subnet> localNetworks(const QHostAddress& bind);
// An IPv4 client seen through a dual-stack socket (::ffff:a.b.c.d) is compared as IPv4.
bool clientAllowed(const QHostAddress& client, const QList<Subnet>& allowed);
// "10.0.0.0/8", "192.168.1.7" (one address), "::1/128"; nullopt when it is none of these.
std::optional<Subnet> parseClientNetwork(const QString& text);

} // namespace upin::app
