#pragma once
#include <QByteArray>

namespace upin::app {
// The HTML upload form served at GET /, so a browser can post to the listener.
QByteArray formPage(quint16 port);
} // namespace upin::app
