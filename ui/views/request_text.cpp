#include "views/request_text.h"
#include "common/byte_size.h"
#include "common/limit_hint.h"
#include "common/qt_text.h"

#include <QJsonDocument>
#include <QObject>

namespace upin::ui {

namespace {
// One TLS leg: what its handshake agreed, the name asked for, and the certificate the server side showed.
QString describeTls(const app::Transport& transport, const QString& http)
{
    QString out = QObject::tr("%1 over %2, cipher %3,\n            ALPN %4, handshake %5%6\n")
                      .arg(http, transport.protocol.isEmpty() ? QObject::tr("TLS (not agreed)") : transport.protocol,
                           transport.cipher.isEmpty() ? QObject::tr("none") : transport.cipher,
                           transport.alpn.isEmpty() ? QStringLiteral("none") : transport.alpn,
                           app::formatSeconds(transport.handshakeMs / 1e3),
                           transport.clientCertificate ? QObject::tr(", with a client certificate") : QString());
    if (!transport.serverName.isEmpty())
        out += QObject::tr("            server name (SNI) %1\n").arg(app::printable(transport.serverName));
    if (!transport.certificateSubject.isEmpty())
        out += QObject::tr("            certificate %1\n            issued by %2\n")
                   .arg(app::printable(transport.certificateSubject), app::printable(transport.certificateIssuer));
    return out;
}

// The Request row's Text tab: the request as it reads on the wire, then what the tool learnt about it.
// Forward mode: where the request went on to, as it was sent, what came back, and when.
QString describeForward(const app::ForwardRecord& forward)
{
    auto ms = [](double at) { return at < 0 ? QObject::tr("—") : app::formatSeconds(at / 1e3); };
    QString out = QObject::tr("\nForwarded to %1 (%2)\n")
                      .arg(forward.upstream, forward.reusedConnection ? QObject::tr("a kept connection")
                                                                      : QObject::tr("a new connection"));
    out += forward.status == 0
               ? QObject::tr("Answer:     none from the upstream\n")
               : QObject::tr("Answer:     %1, %2 bytes%3\n")
                     .arg(forward.status)
                     .arg(forward.answerBytes)
                     .arg(forward.earlyAtByte < 0
                              ? QString()
                              : QObject::tr(", early: after %1 bytes of the body").arg(forward.earlyAtByte));
    if (forward.upstreamTls) {
        const bool refused = forward.certificateRefused; // the fault says why
        out += QObject::tr("Upstream:   ") + describeTls(*forward.upstreamTls, QStringLiteral("HTTP/1.1")) +
               (forward.unverified ? QObject::tr("            its certificate NOT checked (--insecure)\n")
                : refused          ? QObject::tr("            its certificate refused: not trusted for that name\n")
                                   : QObject::tr("            its certificate checked against the trusted roots\n"));
    }
    if (forward.fault) // status 0: nothing was answered (a client that had gone)
        out += QObject::tr("Fault:      %1: %2%3\n")
                   .arg(forward.fault->error, forward.fault->detail,
                        forward.fault->status > 0 ? QObject::tr(" (status %1)").arg(forward.fault->status) : QString());
    out += QObject::tr("Server:     %1 from the upstream taking the last byte to its first answer byte\n")
               .arg(ms(forward.serverMs()));
    out += QObject::tr("Moments:    from the request head: the client's last byte %1,\n"
                       "            the upstream took the last byte %2, its first answer byte %3,\n"
                       "            the answer relayed whole %4\n")
               .arg(ms(forward.at.clientLastByte), ms(forward.at.upstreamTookLastByte), ms(forward.at.firstAnswerByte),
                    ms(forward.at.answerDone));
    out += QObject::tr("\nAs sent to the upstream:\n");
    for (const QString& line : QString::fromUtf8(forward.headAsSent).split(QStringLiteral("\r\n")))
        if (!line.isEmpty())
            out += app::printable(line) + QLatin1Char('\n');
    if (forward.status != 0)
        out += QObject::tr("\nIts answer (status, header fields, body) is in the Answer tab.\n");
    return out;
}

QString describeWire(const app::RequestRecord& request, const QString& notRecorded)
{
    if (request.framing == QLatin1String("chunked") && !request.chunks)
        return QObject::tr("chunked (chunk count %1)").arg(notRecorded);
    if (request.framing == QLatin1String("chunked"))
        return QObject::tr("chunked: %1 data %2")
                   .arg(*request.chunks)
                   .arg(*request.chunks == 1 ? QObject::tr("chunk") : QObject::tr("chunks")) +
               (request.trailerBytes.value_or(0) > 0
                    ? QObject::tr(", %1 bytes of trailer fields (read, not kept)").arg(*request.trailerBytes)
                    : QObject::tr(", no trailer fields"));
    if (request.framing == QLatin1String("content-length"))
        return QObject::tr("Content-Length: %1 bytes").arg(request.contentLength.value_or(0));
    return QObject::tr("no body framing (the body runs to the end of the file)");
}

QString describeTransport(const app::RequestRecord& request)
{
    const QString http = request.headRecorded() ? request.version : QStringLiteral("HTTP");
    const app::Transport transport = request.transport.value_or(app::Transport{});
    if (!transport.tls)
        return QObject::tr("Transport:  plain %1 over TCP\n").arg(http);
    return QObject::tr("Transport:  ") + describeTls(transport, http);
}

} // namespace

QString describeRequest(const app::InspectResult& result)
{
    const app::RequestRecord& request = result.request;
    // Captures stored by earlier versions kept only target, content type and client: the rest reads "not recorded".
    const QString notRecorded = QObject::tr("(not recorded: stored by an earlier version)");
    QString out = request.headRecorded()
                      ? app::printable(QStringLiteral("%1 %2 %3").arg(request.method, request.target, request.version))
                      : QObject::tr("%1 %2").arg(app::printable(request.target), notRecorded);
    out += QLatin1Char('\n');
    if (!request.headers)
        out += QObject::tr("Header fields %1\n").arg(notRecorded);
    for (const auto& [name, value] : request.headers.value_or(QList<QPair<QString, QString>>{}))
        out += app::printable(name + QStringLiteral(": ") + value) + QLatin1Char('\n');
    out += QLatin1Char('\n');

    out += QObject::tr("Framing:    %1\n").arg(describeWire(request, notRecorded));
    out += result.report.bytes < 1024 ? QObject::tr("Body:       %1 bytes").arg(result.report.bytes)
                                      : QObject::tr("Body:       %1 (%2 bytes)")
                                            .arg(app::formatBytes(result.report.bytes))
                                            .arg(result.report.bytes);
    if (request.wireBytes && *request.wireBytes != result.report.bytes)
        out += QObject::tr(", %1 bytes on the wire").arg(*request.wireBytes);
    // The head's length against what came: the cause when a whole body reads as cut short (or one runs on).
    if (request.contentLength && *request.contentLength > result.report.bytes)
        out += QObject::tr("  ⚠ %1 bytes short of its Content-Length (%2)")
                   .arg(*request.contentLength - result.report.bytes)
                   .arg(*request.contentLength);
    out += request.headBytes ? QObject::tr("\nHead:       %1 bytes").arg(*request.headBytes)
                             : QObject::tr("\nHead:       %1").arg(notRecorded);
    if (request.headMs)
        out += QObject::tr(", arrived in %1").arg(app::formatSeconds(*request.headMs / 1e3));
    out += QLatin1Char('\n');

    if (!result.capture) {
        out += QObject::tr("Client:     not recorded (a request file holds only the request's bytes)\n");
        out += QObject::tr("Transport:  not recorded\n");
        return out;
    }
    const app::CaptureRecord& capture = *result.capture;
    out += QObject::tr("Client:     %1\n").arg(request.client);
    if (!request.host.isEmpty())
        out += QObject::tr("Listener:   %1 (as the client named it)\n").arg(request.host);
    if (request.receivedAt.isValid())
        out += QObject::tr("Received:   %1\n")
                   .arg(request.receivedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz t")));
    const double seconds = capture.elapsedMs / 1e3;
    out += QObject::tr("Body time:  %1 from the head's end to the answer").arg(app::formatSeconds(seconds));
    if (seconds > 0 && result.report.bytes > 0)
        out += QObject::tr(" (%1 MB/s)").arg(double(result.report.bytes) / 1e6 / seconds, 0, 'f', 1);
    out += QLatin1Char('\n');
    out += QObject::tr("Endpoint:   %1, matcher %2, hash %3; %4\n")
               .arg(capture.endpoint, capture.matcher, capture.hash, app::captureStateName(capture.state));
    out += describeTransport(request);
    if (capture.forward)
        out += describeForward(*capture.forward);
    return out;
}

QString describeHarEntry(const app::HarEntry& entry, const core::PartSummary& node)
{
    QString out = app::printable(QStringLiteral("%1 %2 %3").arg(entry.method, entry.url, entry.httpVersion)) + '\n';
    out += entry.body.isEmpty() ? QObject::tr("No request body\n")
           : entry.multipart    ? QObject::tr("Body: %1, multipart, %2 (choose one to see it)\n")
                                   .arg(app::formatBytes(quint64(entry.body.size())))
                                   .arg(node.children.size() == 1 ? QObject::tr("1 part")
                                                                  : QObject::tr("%1 parts").arg(node.children.size()))
                             : QObject::tr("Body: %1, %2 (not multipart: see Hex)\n")
                                   .arg(app::formatBytes(quint64(entry.body.size())), entry.contentType);
    if (entry.bodyError)
        out += QObject::tr("Did not parse: %1 (byte %2 of this body)\n")
                   .arg(app::describeError(entry.bodyError->code, app::LimitHint::WindowFlag))
                   .arg(entry.bodyError->offset);
    out += QLatin1Char('\n');
    if (entry.status == 0)
        return out + QObject::tr("No response in the HAR file (the request failed or was blocked)\n");
    return out + QObject::tr("Response: %1 %2 (status, header fields and body in the Answer tab)\n")
                     .arg(entry.status)
                     .arg(app::printable(entry.statusText));
}

} // namespace upin::ui
