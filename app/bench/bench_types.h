#pragma once
// What the matcher bench is asked to time, and what it found. Owned values.

#include "upin/core/bench.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace upin::app {

struct BenchRequest {
    QString path;        // a stored body; empty: generate one
    QString contentType; // for a stored body; empty: boundary guessed from its first line
    core::BenchInput shape = core::BenchInput::Random;
    quint64 size = 64ull << 20;
    int runs = 3;
};

struct BenchResult {
    QString label; // what was measured, e.g. "random, 64 MiB" or the file name
    quint64 bytes = 0;
    struct Entry {
        QString strategy; // "memchr", "kmp", "chunked", "simd"
        double gbps = 0;
        bool ok = true;
    };
    QList<Entry> entries;
    QString error;
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::BenchRequest)
Q_DECLARE_METATYPE(upin::app::BenchResult)
