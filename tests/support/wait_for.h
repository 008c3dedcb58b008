#pragma once
// Waiting for an event in a Catch2 test. Qt's QTRY_* macros report a timeout to QTest's own results and `return`,
// which Catch never sees: a test whose wait timed out passed, the checks after it never run. UPIN_WAIT_FOR waits
// the same way (the event loop turns until the condition holds, checked as events come) and fails through Catch,
// saying what it waited for.

#include <catch2/catch.hpp>

#include <QTest>

#define UPIN_WAIT_FOR(condition, timeoutMs)                                                                            \
    do {                                                                                                               \
        INFO("waited " << (timeoutMs) << " ms for " #condition);                                                       \
        REQUIRE(QTest::qWaitFor([&] { return bool(condition); }, (timeoutMs)));                                        \
    } while (false)
