#pragma once
// What the proxy's tests share beyond forward_fixture.h: our TLS listener as the "real server" behind a proxy that
// trusts it, and an answer read from a raw client socket.

#include "app/forward_fixture.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>

namespace upin::test {

// An answer read from a client's socket: its head, and the body its Content-Length says.
inline QByteArray readHttpAnswer(QTcpSocket& socket)
{
    QByteArray answer;
    auto whole = [&answer] {
        const qsizetype end = answer.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QRegularExpressionMatch length =
            QRegularExpression("Content-Length: (\\d+)", QRegularExpression::CaseInsensitiveOption)
                .match(QString::fromLatin1(answer.left(end)));
        return answer.size() - end - 4 >= (length.hasMatch() ? length.captured(1).toLongLong() : 0);
    };
    while (!whole() && socket.waitForReadyRead(5000))
        answer += socket.readAll();
    return answer;
}

inline const QByteArray kCapturesRequest = "GET /captures HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

// openssl s_client through the proxy on proxyPort: CONNECT 127.0.0.1:connectPort, with `options` (-servername,
// -CAfile, …), `request` written in the tunnel; all it printed (the certificate, the verification, the answer).
inline QString sClientThroughProxy(quint16 proxyPort, quint16 connectPort, const QStringList& options,
                                   const QByteArray& request = kCapturesRequest)
{
    QProcess openssl;
    openssl.setProcessChannelMode(QProcess::MergedChannels);
    openssl.start("openssl", QStringList{"s_client", "-proxy", QStringLiteral("127.0.0.1:%1").arg(proxyPort),
                                         "-connect", QStringLiteral("127.0.0.1:%1").arg(connectPort), "-ign_eof"} +
                                 options);
    openssl.write(request);
    openssl.closeWriteChannel();
    REQUIRE(openssl.waitForFinished(20000));
    return QString::fromUtf8(openssl.readAll());
}

// Our TLS listener as the "real server" (its certificate: localhost and 127.0.0.1), and a proxy that trusts it,
// its authority in the same test folder.
struct TlsServerBehindProxy {
    QTemporaryDir home;
    ListenerFixture server{test::tlsConfig(home.filePath("server"))};
    std::unique_ptr<ListenerFixture> p = proxy(trusting(server), home.filePath("proxy"));

    static app::ForwardSettings trusting(const ListenerFixture& server)
    {
        app::ForwardSettings settings;
        settings.caCertificates = server.listener.tlsIdentity()->certificatePath;
        return settings;
    }
};

} // namespace upin::test
