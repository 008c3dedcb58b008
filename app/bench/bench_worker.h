#pragma once
// The matcher bench: times the whole parser with each matcher strategy, beside a memchr pass, on a generated
// body or on a stored body (a capture's raw body or any file). Runs on a worker thread.

#include "bench/bench_types.h"

#include <QObject>

namespace upin::app {

class BenchWorker final : public QObject {
    Q_OBJECT
public:
    void run(const upin::app::BenchRequest& request);      // in the worker's thread
    static constexpr quint64 kMaxFileBytes = 512ull << 20; // a stored body is timed in memory, up to this much

signals:
    void finished(const upin::app::BenchResult& result);
};

} // namespace upin::app
