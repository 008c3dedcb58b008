#pragma once
// Runs the real upload-inspector-cli binary, as a user's shell would, and collects what it printed.

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace upin::test {

struct CliRun {
    int exitCode;
    QByteArray out;
    QByteArray err;
};

// environment: the CLI's, when not the test's own (e.g. XDG_DATA_HOME for where its data folder is).
inline CliRun runCli(const QStringList& arguments,
                     const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(UPIN_CLI_PATH), arguments);
    REQUIRE(process.waitForFinished(120000));
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// A file in dir with exactly these bytes, for the CLI to read.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
{
    QFile file(dir.filePath(name));
    REQUIRE(file.open(QIODevice::WriteOnly));
    REQUIRE(file.write(content) == content.size());
    return file.fileName();
}

} // namespace upin::test
