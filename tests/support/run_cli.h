#pragma once
// Runs the real upload-inspector-cli binary, as a user's shell would, and collects what it printed.

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace upin::test {

struct CliRun {
    int exitCode;
    QByteArray out;
    QByteArray err;
};

inline CliRun runCli(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral(UPIN_CLI_PATH), arguments);
    REQUIRE(process.waitForFinished(120000));
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace upin::test
