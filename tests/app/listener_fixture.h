#pragma once
// A real listener on 127.0.0.1, port 0, with its own temporary capture folder, for tests that talk to it with
// real clients (curl, QNetworkAccessManager, raw sockets).

#include "modes/server.h"
#include "sender/sender.h"

#include "upin/core/digest.h"

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace upin::test {

// A listener config with TLS on a free port, its certificate kept in folder (made there for localhost at first).
inline app::ServerConfig tlsConfig(const QString& folder)
{
    app::ServerConfig config;
    config.tls = true;
    config.tlsPort = 0;
    config.tlsFolder = folder;
    return config;
}

struct ListenerFixture {
    QTemporaryDir dir;
    app::Server listener;

    // The captures go to a temporary folder of the fixture's own unless config names one (a tmpfs, say).
    explicit ListenerFixture(app::ServerConfig config = {})
    {
        config.port = 0;
        if (config.captureDir.isEmpty())
            config.captureDir = dir.filePath(QStringLiteral("captures"));
        if (!listener.start(config))
            throw std::runtime_error(listener.errorString().toStdString());
    }
    // The one capture folder there is.
    QString onlyCaptureFolder() const
    {
        const QStringList folders = QDir(listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
        REQUIRE(folders.size() == 1);
        return QDir(listener.captureRoot()).filePath(folders.first());
    }
    // The first capture folder holding `file` (any, when empty), once a receiving upload has made it; empty after
    // a second.
    QString waitForCaptureFolder(const QString& file = {}) const
    {
        for (int i = 0; i < 50; ++i) {
            const QStringList folders = QDir(listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
            if (!folders.isEmpty() &&
                (file.isEmpty() || QDir(listener.captureRoot()).exists(folders.first() + '/' + file)))
                return QDir(listener.captureRoot()).filePath(folders.first());
            QThread::msleep(20);
        }
        return {};
    }
    QString url(const QString& path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(listener.port()).arg(path);
    }
    QString file(const QString& name, const QByteArray& content) const
    {
        QString path = dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(content);
        return path;
    }
};

inline std::string sha256(const QByteArray& bytes)
{
    return core::Digest::hex(core::HashKind::Sha256, {bytes.constData(), size_t(bytes.size())});
}

// A Sender on its own thread, as the GUI and CLI use it.
struct SenderThread {
    QThread thread;
    app::Sender* sender = new app::Sender;
    SenderThread()
    {
        sender->moveToThread(&thread);
        QObject::connect(&thread, &QThread::finished, sender, &QObject::deleteLater);
        thread.start();
    }
    ~SenderThread()
    {
        thread.quit();
        thread.wait();
    }
    QList<app::RunResult> run(const app::UploadPlan& plan, int timeoutMs = 120000)
    {
        QSignalSpy done(sender, &app::Sender::finished);
        QMetaObject::invokeMethod(
            sender, [s = sender, plan] { s->start(plan); }, Qt::QueuedConnection);
        REQUIRE(done.wait(timeoutMs));
        return done.first().first().value<QList<app::RunResult>>();
    }
};

inline std::string digest(core::HashKind kind, const QByteArray& bytes)
{
    return core::Digest::hex(kind, {bytes.constData(), size_t(bytes.size())});
}

// What the everyday tool prints for a file: sha256sum, or xxh128sum for XXH3-128.
inline std::string toolDigest(core::HashKind kind, const QString& path)
{
    QProcess tool;
    tool.start(kind == core::HashKind::Xxh3 ? QStringLiteral("xxh128sum") : QStringLiteral("sha256sum"), {path});
    REQUIRE(tool.waitForFinished(30000));
    REQUIRE(tool.exitCode() == 0);
    return tool.readAllStandardOutput().split(' ').first().toStdString();
}

inline QByteArray randomBytes(qsizetype size, quint32 seed)
{
    QByteArray out(size, Qt::Uninitialized);
    quint32 x = seed * 2654435761u + 1;
    for (auto& c : out) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c = char(x);
    }
    return out;
}

struct CurlResult {
    int exitCode = -1;
    int status = 0;
    QJsonObject json;
};

// Runs the system curl; the answer body is parsed as JSON, the HTTP status taken from -w.
inline CurlResult curl(const QStringList& arguments, int timeoutMs = 60000)
{
    QProcess process;
    process.start(QStringLiteral("curl"), QStringList{"-s", "-w", "\n%{http_code}"} + arguments);
    process.waitForFinished(timeoutMs);
    QByteArray out = process.readAllStandardOutput();
    qsizetype split = out.lastIndexOf('\n');
    CurlResult r;
    r.exitCode = process.exitCode();
    r.status = out.mid(split + 1).toInt();
    r.json = QJsonDocument::fromJson(out.left(split)).object();
    return r;
}

// The capture folders under root once retention (a low-priority thread) has settled on expected many, or
// whatever is there after 5 s.
inline QStringList settledCaptureFolders(const QString& root, qsizetype expected)
{
    QStringList folders;
    for (int i = 0; i < 250; ++i) {
        folders = QDir(root).entryList({"capture-*"}, QDir::Dirs);
        if (folders.size() == expected)
            break;
        QThread::msleep(20);
    }
    return folders;
}

// Lowers this process's file size limit (the listener runs in it) until destroyed. With SIGXFSZ ignored, a write
// past the limit fails with EFBIG instead of killing the process.
struct FileSizeLimit {
    rlimit saved{};
    void (*savedHandler)(int) = nullptr;
    explicit FileSizeLimit(rlim_t bytes)
    {
        savedHandler = std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &saved);
        rlimit lowered = saved;
        lowered.rlim_cur = bytes;
        REQUIRE(setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, savedHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
};

inline QJsonObject partNamed(const QJsonObject& answer, const QString& name)
{
    for (const auto& p : answer["parts"].toArray())
        if (p.toObject()["name"].toString() == name)
            return p.toObject();
    return {};
}

inline QStringList filesUnder(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

// Waits for spy's signal, which may have come already: a run that fails at once (a refused certificate) can finish
// on its thread before this thread starts waiting, and QSignalSpy::wait waits for one more. Then delivers what that
// thread posted to this one before the signal (a Sender's runFinished, queued to a view): a signal that had come
// already spun no event loop here, and a view read after it would show the run before.
inline bool signalled(QSignalSpy& spy, int timeoutMs)
{
    const bool seen = !spy.isEmpty() || spy.wait(timeoutMs);
    QCoreApplication::sendPostedEvents();
    return seen;
}

inline QJsonObject readJsonFile(const QString& path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

// Sends raw bytes on a fresh connection and returns everything the server answered until it closed or timeout.
inline QByteArray rawExchange(quint16 port, const QByteArray& request, int timeoutMs = 5000)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    REQUIRE(socket.waitForConnected(2000));
    socket.write(request);
    socket.waitForBytesWritten(2000);
    QByteArray answer;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs && socket.state() == QAbstractSocket::ConnectedState) {
        if (socket.waitForReadyRead(200))
            answer += socket.readAll();
    }
    return answer + socket.readAll();
}

// A plain socket to 127.0.0.1:port, for what Qt's sockets hide: whether the peer reset the connection.
struct RawClient {
    int fd = -1;
    explicit RawClient(quint16 port)
    {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    }
    ~RawClient() { ::close(fd); }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;
    // False once the peer reset the connection (EPIPE, ECONNRESET).
    bool send(const QByteArray& bytes)
    {
        for (qsizetype sent = 0; sent < bytes.size();) {
            const ssize_t n = ::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }
    // What arrives within timeoutMs (until the peer closes its side).
    QByteArray receive(int timeoutMs)
    {
        QByteArray out;
        timeval tv{timeoutMs / 1000, suseconds_t(timeoutMs % 1000) * 1000};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char buffer[4096];
        for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
            out.append(buffer, n);
        return out;
    }
};

// A client that sends its whole body before it reads, as curl and many others do. A listener that closed right
// after its early answer, with the body's rest unread, would have the kernel reset the connection: the client's
// next send fails (curl then reports exit 56, "failure when sending", instead of the answer), and across a network
// the reset can destroy the answer itself. The listener lingers (reads and drops the rest) to prevent that, so
// here every byte must go out without an error, and then the answer must be read whole.
struct SendThenRead {
    bool sentAll = false;
    QByteArray answer;
};

inline SendThenRead sendAllThenRead(quint16 port, const QByteArray& request)
{
    RawClient client(port);
    SendThenRead result;
    result.sentAll = client.send(request); // false: reset (EPIPE or ECONNRESET), the listener did not linger
    result.answer = client.receive(60000);
    return result;
}

} // namespace upin::test
