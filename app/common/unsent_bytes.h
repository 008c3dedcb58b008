#pragma once
// Bytes a socket has not handed to the kernel yet. For a QSslSocket, bytesToWrite() counts only those not yet
// encrypted; the encrypted ones wait apart (encryptedBytesToWrite()). A sender that bounded its queue, or an answer
// deadline that stopped, on bytesToWrite() alone would queue a whole body in memory, or call an answer sent while
// it still waits to go out.

#include <QSslSocket>
#include <QTcpSocket>

namespace upin::app {

inline qint64 unsentBytes(const QTcpSocket& socket)
{
    const auto* tls = qobject_cast<const QSslSocket*>(&socket);
    return socket.bytesToWrite() + (tls ? tls->encryptedBytesToWrite() : 0);
}

} // namespace upin::app
