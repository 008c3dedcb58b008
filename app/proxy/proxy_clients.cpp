#include "proxy/proxy_clients.h"

#include <QNetworkInterface>

namespace upin::app {

namespace {

QHostAddress plain(const QHostAddress& address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also reads ::ffff:a.b.c.d
    return isV4 ? QHostAddress(v4) : address;
}

} // namespace

QList<Subnet> localNetworks(const QHostAddress& bind)
{
    QList<Subnet> networks;
    auto add = [&networks](QHostAddress address, int prefix) {
        address.setScopeId({}); // a link-local network, on whichever interface
        const Subnet network =
            QHostAddress::parseSubnet(address.toString() + QLatin1Char('/') + QString::number(prefix));
        if (!network.first.isNull() && !networks.contains(network)) // its network's address: 192.0.2.0/24
            networks.append(network);
    };
    // Bound to an IPv4 address (127.0.0.1, 0.0.0.0), no IPv6 client can connect, and bound to an IPv6 one ("::",
    // "::1") no IPv4 client (Qt listens IPv6-only there): the other family is not listed.
    const auto family = bind.protocol();
    const bool ipv4Only = family == QAbstractSocket::IPv4Protocol;
    const bool ipv6Only = family == QAbstractSocket::IPv6Protocol;
    if (!ipv6Only)
        add(QHostAddress(QHostAddress::LocalHost), 8);
    if (!ipv4Only)
        add(QHostAddress(QHostAddress::LocalHostIPv6), 128);
    const bool any = bind == QHostAddress::Any || bind == QHostAddress::AnyIPv4 || bind == QHostAddress::AnyIPv6;
    for (const QNetworkInterface& interface : QNetworkInterface::allInterfaces())
        for (const QNetworkAddressEntry& entry : interface.addressEntries()) {
            const QHostAddress address = plain(entry.ip());
            if ((ipv4Only || ipv6Only) && address.protocol() != family)
                continue;
            if ((any || address == plain(bind)) && entry.prefixLength() > 0) // never /0: everyone
                add(address, entry.prefixLength());
        }
    return networks;
}

bool clientAllowed(const QHostAddress& client, const QList<Subnet>& allowed)
{
    const QHostAddress address = plain(client);
    for (const Subnet& network : allowed)
        if (address.isInSubnet(network))
            return true;
    return false;
}

std::optional<Subnet> parseClientNetwork(const QString& text)
{
    const QString trimmed = text.trimmed();
    const QHostAddress address(trimmed.section(QLatin1Char('/'), 0, 0)); // parseSubnet takes "/8" alone
    if (address.isNull())
        return std::nullopt;
    if (!trimmed.contains(QLatin1Char('/')))
        return Subnet{address, address.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128};
    const Subnet network = QHostAddress::parseSubnet(trimmed);
    if (network.first.isNull() || network.second == 0) // /0 would make the proxy an open relay
        return std::nullopt;
    bool isV4 = false; // ::ffff:a.b.c.d/N, as clients are compared: in IPv4 form
    const quint32 v4 = network.first.toIPv4Address(&isV4);
    if (isV4 && network.first.protocol() == QAbstractSocket::IPv6Protocol)
        return network.second > 96 ? std::optional<Subnet>(Subnet{QHostAddress(v4), network.second - 96})
                                   : std::nullopt;
    return network;
}

} // namespace upin::app
