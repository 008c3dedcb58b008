#pragma once
// Forward mode in tests: a forwarder (a Server whose config says forward) in front of an upstream, and the
// small Python upstreams of upstreams.py.

#include "app/listener_fixture.h"

#include <QDir>
#include <QTemporaryDir>
#include <QThread>

#include <memory>

namespace upin::test {

// A server of another stack on 127.0.0.1 that prints the port it took as its first line, killed with the test.
struct ServerProcess {
    QProcess process;
    quint16 port = 0;
    ServerProcess(const QString& program, const QStringList& arguments)
    {
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel); // its complaints in the test's log
        process.start(program, arguments);
        REQUIRE(process.waitForReadyRead(20000)); // Flask takes a while to import
        port = quint16(process.readLine().trimmed().toUInt());
        REQUIRE(port != 0);
    }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;
    ~ServerProcess()
    {
        process.kill();
        process.waitForFinished(5000);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port); }
};

struct PythonServer : ServerProcess {
    explicit PythonServer(const QStringList& arguments) // the script, then its arguments
        : ServerProcess(QStringLiteral("python3"), arguments)
    {}
};

// A Python upstream from upstreams.py.
struct PythonUpstream : PythonServer {
    explicit PythonUpstream(const QString& mode, const QStringList& args = {})
        : PythonServer(QStringList{UPIN_TESTS_DIR "/app/upstreams.py", mode} + args)
    {}
};

// flask_upload.py: a Flask (werkzeug) endpoint that checks the method, auth and a CSRF token.
struct FlaskUpload : PythonServer {
    FlaskUpload() : PythonServer({UPIN_TESTS_DIR "/app/flask_upload.py"}) {}
};

inline std::unique_ptr<ListenerFixture> forwarder(const QString& upstream, app::ForwardSettings settings = {},
                                                  app::ServerConfig config = {})
{
    settings.upstream = QUrl(upstream);
    config.forward = settings;
    return std::make_unique<ListenerFixture>(config);
}

// A forward proxy (`proxy`), its authority in a folder of the test's own (tlsFolder), not the user's.
inline std::unique_ptr<ListenerFixture> proxy(app::ForwardSettings settings = {}, const QString& tlsFolder = {},
                                              app::ServerConfig config = {})
{
    settings.proxy = true;
    config.forward = settings;
    static QTemporaryDir shared; // for the tests that do not look at it
    config.tlsFolder = tlsFolder.isEmpty() ? shared.filePath("tls") : tlsFolder;
    return std::make_unique<ListenerFixture>(config);
}

inline QString proxyUrl(const ListenerFixture& p)
{
    return QStringLiteral("http://127.0.0.1:%1").arg(p.listener.port());
}

// request with its origin-form target made absolute on `server` ("http://127.0.0.1:N"): as a proxy's client
// sends it. A request line without one ("GET captures ...") is left as it is.
inline QByteArray absoluteForm(QByteArray request, const QString& server)
{
    const qsizetype slash = request.indexOf(" /");
    if (slash >= 0 && slash < request.indexOf("\r\n"))
        request.insert(slash + 1, server.toLatin1());
    return request;
}

// A relay in front of `upstream`: a forwarder to it, or a forward proxy whose client names it in each request.
struct Relay {
    std::unique_ptr<ListenerFixture> fixture;
    QString upstream;
    bool proxy = false;
    ListenerFixture* operator->() const { return fixture.get(); }
    quint16 port() const { return fixture->listener.port(); }
    QByteArray as(const QByteArray& request) const { return proxy ? absoluteForm(request, upstream) : request; }
    QByteArray exchange(const QByteArray& request, int timeoutMs = 5000) const
    {
        return rawExchange(port(), as(request), timeoutMs);
    }
};

inline Relay relay(bool viaProxy, const QString& upstream, const app::ForwardSettings& settings = {},
                   app::ServerConfig config = {})
{
    if (viaProxy)
        return Relay{proxy(settings, {}, std::move(config)), upstream, true};
    return Relay{forwarder(upstream, settings, std::move(config)), upstream, false};
}

// The forwarder's capture.json files, oldest first, once `count` exchanges have been written.
inline QList<QJsonObject> forwardCaptures(const QString& captureRoot, qsizetype count)
{
    QList<QJsonObject> out;
    for (int i = 0; i < 250; ++i) {
        out.clear();
        QDir root(captureRoot);
        for (const QString& folder : root.entryList({"capture-*-forward"}, QDir::Dirs, QDir::Name)) {
            QFile file(root.filePath(folder + "/capture.json"));
            if (file.open(QIODevice::ReadOnly)) {
                const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
                if (!json.isEmpty())
                    out.append(json);
            }
        }
        if (out.size() >= count)
            break;
        QThread::msleep(20);
    }
    REQUIRE(out.size() == count);
    return out;
}

inline QList<QJsonObject> forwardCaptures(const ListenerFixture& f, qsizetype count)
{
    return forwardCaptures(f.listener.captureRoot(), count);
}

// A server whose whole answer is `answer`, as upstreams.py's raw mode sends it (hold: it then keeps the
// connection open).
struct RawUpstream {
    QTemporaryDir dir;
    std::unique_ptr<PythonUpstream> server;
    explicit RawUpstream(const QByteArray& answer, bool hold = false)
    {
        const QString file = dir.filePath(QStringLiteral("answer"));
        QFile out(file);
        REQUIRE(out.open(QIODevice::WriteOnly));
        out.write(answer);
        out.close();
        server = std::make_unique<PythonUpstream>(QStringLiteral("raw"),
                                                  hold ? QStringList{file, "hold"} : QStringList{file});
    }
    QString url() const { return server->url(); }
};

} // namespace upin::test
