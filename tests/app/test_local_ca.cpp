// The proxy's certificate authority, checked by real clients: openssl reads and verifies what it makes, and curl
// uploads to a listener presenting a minted leaf, trusting only the authority.

#include "app/listener_fixture.h"
#include "proxy/ca_advice.h"
#include "proxy/local_ca.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QProcess>

using namespace upin;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
};

Run run(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    REQUIRE(process.waitForFinished(30000));
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

// openssl verify of a leaf against the authority alone, for a host name or an IP address.
Run verify(const QString& caPath, const QString& leafPath, const QString& option, const QString& name)
{
    return run("openssl", {"verify", "-CAfile", caPath, "-purpose", "sslserver", option, name, leafPath});
}

} // namespace

TEST_CASE("the proxy's authority is made once, kept the user's alone, and is an authority for leaves only",
          "[proxy][ca]")
{
    QTemporaryDir home;
    const QString folder = home.filePath("tls");
    QString error;
    const auto ca = app::LocalCa::open(folder, &error);
    REQUIRE(ca);
    CHECK(ca->madeNow());
    CHECK(ca->certificatePath() == QFileInfo(QDir(folder).filePath("proxy-ca.pem")).absoluteFilePath());
    const auto owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    CHECK((QFileInfo(QDir(folder).filePath("proxy-ca-key.pem")).permissions() &
           ~(owner | QFileDevice::ReadUser | QFileDevice::WriteUser)) == 0);
    CHECK((QFileInfo(folder).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup)) == 0);

    const Run text = run("openssl", {"x509", "-noout", "-text", "-in", ca->certificatePath()});
    REQUIRE(text.exitCode == 0);
    INFO(text.out.toStdString());
    CHECK(text.out.contains("CA:TRUE, pathlen:0"));
    CHECK(text.out.contains("Certificate Sign, CRL Sign"));
    CHECK(text.out.contains("prime256v1"));
    CHECK(text.out.contains("ecdsa-with-SHA256"));
    CHECK(text.out.contains("Subject: O = Upload Inspector, CN = Upload Inspector proxy CA"));
    CHECK_FALSE(text.out.contains("Name Constraints"));
    const qint64 days = QDateTime::currentDateTimeUtc().daysTo(ca->certificate().expiryDate());
    CHECK(days >= 3649);
    CHECK(days <= 3650);

    // Reused: a client told to trust it once keeps trusting it.
    const auto again = app::LocalCa::open(folder, &error);
    REQUIRE(again);
    CHECK_FALSE(again->madeNow());
    CHECK(again->fingerprint() == ca->fingerprint());
    // The fingerprint is the one openssl computes.
    const Run fingerprint = run("openssl", {"x509", "-noout", "-fingerprint", "-sha256", "-in", ca->certificatePath()});
    CHECK(fingerprint.out.trimmed().split('=').last() == ca->fingerprint());

    const auto replaced = app::LocalCa::regenerate(folder, &error);
    REQUIRE(replaced);
    CHECK(replaced->madeNow());
    CHECK(replaced->fingerprint() != ca->fingerprint());
    CHECK(app::LocalCa::open(folder, &error)->fingerprint() == replaced->fingerprint());
}

TEST_CASE("a leaf minted per host verifies against the authority for that host only, and is kept for its life",
          "[proxy][ca]")
{
    QTemporaryDir home;
    QString error;
    const auto ca = app::LocalCa::open(home.filePath("tls"), &error);
    REQUIRE(ca);
    for (const auto& [host, option, other] :
         {std::tuple{"upload.test", "-verify_hostname", "other.test"},
          std::tuple{"127.0.0.1", "-verify_ip", "127.0.0.2"}, std::tuple{"[::1]", "-verify_ip", "::2"}}) {
        INFO(host);
        const auto leaf = ca->leafFor(host, &error);
        REQUIRE(leaf);
        const QString name = app::certificateHostName(host);
        const QString leafPath =
            test::writeFile(home, QString(name).replace(':', '_') + ".pem", leaf->certificate.toPem());
        const Run good = verify(ca->certificatePath(), leafPath, option, name);
        INFO(good.out.toStdString());
        CHECK(good.exitCode == 0);
        CHECK(verify(ca->certificatePath(), leafPath, option, other).exitCode != 0);
        CHECK(leaf->chain.size() == 2);
        CHECK(leaf->chain.last() == ca->certificate());
        // Short-lived, and the same one while it lives.
        const qint64 days = QDateTime::currentDateTimeUtc().daysTo(leaf->certificate.expiryDate());
        CHECK(days >= app::LocalCa::kLeafValidDays - 1);
        CHECK(days <= app::LocalCa::kLeafValidDays);
        CHECK(ca->leafFor(host, &error)->certificate == leaf->certificate);
    }
    // A leaf of another authority does not verify against this one.
    QTemporaryDir elsewhere;
    const auto stranger = app::LocalCa::open(elsewhere.filePath("tls"), &error);
    REQUIRE(stranger);
    const QString strangerLeaf =
        test::writeFile(home, "stranger.pem", stranger->leafFor("upload.test", &error)->certificate.toPem());
    CHECK(verify(ca->certificatePath(), strangerLeaf, "-verify_hostname", "upload.test").exitCode != 0);
}

TEST_CASE("only host names and addresses get a leaf: nothing a client sends can add a name to it", "[proxy][ca]")
{
    CHECK(app::certificateHostName("Upload.Test.") == "upload.test");
    CHECK(app::certificateHostName("[::1]") == "::1");
    CHECK(app::certificateHostName("xn--bcher-kva.example") == "xn--bcher-kva.example");
    for (const char* bad :
         {"", "a.com,IP:1.2.3.4", "a.com, DNS:b.com", "a b", "a..b", "-a.com", "a.com/x", "a\nb", "*.example.com"})
        CHECK(app::certificateHostName(bad).isEmpty());
    CHECK(app::certificateHostName(QString(254, 'a')).isEmpty());
    QTemporaryDir home;
    QString error;
    const auto ca = app::LocalCa::open(home.filePath("tls"), &error);
    REQUIRE(ca);
    CHECK_FALSE(ca->leafFor("a.com,IP:1.2.3.4", &error));
    CHECK(error.contains("not a host name"));
}

TEST_CASE("curl trusting only the authority uploads to a listener that presents a minted leaf", "[proxy][ca][tls]")
{
    QTemporaryDir home;
    QString error;
    const auto ca = app::LocalCa::open(home.filePath("tls"), &error);
    REQUIRE(ca);
    const auto leaf = ca->leafFor("upload.test", &error);
    REQUIRE(leaf);
    app::ServerConfig config = test::tlsConfig(home.filePath("unused"));
    config.certificateFile = test::writeFile(home, "leaf.pem", leaf->certificate.toPem());
    config.keyFile = test::writeFile(home, "leaf-key.pem", leaf->key.toPem());
    config.guards.allowedHosts = {"upload.test"}; // the listener serves its own names only, as a server should
    test::ListenerFixture f(config);
    const QByteArray data = test::randomBytes(1 << 20, 5);
    const QString file = f.file("one.bin", data);
    const QString port = QString::number(f.listener.tlsPort());
    const auto r = test::curl({"--cacert", ca->certificatePath(), "--resolve", "upload.test:" + port + ":127.0.0.1",
                               "-F", "file=@" + file, "https://upload.test:" + port + "/part-event"});
    REQUIRE(r.status == 200);
    CHECK(test::partNamed(r.json, "file")["sha256"].toString().toStdString() == test::sha256(data));
    // Under another name the same leaf is refused: it names one host.
    const auto wrong = test::curl({"--cacert", ca->certificatePath(), "--resolve", "other.test:" + port + ":127.0.0.1",
                                   "https://other.test:" + port + "/discard"});
    CHECK(wrong.status == 0);
}

TEST_CASE("proxy --ca-info says where the authority is and how to trust it, --ca-regenerate replaces it only when "
          "told to",
          "[proxy][ca][cli]")
{
    QTemporaryDir data;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("XDG_DATA_HOME", data.path()); // the CLI's data folder, not the user's
    const QString pem = data.filePath("UploadInspector/tls/proxy-ca.pem");
    const auto info = test::runCli({"proxy", "--ca-info", "--port", "9099"}, environment);
    REQUIRE(info.exitCode == 0);
    const QString out = QString::fromUtf8(info.out);
    CHECK(out.contains("The proxy's certificate authority: " + pem));
    CHECK(out.contains("curl -x http://127.0.0.1:9099 --cacert " + pem));
    CHECK(out.contains("NODE_EXTRA_CA_CERTS=" + pem));
    CHECK(out.contains("certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n \"Upload Inspector proxy CA\" -i " + pem));
    auto fingerprintOf = [&] {
        return run("openssl", {"x509", "-noout", "-fingerprint", "-sha256", "-in", pem})
            .out.trimmed()
            .split('=')
            .last();
    };
    const QString first = fingerprintOf();
    CHECK(out.contains("SHA-256 " + first));
    CHECK(test::runCli({"proxy", "--ca-info"}, environment).exitCode == 0);
    CHECK(fingerprintOf() == first);                                              // kept
    const auto unasked = test::runCli({"proxy", "--ca-regenerate"}, environment); // no terminal to ask on
    CHECK(unasked.exitCode == 2);
    CHECK(unasked.err.contains("--yes"));
    CHECK(fingerprintOf() == first);
    const auto replaced = test::runCli({"proxy", "--ca-regenerate", "--yes"}, environment);
    CHECK(replaced.exitCode == 0);
    CHECK(fingerprintOf() != first);
}

TEST_CASE("the trust advice pastes into a shell: a path with a space is quoted, a plain one is not", "[proxy][ca]")
{
    const QString spaced = app::caTrustAdvice("/home/a b/ca.pem", "AB:CD", "http://127.0.0.1:8082");
    CHECK(spaced.contains("--cacert '/home/a b/ca.pem' -F"));
    CHECK(spaced.contains("NODE_EXTRA_CA_CERTS='/home/a b/ca.pem'"));
    const QString plain = app::caTrustAdvice("/home/ab/ca.pem", "AB:CD", "http://127.0.0.1:8082");
    CHECK(plain.contains("--cacert /home/ab/ca.pem -F"));
}

TEST_CASE("an authority that cannot be used is never replaced unasked: the error says how to replace it", "[proxy][ca]")
{
    QTemporaryDir home;
    const QString folder = home.filePath("tls");
    QString error;
    const auto made = app::LocalCa::open(folder, &error);
    REQUIRE(made);
    // Reopened from its files, it still signs leaves that verify.
    const auto reopened = app::LocalCa::open(folder, &error);
    REQUIRE(reopened);
    const QString leafPath =
        test::writeFile(home, "leaf.pem", reopened->leafFor("upload.test", &error)->certificate.toPem());
    CHECK(verify(reopened->certificatePath(), leafPath, "-verify_hostname", "upload.test").exitCode == 0);

    QFile damaged(made->certificatePath());
    REQUIRE(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write("not a certificate\n");
    damaged.close();
    CHECK_FALSE(app::LocalCa::open(folder, &error));
    CHECK(error.contains("--ca-regenerate"));
    QFile kept(made->certificatePath());
    REQUIRE(kept.open(QIODevice::ReadOnly));
    CHECK(kept.readAll() == "not a certificate\n"); // left for the user to decide
    const auto replaced = app::LocalCa::regenerate(folder, &error);
    REQUIRE(replaced);
    CHECK(app::LocalCa::open(folder, &error)->fingerprint() == replaced->fingerprint());
}
