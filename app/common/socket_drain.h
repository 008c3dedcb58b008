#pragma once
// Everything a plain TCP socket has received, from Qt's buffer and then straight from the kernel, up to `limit`
// bytes. A server that answers early and closes with our body unread makes its kernel reset the connection; our next
// write then fails, and Qt closes the socket without reading what had already arrived: the answer. Called before
// that close (Qt reports the error first), this takes those bytes from the kernel, which keeps them for us. For it
// to work, the socket's Qt read buffer is kept small (setReadBufferSize), so the bytes wait in the kernel.
// Over TLS the kernel holds ciphertext: only what Qt has decrypted is taken.

#include <QSslSocket>
#include <QTcpSocket>

#include <sys/socket.h>

#include <algorithm>

namespace upin::app {

template <typename Sink> // void(const char* data, qint64 size)
qint64 drainSocket(QTcpSocket& socket, qint64 limit, Sink&& sink)
{
    qint64 taken = 0;
    if (socket.isReadable() && socket.bytesAvailable() > 0) {
        const QByteArray buffered = socket.read(std::min(limit, socket.bytesAvailable()));
        sink(buffered.constData(), qint64(buffered.size()));
        taken += buffered.size();
    }
    const qintptr fd = socket.socketDescriptor();
    if (fd < 0 || qobject_cast<QSslSocket*>(&socket))
        return taken;
    char buffer[65536];
    while (taken < limit) {
        const ssize_t got =
            ::recv(int(fd), buffer, size_t(std::min<qint64>(qint64(sizeof buffer), limit - taken)), MSG_DONTWAIT);
        if (got <= 0)
            break;
        sink(buffer, qint64(got));
        taken += got;
    }
    return taken;
}

} // namespace upin::app
