#pragma once
// A real browser in tests: pages served from a port of the test's own (an origin apart from the listener's), and
// Debian's headless Chromium run on one of them until the test has seen what it waits for.

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <functional>

namespace upin::test {

// Plain http on 127.0.0.1, one request per connection. A page is found by its path (the query is the page's own
// to read); GET /report?QUERY keeps QUERY in `report`, for pages that say what they saw.
class PageServer {
public:
    struct Page {
        QByteArray type;
        QByteArray body;
    };

    PageServer()
    {
        REQUIRE(m_server.listen(QHostAddress::LocalHost));
        QObject::connect(&m_server, &QTcpServer::newConnection, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { serve(socket); });
        });
    }
    QString origin() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    void set(const QByteArray& path, const Page& page) { m_pages.insert(path, page); }
    QString report; // the query the page reported, once it did

private:
    void serve(QTcpSocket* socket)
    {
        m_requests[socket] += socket->readAll();
        const QByteArray& request = m_requests[socket];
        if (!request.contains("\r\n\r\n"))
            return;
        const QByteArray target = request.split(' ').value(1);
        const QByteArray path = target.split('?').first();
        if (path == "/report")
            report = QString::fromUtf8(target.mid(8));
        const Page page = m_pages.value(path, Page{"text/plain", "ok"});
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: " + page.type + "\r\nContent-Length: " +
                      QByteArray::number(page.body.size()) + "\r\nConnection: close\r\n\r\n" + page.body);
        socket->disconnectFromHost();
        m_requests.remove(socket);
    }

    QTcpServer m_server;
    QHash<QByteArray, Page> m_pages;
    QHash<QTcpSocket*, QByteArray> m_requests;
};

// Opens url in headless Chromium (installed by scripts/install-deps), in a profile of its own, and serves this
// thread's events (the PageServer's) until done() or 60 s. `environment` is Chromium's: HOME names the NSS
// database it trusts (HOME/.pki/nssdb).
inline void runChromium(const QString& url, const QStringList& arguments, const std::function<bool()>& done,
                        const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    QTemporaryDir profile;
    QProcess chromium;
    chromium.setProcessEnvironment(environment);
    chromium.setStandardOutputFile(QProcess::nullDevice()); // its D-Bus complaints and the like
    chromium.setStandardErrorFile(QProcess::nullDevice());
    chromium.start(QStringLiteral("chromium"), QStringList{"--headless", "--no-sandbox", "--disable-gpu",
                                                           "--no-first-run", "--user-data-dir=" + profile.path()} +
                                                   arguments + QStringList{url});
    REQUIRE(chromium.waitForStarted(10'000));
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 60'000 && chromium.state() == QProcess::Running)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    chromium.kill();
    chromium.waitForFinished(5000);
}

// A page that submits a real multipart form to `action`, as a user would: it fetches `file` from its own origin,
// puts it in the form's file input as a user's pick would be, and submits; the browser encodes the body itself.
// Its fields: note ("from chromium") and upload (the file, as photo.bin).
inline void setFormPage(PageServer& pages, const QString& action, const QByteArray& file)
{
    const QByteArray page = R"(<!doctype html>
<form method=post enctype=multipart/form-data action="ACTION" id=f>
<input name=note value="from chromium"><input type=file name=upload id=u></form>
<script>
fetch('/photo.bin').then(r => r.blob()).then(b => {
  const picked = new DataTransfer();
  picked.items.add(new File([b], 'photo.bin', {type: 'application/octet-stream'}));
  document.getElementById('u').files = picked.files;
  document.getElementById('f').submit();
});
</script>)";
    pages.set("/form", {"text/html", QByteArray(page).replace("ACTION", action.toUtf8())});
    pages.set("/photo.bin", {"application/octet-stream", file});
}

} // namespace upin::test
