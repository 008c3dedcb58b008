// The CLI on a terminal: send, compare and parse show one line of progress on stderr that rewrites itself, as curl
// does, and nothing of it when stderr is not a terminal, with --silent, or on stdout. The terminal is a real
// pseudo-terminal: util-linux's script(1) runs the command on one and copies what it printed.

#include "app/listener_fixture.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QTemporaryDir>

using upin::test::ListenerFixture;
using upin::test::runCli;

namespace {

// Erase to the end of the line: what a progress line ends with (a terminal also shows each newline as CR LF).
const QByteArray kErase = "\033[K";

QString shellQuoted(const QString& word)
{
    return QLatin1Char('\'') + QString(word).replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
}

// What a terminal shows of `upload-inspector-cli ARGUMENTS` (stdout and stderr together, as a terminal has them);
// stdout alone goes to outFile when given.
QByteArray onTerminal(const QStringList& arguments, const QString& outFile = {})
{
    QString command = shellQuoted(QStringLiteral(UPIN_CLI_PATH));
    for (const QString& argument : arguments)
        command += QLatin1Char(' ') + shellQuoted(argument);
    if (!outFile.isEmpty())
        command += QStringLiteral(" > ") + shellQuoted(outFile);
    QProcess script;
    script.start(QStringLiteral("script"), {QStringLiteral("-qec"), command, QStringLiteral("/dev/null")});
    REQUIRE(script.waitForFinished(120000));
    return script.readAllStandardOutput();
}

} // namespace

TEST_CASE("send, compare and parse show a progress line on a terminal, and nowhere else", "[cli][progress]")
{
    ListenerFixture f;
    QTemporaryDir dir;
    const QStringList send{"send", "--synthetic", "big=1G", "--no-hash", f.url("/discard")};
    SECTION("send on a terminal: the line rewrites itself with percent, bytes, rate and time left, then is wiped")
    {
        const QByteArray shown = onTerminal(send);
        INFO(shown.left(2000).toStdString());
        CHECK(shown.contains("\rrun 1/1  "));
        CHECK(shown.contains("% "));
        CHECK(shown.contains(" of 1.00 GiB"));
        CHECK(shown.contains(" MB/s"));
        CHECK(shown.contains(" left"));
        CHECK(shown.contains("\r\033[Krun 1  ")); // wiped before the run's own line
    }
    SECTION("compare names the target of each run")
    {
        const QByteArray shown = onTerminal({"compare", "--synthetic", "big=200M", "--no-hash", "--target",
                                             f.url("/discard"), "--target", f.url("/part-event")});
        CHECK(shown.contains("run 1/1 to " + f.url("/part-event").toUtf8()));
    }
    SECTION("stdout stays clean on a terminal; --silent and a pipe show nothing")
    {
        const QString out = dir.filePath("runs.json");
        const QByteArray shown = onTerminal(send + QStringList{"--json"}, out);
        CHECK(shown.contains("% ")); // on the terminal, from stderr
        QFile json(out);
        REQUIRE(json.open(QIODevice::ReadOnly));
        CHECK_FALSE(json.readAll().contains(kErase));
        CHECK_FALSE(onTerminal(send + QStringList{"--silent"}).contains(kErase));
        const auto piped = runCli(send);
        CHECK(piped.exitCode == 0);
        CHECK_FALSE(piped.err.contains(kErase));
        CHECK_FALSE(piped.out.contains(kErase));
    }
    SECTION("parse of a large body")
    {
        QFile body(dir.filePath("big.body"));
        REQUIRE(body.open(QIODevice::WriteOnly));
        body.write("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n");
        const QByteArray block(1 << 20, 'x');
        for (int i = 0; i < 200; ++i)
            body.write(block);
        body.write("\r\n--b--\r\n");
        body.close();
        const QByteArray shown = onTerminal({"parse", body.fileName()});
        CHECK(shown.contains("\rparsing big.body  "));
        CHECK(shown.contains("ok"));
    }
}
