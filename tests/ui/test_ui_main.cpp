// Catch2 main with a QApplication (widgets), run offscreen.
#define CATCH_CONFIG_RUNNER
#include "support/test_options.h"

#include "bench/bench_worker.h"
#include "inspect/inspect_worker.h"

#include <QApplication>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    qRegisterMetaType<upin::app::InspectResult>();
    qRegisterMetaType<upin::app::BenchResult>();
    return upin::test::runTests(argc, argv);
}
