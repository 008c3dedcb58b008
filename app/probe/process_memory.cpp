#include "probe/process_memory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>

#include <unistd.h>

namespace upin::app {

namespace {

// Listening sockets by inode, with their ports, from /proc/net/tcp and tcp6 ("local_address" is HEX_IP:HEX_PORT,
// state 0A is LISTEN, the inode is the tenth column); only the port's when one is given.
QHash<QString, quint16> listeningInodes(quint16 onlyPort = 0)
{
    QHash<QString, quint16> inodes;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile file(QString::fromLatin1(table));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        file.readLine(); // the column names
        while (!file.atEnd()) {
            const QStringList columns =
                QString::fromLatin1(file.readLine()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            bool ok = false;
            const auto port = quint16(columns.value(1).section(QLatin1Char(':'), -1).toUInt(&ok, 16));
            if (columns.size() > 9 && ok && columns[3] == QLatin1String("0A") && (onlyPort == 0 || port == onlyPort))
                inodes.insert(columns[9], port);
        }
    }
    return inodes;
}

// The processes holding those sockets, as far as this user may look into /proc/PID/fd.
QList<ListeningProcess> owners(const QHash<QString, quint16>& inodes)
{
    QList<ListeningProcess> found;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        bool numeric = false;
        const qint64 id = pid.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QString& fd : fds.entryList(QDir::System | QDir::NoDotAndDotDot)) {
            const QString target = QFileInfo(fds.filePath(fd)).symLinkTarget().section(QLatin1Char('/'), -1);
            if (!target.startsWith(QLatin1String("socket:[")))
                continue;
            const auto port = inodes.constFind(target.mid(8).chopped(1));
            if (port == inodes.cend())
                continue;
            QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
            const QString name = comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll().trimmed()) : pid;
            if (!std::any_of(found.cbegin(), found.cend(),
                             [&](const ListeningProcess& p) { return p.pid == id && p.port == *port; }))
                found.append({id, *port, name});
        }
    }
    std::sort(found.begin(), found.end(),
              [](const ListeningProcess& a, const ListeningProcess& b) { return a.port < b.port; });
    return found;
}

} // namespace

QList<ListeningProcess> listeningProcesses()
{
    return owners(listeningInodes());
}

qint64 listeningPid(quint16 port, QString* why)
{
    const QHash<QString, quint16> inodes = listeningInodes(port);
    if (inodes.isEmpty()) {
        *why =
            QStringLiteral("no local process listens on port %1 (a server on another machine? give --pid)").arg(port);
        return 0;
    }
    const QList<ListeningProcess> found = owners(inodes);
    if (!found.isEmpty())
        return found.first().pid;
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
