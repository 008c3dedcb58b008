#pragma once
// What a user gives the tool (a URL to send, forward or probe to; a file of certificates to trust), checked by one
// function per rule that the command line and the window both call. Each returns what is wrong in words that read
// after the option's or the field's name ("--to ftp://x: give an http:// or https:// URL"), or nothing; the window
// shows the same words the CLI prints.

#include <QHostAddress>
#include <QString>
#include <QUrl>

namespace upin::app {

// An http:// or https:// URL with a host. Text without a scheme is taken as http:// ("127.0.0.1:9000/up"), as
// curl takes it; another scheme, or a typo of one, is refused rather than rewritten ("htp://x" was sent to
// http://htp//x).
QString checkHttpUrl(const QString& text, QUrl* url = nullptr);

// A file of PEM certificates to trust beside the system's; "" is none, and fine.
QString checkCaFile(const QString& path);

// A TCP port to listen on, 0 to 65535 (0: the system picks one). Before, 70000 became 4464, its remainder.
QString checkPort(const QString& text, quint16* port = nullptr);

// A time in seconds ("10", "2.5", "10s") as whole milliseconds: at least 1 ms, at most a day. Before, forward's
// --upstream-timeout 3e6 overflowed an int.
QString checkSeconds(const QString& text, int* ms = nullptr);
// An address to listen on: IPv4 or IPv6, no name ("localhost" resolves differently per machine).
QString checkAddress(const QString& text, QHostAddress* address = nullptr);

} // namespace upin::app
