// Issue 49, item 4: the http(s) URL rule was written six times and the --cacert rule three, each a little
// different (send rewrote "htp://x" to http://htp//x; the window took any file as a CA file).

#include "common/option_rules.h"
#include "probe/probe_settings.h"
#include "tls/tls_identity.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

using namespace upin;

TEST_CASE("one http(s) URL rule: no scheme is http, another scheme or a typo is refused, not rewritten",
          "[app][options]")
{
    QUrl url;
    CHECK(app::checkHttpUrl(" https://example.com:8443/up ", &url).isEmpty());
    CHECK(url == QUrl("https://example.com:8443/up"));
    CHECK(app::checkHttpUrl("127.0.0.1:9000/up", &url).isEmpty());
    CHECK(url == QUrl("http://127.0.0.1:9000/up"));
    CHECK(app::checkHttpUrl("localhost:8080", &url).isEmpty());
    CHECK(url == QUrl("http://localhost:8080"));
    const QUrl kept = url;
    for (const char* wrong : {"", "   ", "htp://x/up", "ftp://x/up", "http://", "https:///path", "file:///etc/passwd",
                              "http://exa mple.com/"}) {
        INFO(wrong);
        CHECK(app::checkHttpUrl(wrong, &url) == "give an http:// or https:// URL");
        CHECK(url == kept); // what is refused is not handed on
    }
}

TEST_CASE("one CA file rule: none is fine, a missing file or one without a certificate is refused", "[app][options]")
{
    QTemporaryDir dir;
    CHECK(app::checkCaFile({}).isEmpty());
    CHECK(app::checkCaFile(dir.filePath("missing.pem")) == "no such file");
    QFile text(dir.filePath("notes.pem"));
    REQUIRE(text.open(QIODevice::WriteOnly));
    text.write("not a certificate\n");
    text.close();
    CHECK(app::checkCaFile(text.fileName()) == "no PEM certificate could be read in it");
    QString error;
    const auto identity = app::localTlsIdentity(dir.filePath("tls"), &error);
    REQUIRE(identity);
    CHECK(app::checkCaFile(identity->certificatePath).isEmpty());
}

TEST_CASE("one port rule: 0 to 65535, and listen and forward refuse a port past it instead of wrapping it",
          "[app][options]")
{
    quint16 port = 1;
    CHECK(app::checkPort("0", &port).isEmpty());
    CHECK(port == 0);
    CHECK(app::checkPort("65535", &port).isEmpty());
    CHECK(port == 65535);
    for (const char* wrong : {"65536", "70000", "-1", "80x", ""})
        CHECK(app::checkPort(wrong) == "give a port from 0 to 65535 (0: any free one)");
    // 70000 was taken as 4464, its remainder, and a listener started there.
    const QList<QStringList> commands{{"listen", "--port", "70000"},
                                      {"listen", "--port", "0", "--tls", "--tls-port", "70000"},
                                      {"forward", "http://127.0.0.1:9", "--port", "70000"},
                                      {"proxy", "--ca-info", "--port", "70000"}};
    for (const QStringList& arguments : commands) {
        QProcess cli;
        cli.start(QStringLiteral(UPIN_CLI_PATH), arguments);
        REQUIRE(cli.waitForFinished(10000));
        INFO(arguments.join(' ').toStdString());
        CHECK(cli.exitCode() == 2);
        // The command says which value and why, in the rule's words, as the window does.
        CHECK(cli.readAllStandardError().contains("port '70000': give a port from 0 to 65535 (0: any free one)"));
    }
}

TEST_CASE("one seconds rule: 1 ms to a day, for the guards' deadlines and forward's upstream timeouts alike",
          "[app][options]")
{
    int ms = 0;
    CHECK(app::checkSeconds("2.5", &ms).isEmpty());
    CHECK(ms == 2500);
    CHECK(app::checkSeconds("10s", &ms).isEmpty());
    CHECK(ms == 10000);
    for (const char* wrong : {"3e6", "inf", "nan", "0", "0.0005", "-1", "x"})
        CHECK(app::checkSeconds(wrong) == "give seconds from 0.001 to 86400 (a day)");
    // 3e6 s overflowed the int of milliseconds (UBSan said so) and the forwarder exited 1.
    for (const char* option : {"--upstream-timeout", "--connect-timeout", "--head-timeout"}) {
        QProcess cli;
        cli.start(QStringLiteral(UPIN_CLI_PATH), {"forward", "http://127.0.0.1:9", option, "3e6"});
        REQUIRE(cli.waitForFinished(10000));
        INFO(option);
        CHECK(cli.exitCode() == 2);
        CHECK(cli.readAllStandardError().contains(
            QStringLiteral("%1 '3e6': give seconds from 0.001 to 86400 (a day)").arg(QLatin1String(option)).toUtf8()));
    }
}

TEST_CASE("one set of probe rules, which the command line and the Probe tab name each in their own words",
          "[app][options][probe]")
{
    CHECK_FALSE(app::checkProbeSettings(app::ProbeSettings{}));
    auto problem = [](auto change) {
        app::ProbeSettings s;
        change(s);
        const auto found = app::checkProbeSettings(s);
        REQUIRE(found);
        return *found;
    };
    CHECK(problem([](auto& s) { s.field = " "; }).setting == app::ProbeSetting::Field);
    CHECK(problem([](auto& s) { s.method = "GET"; }).why == "an upload is sent with POST, PUT or PATCH");
    CHECK(problem([](auto& s) { s.size = 0; }).setting == app::ProbeSetting::Size);
    CHECK(problem([](auto& s) { s.maxBytes = 0; }).setting == app::ProbeSetting::MaxBytes);
    CHECK(problem([](auto& s) { s.maxSeconds = -1; }).setting == app::ProbeSetting::MaxSeconds);
    CHECK(problem([](auto& s) { s.shapes = {"plain", "plain"}; }).why == "'plain' is named twice");
    CHECK(problem([](auto& s) { s.shapes = {"square"}; }).why.startsWith("no shape 'square' (plain,random,"));
    CHECK(problem([](auto& s) { s.shapes.clear(); }).why.startsWith("choose at least one"));
    CHECK(problem([](auto& s) { s.caCertificates = "/nonexistent/ca.pem"; }).why == "no such file");
}

TEST_CASE("a wrong value is refused in one shape by every command: the command, the option, the value quoted, the "
          "rule's words",
          "[app][options]")
{
    const QList<std::pair<QStringList, QString>> cases{
        {{"listen", "--hash", "md5"}, "listen: --hash 'md5': give sha256, xxh3 or none\n"},
        {{"listen", "--max-parts", "0"}, "listen: --max-parts '0': give a positive number\n"},
        {{"parse", "--max-body", "lots", "/etc/hosts"},
         "parse: --max-body 'lots': give a size such as 512K, 4M or 2G\n"},
        {{"listen", "--bind", "nope"}, "listen: --bind 'nope': give an IP address (127.0.0.1, ::1, 0.0.0.0)\n"},
        {{"listen", "--keep", "0"}, "listen: --keep '0': give a number of captures, 1 or more\n"},
        {{"listen", "--allow-origin", "localhost:3000"},
         "listen: --allow-origin 'localhost:3000': give web origins such as http://localhost:3000 (no path), null "
         "or *\n"},
        {{"forward", "http://127.0.0.1:9", "--cacert", "/nonexistent"},
         "forward: --cacert '/nonexistent': no such file\n"},
        {{"send", "http://127.0.0.1:9", "-F", "a=b", "--cacert", "/nonexistent"},
         "send: --cacert '/nonexistent': no such file\n"},
        {{"proxy", "--min-body-rate", "1P"},
         "proxy: --min-body-rate '1P': give bytes per second up to 1T, such as 512 or 4K (0 turns it off)\n"}};
    for (const auto& [arguments, expected] : cases) {
        QProcess cli;
        cli.start(QStringLiteral(UPIN_CLI_PATH), arguments);
        REQUIRE(cli.waitForFinished(10000));
        INFO(arguments.join(' ').toStdString());
        CHECK(cli.exitCode() == 2);
        CHECK(QString::fromUtf8(cli.readAllStandardError()) == expected);
    }
}
