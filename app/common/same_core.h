#pragma once
// Keeps the calling thread, and the threads it starts meanwhile, on the core it is running on, until destroyed
// (then the thread may run anywhere again; threads started meanwhile stay).
//
// Why: QNetworkAccessManager's HTTP/1 code runs in a thread of its own and pulls an upload body from the thread that
// owns the reply 16 KiB at a time, one queued-signal round trip per piece (QHttpProtocolHandler's socketWriteMaxSize,
// not settable from outside Qt): 12,800 round trips for 200 MiB. The two threads take turns, never run at once, so
// on one core each hand-off is a switch between threads; on two it is a wakeup across cores, which measured 2.6
// times slower here (virtual machines make those wakeups dear). Threads the HTTP thread starts stay on that core
// too: Qt's host-name lookup thread (a pool thread, idle between lookups, ended after 30 s unused). Linux only;
// elsewhere it does nothing.

#include <memory>

namespace upin::app {

class SameCore {
public:
    SameCore();
    ~SameCore();
    SameCore(const SameCore&) = delete;
    SameCore& operator=(const SameCore&) = delete;

private:
    struct Saved;
    std::unique_ptr<Saved> m_saved; // the thread's CPU set before, when it was changed
};

} // namespace upin::app
