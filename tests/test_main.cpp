// Catch2 main with a QCoreApplication, so tests may use Qt Core services (QProcess, QJsonDocument).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
