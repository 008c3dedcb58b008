#pragma once
// Reading and writing a socket with fewer copies than Qt's buffers make, for the paths that carry whole bodies.
//
// drainSocket: everything a plain TCP socket has received, from Qt's buffer and then straight from the kernel, up to `limit`
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

// Whether the kernel holds TLS records for this socket rather than the bytes themselves: a QSslSocket once its
// handshake has begun (a proxy's client socket is one from the start, plain until a tunnel is opened in it).
inline bool carriesTls(QTcpSocket& socket)
{
    const auto* tls = qobject_cast<QSslSocket*>(&socket);
    return tls && tls->mode() != QSslSocket::UnencryptedMode;
}

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
    if (fd < 0 || carriesTls(socket))
        return taken;
    char buffer[65536];
    while (taken < limit && socket.socketDescriptor() == fd) { // the sink may end the connection: stop there
        const ssize_t got =
            ::recv(int(fd), buffer, size_t(std::min<qint64>(qint64(sizeof buffer), limit - taken)), MSG_DONTWAIT);
        if (got <= 0)
            break;
        sink(buffer, qint64(got));
        taken += got;
    }
    return taken;
}

// Reads up to `capacity` bytes into `out`: what Qt holds, then straight from the kernel (plain sockets; over TLS what
// Qt has decrypted). 0: nothing there now. One copy, from the kernel to `out`, where Qt's buffer would add a second.
inline qint64 readSocketInto(QTcpSocket& socket, char* out, qint64 capacity)
{
    qint64 got = socket.bytesAvailable() > 0 ? std::max<qint64>(0, socket.read(out, capacity)) : 0;
    const qintptr fd = socket.socketDescriptor();
    if (fd >= 0 && !carriesTls(socket) && got < capacity) {
        const ssize_t direct = ::recv(int(fd), out + got, size_t(capacity - got), MSG_DONTWAIT);
        if (direct > 0)
            got += direct;
    }
    return got;
}

// Writes `data` to a socket as a proxy must, in order and without loss: straight to the kernel while Qt holds
// nothing unsent (plain sockets), Qt's buffer for the rest (and always over TLS). Bytes the kernel takes at once
// are not copied a second time.
inline void writeSocketDirect(QTcpSocket& socket, const char* data, qint64 size)
{
    const qintptr fd = socket.socketDescriptor();
    if (fd >= 0 && socket.bytesToWrite() == 0 && !carriesTls(socket)) {
        const ssize_t sent = ::send(int(fd), data, size_t(size), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent > 0) {
            data += sent;
            size -= sent;
        }
    }
    if (size > 0)
        socket.write(data, size);
}

} // namespace upin::app
