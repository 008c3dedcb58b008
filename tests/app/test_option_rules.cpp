// Issue 49, item 4: the http(s) URL rule was written six times and the --cacert rule three, each a little
// different (send rewrote "htp://x" to http://htp//x; the window took any file as a CA file).

#include "common/option_rules.h"
#include "server/tls_identity.h"

#include <catch2/catch.hpp>

#include <QFile>
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
