#pragma once
// The memory of the server being probed, from /proc: which local process listens on a port (the probe's URL),
// and its resident size sampled every 20 ms while an upload runs, on a thread of its own so that the sampling keeps
// its pace whatever the sending thread does.

#include "probe/probe_report.h"

#include <QElapsedTimer>
#include <QString>

#include <atomic>
#include <mutex>
#include <thread>

namespace upin::app {

struct ListeningProcess {
    qint64 pid = 0;
    quint16 port = 0;
    QString name; // its command's name (/proc/PID/comm)
};
// Every local process with a listening TCP socket this user can look into, by port (the Probe tab's picker).
QList<ListeningProcess> listeningProcesses();
// The process that has a socket listening on this TCP port (any local address, IPv4 or IPv6); of several (a
// pre-forking server's workers inherit its socket), the one whose parent is not among them. 0 with *why set when
// none can be seen (another user's process, a container, nothing listening).
qint64 listeningPid(quint16 port, QString* why);
// The process and its descendants (a server's workers), less the process `except` and its own (the probe, when the
// server is the process that started it: a test's listener).
QList<qint64> processTree(qint64 root, qint64 except);
// Its program's name, as the picker and the report show it.
QString processName(qint64 pid);
// Their resident set sizes summed, now; 0 when they are gone.
quint64 residentBytes(const QList<qint64>& pids);

class RssSampler {
public:
    RssSampler(qint64 pid, const QElapsedTimer& probeClock) : m_pid(pid), m_clock(probeClock) {}
    ~RssSampler() { stop(); }
    RssSampler(const RssSampler&) = delete;
    RssSampler& operator=(const RssSampler&) = delete;

    // One upload begins: its growth is measured from here, over the process and its workers as they are now (a
    // pre-forking server hands each upload to one of its children; a cluster's master passes it on).
    void start();
    int processCount() const { return int(m_pids.size()); } // watched during the last upload
    // The upload ended: the growth of the resident size over its value at start(), and the samples taken.
    quint64 stop(QList<MemorySample>* samples = nullptr);

private:
    qint64 m_pid;
    QList<qint64> m_pids;
    const QElapsedTimer& m_clock;
    std::thread m_thread;
    std::atomic<bool> m_running = false;
    std::mutex m_mutex;
    QList<MemorySample> m_samples;
    quint64 m_start = 0;
    quint64 m_peak = 0;
};

} // namespace upin::app
