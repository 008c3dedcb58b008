#pragma once
// State shared by the listener and its worker threads.

#include "capture/capture_store.h"
#include "listener/listener_types.h"

#include <atomic>
#include <functional>

namespace upin::app {

struct ListenerShared {
    ListenerConfig config;
    CaptureStore store;
    std::atomic<int> activeConnections{0};
    quint16 port = 0;
    ListenerShared(const ListenerConfig& c) : config(c), store(c.captureDir, c.retention) {}
};

} // namespace upin::app
