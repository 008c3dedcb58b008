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
            if (!std::any_of(found.cbegin(), found.cend(),
                             [&](const ListeningProcess& p) { return p.pid == id && p.port == *port; }))
                found.append({id, *port, processName(id)});
        }
    }
    std::sort(found.begin(), found.end(),
              [](const ListeningProcess& a, const ListeningProcess& b) { return a.port < b.port; });
    return found;
}

// Every process's parent, from /proc/PID/stat: "PID (comm) STATE PPID ...", the command in parentheses may hold
// spaces and parentheses of its own, so the fields are read after the last ')'.
QHash<qint64, qint64> parents()
{
    QHash<qint64, qint64> parentOf;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : pids) {
        bool numeric = false;
        const qint64 id = pid.toLongLong(&numeric);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!numeric || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1)
            parentOf.insert(id, fields[1].toLongLong());
    }
    return parentOf;
}

} // namespace

// The program's file name from its command line ("upload-inspector-cli", "python3"): /proc/PID/comm cuts names at
// 15 bytes ("upload-inspecto"), and is the fallback.
QString processName(qint64 pid)
{
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (cmdline.open(QIODevice::ReadOnly))
        if (const QByteArray program = cmdline.read(4096).split('\0').value(0); !program.isEmpty())
            return QString::fromLocal8Bit(program).section(QLatin1Char('/'), -1);
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
    return comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll().trimmed()) : QString::number(pid);
}

QList<qint64> processTree(qint64 root, qint64 except)
{
    const QHash<qint64, qint64> parentOf = parents();
    QList<qint64> tree{root};
    for (qsizetype i = 0; i < tree.size(); ++i) // breadth first: each one's children appended after it
        for (auto it = parentOf.cbegin(); it != parentOf.cend(); ++it)
            if (it.value() == tree[i] && it.key() != except && !tree.contains(it.key()))
                tree.append(it.key());
    return tree;
}

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
    const QHash<qint64, qint64> parentOf = found.size() > 1 ? parents() : QHash<qint64, qint64>{};
    for (const ListeningProcess& p : found)
        if (std::none_of(found.cbegin(), found.cend(),
                         [&](const ListeningProcess& q) { return q.pid == parentOf.value(p.pid, -1); }))
            return p.pid;
    *why = QStringLiteral("port %1 is held by a process this user cannot look into (give --pid)").arg(port);
    return 0;
}

quint64 residentBytes(const QList<qint64>& pids)
{
    quint64 bytes = 0;
    for (qint64 pid : pids) {
        QFile statm(QStringLiteral("/proc/%1/statm").arg(pid));
        if (!statm.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> fields = statm.readAll().split(' ');
        bytes += fields.size() > 1 ? fields[1].toULongLong() * quint64(::sysconf(_SC_PAGESIZE)) : 0;
    }
    return bytes;
}

void RssSampler::start()
{
    stop();
    m_pids = processTree(m_pid, ::getpid());
    m_start = m_peak = residentBytes(m_pids);
    m_running = true;
    m_thread = std::thread([this] {
        while (m_running) {
            const quint64 now = residentBytes(m_pids);
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
