// Catch2 main with a QCoreApplication, so tests may use Qt Core services (QProcess, QJsonDocument).
#define CATCH_CONFIG_RUNNER
#include "support/test_options.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    return upin::test::runTests(argc, argv);
}
