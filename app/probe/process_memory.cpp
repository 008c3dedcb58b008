#include "probe/process_memory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>

namespace upin::app {

namespace {

// The inodes of sockets listening on the port, from /proc/net/tcp and tcp6 ("local_address" is HEX_IP:HEX_PORT,
// state 0A is LISTEN, the inode is the tenth column).
QStringList listeningInodes(quint16 port)
{
    QStringList inodes;
    const QString portHex = QStringLiteral(":%1").arg(port, 4, 16, QLatin1Char('0')).toUpper();
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile file(QString::fromLatin1(table));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        file.readLine(); // the column names
        while (!file.atEnd()) {
            const QStringList columns =
                QString::fromLatin1(file.readLine()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (columns.size() > 9 && columns[1].endsWith(portHex) && columns[3] == QLatin1String("0A"))
                inodes << columns[9];
        }
    }
    return inodes;
}

} // namespace

qint64 listeningPid(quint16 port, QString* why)
{
    const QStringList inodes = listeningInodes(port);
    if (inodes.isEmpty()) {
        *why =
            QStringLiteral("no local process listens on port %1 (a server on another machine? give --pid)").arg(port);
        return 0;
    }
    QStringList targets;
    for (const QString& inode : inodes)
        targets << QStringLiteral("socket:[%1]").arg(inode);
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        bool numeric = false;
        const qint64 id = pid.toLongLong(&numeric);
        if (!numeric || id == ::getpid())
            continue;
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QString& fd : fds.entryList(QDir::System | QDir::NoDotAndDotDot))
            if (targets.contains(QFileInfo(fds.filePath(fd)).symLinkTarget().section(QLatin1Char('/'), -1)))
                return id;
    }
    *why = QStringLiteral("port %1 is held by a process this user cannot look into (give --pid)").arg(port);
    return 0;
}

quint64 residentBytes(qint64 pid)
{
    QFile statm(QStringLiteral("/proc/%1/statm").arg(pid));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toULongLong() * quint64(::sysconf(_SC_PAGESIZE)) : 0;
}

void RssSampler::start()
{
    stop();
    m_start = m_peak = residentBytes(m_pid);
    m_running = true;
    m_thread = std::thread([this] {
        while (m_running) {
            const quint64 now = residentBytes(m_pid);
            {
                std::lock_guard lock(m_mutex);
                m_peak = std::max(m_peak, now);
                m_samples.append({double(m_clock.nsecsElapsed()) / 1e9, now});
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

quint64 RssSampler::stop(QList<MemorySample>* samples)
{
    if (!m_thread.joinable())
        return 0;
    m_running = false;
    m_thread.join();
    std::lock_guard lock(m_mutex);
    if (samples)
        *samples += m_samples;
    m_samples.clear();
    return m_peak > m_start ? m_peak - m_start : 0;
}

} // namespace upin::app
