#pragma once
// The window's own listener, started by ServiceWiring as the GUI main starts it, on a port that was free a moment
// before (asked of the kernel, not guessed from a range another test or program may hold).

#include "main_window.h"
#include "service_wiring.h"

#include <catch2/catch.hpp>

#include <QSettings>
#include <QTcpServer>
#include <QTemporaryDir>

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

// The window as the GUI main makes it, its settings and captures in a folder of the test's (not the user's), its
// listener started on a free port.
struct WiredWindow {
    QTemporaryDir dir;
    bool settingsApart = [this] {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
        QSettings().clear();
        return true;
    }();
    ui::MainWindow window;
    ui::ServiceWiring wiring{window, dir.filePath("captures")};
    quint16 port = startOnFreePort(wiring);

    QString url(const QString& path) const { return QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path); }
};

} // namespace upin::test
