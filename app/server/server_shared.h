#pragma once
// State shared by the server (modes/server.h) and its worker threads, in every mode.

#include "capture/capture_store.h"
#include "server/server_config.h"

#include "proxy/local_ca.h"
#include "tls/tls_identity.h"

#include "upin/core/part_pipeline.h"

#include <QSslConfiguration>

#include <atomic>
#include <functional>
#include <list>
#include <mutex>

namespace upin::app {

// Connections that hold a slot while doing nothing, oldest first, across all worker threads and every mode:
// kept-alive connections waiting for their next request (listed by their ClientSide), and a proxy's quiet tunnels
// passed through (listed by their Relay). When every slot is taken, a new client gets the slot of the oldest of
// them (closed on its own thread) instead of a 503.
class WaitingConnections {
public:
    // close runs on the connection's thread, queued; it is dropped if the connection is gone by then.
    void add(QObject* connection, std::function<void()> close);
    void remove(QObject* connection);
    bool closeOldest(); // false when none is idle

private:
    struct Waiting {
        QObject* connection;
        std::function<void()> close;
    };
    std::mutex m_mutex;
    std::list<Waiting> m_connections;
};

// A client's socket as the accept thread hands it to a worker, with its slot already decided there: taken on the
// workers' threads, a later client whose worker was less busy could take the last slot before an earlier one.
struct AcceptedSocket {
    qintptr descriptor = -1;
    bool tls = false;     // from the TLS port
    bool admitted = true; // holds a slot; false: every slot taken, answered 503 (it still counts until it ends)
};

struct ServerShared {
    ServerConfig config;
    CaptureStore store;
    std::atomic<int> activeConnections{0};    // holding a slot: all but those lingering after their answer
    std::atomic<int> lingeringConnections{0}; // reading and dropping the rest of a refused body
    WaitingConnections waiting;
    // Read blocks the connections may hold beyond one each while their uploads' pipelines catch up: 16 MiB in all,
    // so that many uploads at once do not hold 4 MiB each (64 blocks of 256 KiB; forward mode's are 1 MiB: 16).
    std::shared_ptr<core::BlockBudget> readBlocks;
    quint16 port = 0;
    quint16 tlsPort = 0;
    std::optional<TlsIdentity> tlsIdentity;   // with --tls
    QSslConfiguration tlsConfiguration;       // the server side of every TLS connection
    std::atomic<int> tlsHandshakeFailures{0}; // since the listener started
    std::shared_ptr<LocalCa> proxyCa;         // a proxy's: it signs the certificate each tunnel presents
    // On the accept thread, in the order clients came. Every slot taken: the longest-waiting kept-alive connection
    // gives its own (closed on its own thread), else false. Either way the client counts until its ClientSide ends.
    bool takeSlot() { return ++activeConnections <= config.maxConnections || waiting.closeOldest(); }
    ServerShared(const ServerConfig& c)
        : config(c), store(c.captureDir, c.retention),
          readBlocks(std::make_shared<core::BlockBudget>(c.forward ? 16 : 64))
    {}
};

} // namespace upin::app
