#pragma once
// The Node peers (tests/peers/node) need packages from the npm registry that scripts/install-deps installs with
// `npm ci`. A build made with CMake alone has none: a test that needs them fails saying what to run, not with
// Node's stack trace.

#include <catch2/catch.hpp>

#include <QDir>
#include <QString>

namespace upin::test {

inline void requireNodePackage(const QString& package)
{
    const QString folder = QStringLiteral(UPIN_TESTS_DIR "/peers/node/node_modules/") + package;
    if (!QDir(folder).exists())
        FAIL("the npm package " << package.toStdString() << " is not installed (" << folder.toStdString()
                                << "): run scripts/install-deps, which runs `npm ci` in tests/peers/node");
}

} // namespace upin::test
