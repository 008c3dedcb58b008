#pragma once
// The window's own listener, started by ServiceWiring as the GUI main starts it, on a port that was free a moment
// before (asked of the kernel, not guessed from a range another test or program may hold).

#include "service_wiring.h"

#include <catch2/catch.hpp>

#include <QTcpServer>

namespace upin::test {

inline quint16 startOnFreePort(ui::ServiceWiring& wiring)
{
    QTcpServer probe;
    REQUIRE(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    REQUIRE(wiring.startListener(port));
    return port;
}

} // namespace upin::test
