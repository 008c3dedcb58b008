#pragma once
// The matcher shoot-out: times the whole parser with each matcher strategy, beside a memchr pass, on a generated
// body or on a stored body (a capture's raw body or any file). Runs on a worker thread.

#include "upin/core/bench.h"

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

namespace upin::app {

struct ShootoutRequest {
    QString path;              // a stored body; empty: generate one
    QString contentType;       // for a stored body; empty: boundary guessed from its first line
    core::BenchInput shape = core::BenchInput::Random;
    quint64 size = 64ull << 20;
    int runs = 3;
};

struct ShootoutResult {
    QString label;             // what was measured, e.g. "random, 64 MiB" or the file name
    quint64 bytes = 0;
    struct Entry {
        QString strategy;      // "memchr", "kmp", "chunked", "simd"
        double gbps = 0;
        bool ok = true;
    };
    QList<Entry> entries;
    QString error;
};

class ShootoutWorker final : public QObject {
    Q_OBJECT
public:
    void run(const upin::app::ShootoutRequest& request); // in the worker's thread
    static constexpr quint64 kMaxFileBytes = 512ull << 20; // a stored body is timed in memory, up to this much

signals:
    void finished(const upin::app::ShootoutResult& result);
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::ShootoutRequest)
Q_DECLARE_METATYPE(upin::app::ShootoutResult)
