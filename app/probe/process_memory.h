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
// The process that has a socket listening on this TCP port (any local address, IPv4 or IPv6); 0 with *why set
// when none can be seen (another user's process, a container, nothing listening).
qint64 listeningPid(quint16 port, QString* why);
// Its resident set size now; 0 when it is gone.
quint64 residentBytes(qint64 pid);

class RssSampler {
public:
    RssSampler(qint64 pid, const QElapsedTimer& probeClock) : m_pid(pid), m_clock(probeClock) {}
    ~RssSampler() { stop(); }
    RssSampler(const RssSampler&) = delete;
    RssSampler& operator=(const RssSampler&) = delete;

    void start(); // one upload begins: its growth is measured from here
    // The upload ended: the growth of the resident size over its value at start(), and the samples taken.
    quint64 stop(QList<MemorySample>* samples = nullptr);

private:
    qint64 m_pid;
    const QElapsedTimer& m_clock;
    std::thread m_thread;
    std::atomic<bool> m_running = false;
    std::mutex m_mutex;
    QList<MemorySample> m_samples;
    quint64 m_start = 0;
    quint64 m_peak = 0;
};

} // namespace upin::app
