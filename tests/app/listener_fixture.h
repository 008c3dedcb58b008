#pragma once
// A real listener on 127.0.0.1, port 0, with its own temporary capture folder, for tests that talk to it with
// real clients (curl, QNetworkAccessManager, raw sockets).

#include "listener/listener.h"

#include "upin/core/sha256.h"

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace upin::test {

struct ListenerFixture {
    QTemporaryDir dir;
    app::Listener listener;

    explicit ListenerFixture(app::ListenerConfig config = {})
    {
        config.port = 0;
        config.captureDir = dir.filePath(QStringLiteral("captures"));
        if (!listener.start(config))
            throw std::runtime_error(listener.errorString().toStdString());
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
    return core::Sha256::hex({bytes.constData(), size_t(bytes.size())});
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

} // namespace upin::test
