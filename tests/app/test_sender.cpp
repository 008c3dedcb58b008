// The sender against the real listener on 127.0.0.1, and "copy as curl" run through a real shell and curl.

#include "app/forward_fixture.h"
#include "app/plan_parts.h"
#include "sender/run_report.h"
#include "sender/sender.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QThread>

using namespace upin;
using app::PlanPart;
using app::RunResult;
using app::UploadPlan;
using test::field;
using test::filePart;
using test::ListenerFixture;
using test::SenderThread;
using test::synthetic;

TEST_CASE("send files, fields and synthetic parts: every hash matches what the listener received", "[sender]")
{
    // With either hash: the sender names its hash (Upload-Inspector-Hash), and the listener uses the same.
    const core::HashKind hash = GENERATE(core::HashKind::Sha256, core::HashKind::Xxh3);
    INFO("hash " << core::kHashNames.name(hash));
    ListenerFixture f;
    const QByteArray data = test::randomBytes(3 << 20, 11);
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/file-part"))};
    plan.parts = {filePart("doc", f.file("doc.bin", data)),
                  field("note", "a \"quoted\" value"),
                  filePart("typed", f.file("t.txt", "text"), "text/plain", "renamed.txt"),
                  synthetic("zeros", 100000, PlanPart::Fill::Zero),
                  synthetic("pattern", 99999, PlanPart::Fill::Pattern),
                  filePart("empty", f.file("e.dat", ""))};
    plan.runs = 2;
    plan.hash = hash;
    using Engine = UploadPlan::Engine;
    for (auto [engine, chunked] :
         {std::pair{Engine::Qnam, false}, std::pair{Engine::Raw, false}, std::pair{Engine::Raw, true}}) {
        plan.engine = engine;
        plan.chunked = chunked;
        plan.expectContinue = chunked;
        SenderThread s;
        auto results = s.run(plan);
        REQUIRE(results.size() == 2);
        for (const auto& r : results) {
            INFO("engine " << int(engine) << " chunked " << chunked << " run " << r.run << " error "
                           << r.error.toStdString());
            CHECK(r.httpStatus == 200);
            CHECK(r.integrityOk());
            REQUIRE(r.parts.size() == 6);
            CHECK(r.hash == hash);
            CHECK(r.parts[0].sentDigest.toStdString() == test::digest(hash, data));
            CHECK(r.parts[0].receivedDigest == r.parts[0].sentDigest);
            CHECK(r.totalSeconds >= r.lastByteSeconds);
            CHECK(r.bytesSent == r.bodyBytes);
            CHECK_FALSE(r.upload.isEmpty());
            QJsonObject answer = QJsonDocument::fromJson(r.response).object();
            CHECK(answer["framing"].toString() == (chunked ? "chunked" : "content-length"));
            CHECK(answer["parts"].toArray()[2].toObject()["filename"].toString() == "renamed.txt");
            CHECK(answer["parts"].toArray()[2].toObject()["content_type"].toString() == "text/plain");
        }
    }
}

TEST_CASE("progress is reported a few times a second, the last report the whole body", "[sender]")
{
    // A window redraws a few times a second; one report per socket write (QNAM's every 16 KiB) would queue
    // thousands of events on its thread and wake it for each.
    auto engine = GENERATE(UploadPlan::Engine::Qnam, UploadPlan::Engine::Raw);
    INFO("engine " << int(engine));
    ListenerFixture f;
    UploadPlan plan;
    plan.engine = engine;
    plan.targets = {QUrl(f.url("/discard"))};
    plan.parts = {synthetic("big", 64u << 20)};
    plan.hash = core::HashKind::None;
    SenderThread s;
    int reports = 0;
    quint64 lastSent = 0;
    quint64 lastTotal = 0;
    QObject::connect(s.sender, &app::Sender::progress, s.sender, [&](int, int, quint64 sent, quint64 total) {
        ++reports; // in the sender's thread, read after it has finished
        lastSent = sent;
        lastTotal = total;
    });
    const auto results = s.run(plan);
    REQUIRE(results.size() == 1);
    const RunResult& r = results[0];
    REQUIRE(r.httpStatus == 200);
    CHECK(lastSent == r.bodyBytes);
    CHECK(lastTotal == r.bodyBytes);
    CHECK(r.bytesSent == r.bodyBytes);
    CHECK(reports >= 1);
    CHECK(reports <= int(r.totalSeconds * 1000 / 50) + 2); // one per 50 ms and the last
}

TEST_CASE("a redirect is reported, not followed, by either engine", "[sender]")
{
    // QNAM followed a 302 with a GET to the Location and reported that answer; on a 307 it tried to send the body
    // again from a device that cannot rewind. curl and the raw client report the redirect.
    auto engine = GENERATE(UploadPlan::Engine::Qnam, UploadPlan::Engine::Raw);
    test::PythonServer server({UPIN_TESTS_DIR "/app/probe_servers.py", "redirect"});
    for (auto [path, status] : {std::pair{"/upload", 302}, std::pair{"/temp", 307}}) {
        INFO("engine " << int(engine) << " " << path);
        UploadPlan plan;
        plan.engine = engine;
        plan.targets = {QUrl(server.url() + path)};
        plan.parts = {synthetic("data", 100000)};
        SenderThread s;
        const auto results = s.run(plan);
        REQUIRE(results.size() == 1);
        CHECK(results[0].httpStatus == status);
        CHECK(results[0].target == plan.targets.first());
        CHECK(results[0].bytesSent == results[0].bodyBytes);
    }
}

TEST_CASE("a 1 GiB synthetic part arrives with its hash matching", "[sender][big]")
{
    ListenerFixture f;
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/part-event"))};
    plan.parts = {synthetic("big", 1ull << 30), field("after", "the end")};
    SenderThread s;
    auto results = s.run(plan, 600000);
    REQUIRE(results.size() == 1);
    CHECK(results[0].httpStatus == 200);
    CHECK(results[0].integrityOk());
    CHECK(results[0].parts[0].size == 1ull << 30);
}

TEST_CASE("a cancelled upload leaves the listener healthy and the capture incomplete", "[sender][faults]")
{
    auto engine = GENERATE(UploadPlan::Engine::Qnam, UploadPlan::Engine::Raw);
    ListenerFixture f;
    UploadPlan plan;
    plan.engine = engine;
    plan.targets = {QUrl(f.url("/file-part"))};
    plan.parts = {synthetic("big", 4ull << 30)};
    SenderThread s;
    QSignalSpy done(s.sender, &app::Sender::finished);
    QObject::connect(s.sender, &app::Sender::progress, s.sender, [&](int, int, quint64 sent, quint64) {
        if (sent > (20u << 20))
            s.sender->cancel(); // runs in the sender's thread
    });
    QMetaObject::invokeMethod(
        s.sender, [sender = s.sender, plan] { sender->start(plan); }, Qt::QueuedConnection);
    REQUIRE(test::signalled(done, 60000));
    auto results = done.first().first().value<QList<RunResult>>();
    REQUIRE(results.size() == 1);
    CHECK(results[0].cancelled);
    QThread::msleep(500);
    QStringList captures = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
    REQUIRE(captures.size() == 1);
    QFile json(QDir(QDir(f.listener.captureRoot()).filePath(captures.first())).filePath("capture.json"));
    REQUIRE(json.open(QIODevice::ReadOnly));
    CHECK(QJsonDocument::fromJson(json.readAll()).object()["state"].toString() == "incomplete");
    auto again = test::curl({"-F", "x=@" + f.file("x.txt", "ok"), f.url("/part-event")});
    CHECK(again.status == 200);
}

TEST_CASE("a server that accepts and then neither reads nor answers ends the run after the stall timeout",
          "[sender][faults]")
{
    auto engine = GENERATE(UploadPlan::Engine::Qnam, UploadPlan::Engine::Raw);
    auto size = GENERATE(quint64{1} << 10, quint64{64} << 20); // the body sent whole, or stuck in the kernels
    INFO("engine " << int(engine) << ", " << size << " bytes");
    // The kernel completes the connection from the listen backlog: nothing ever accepts, reads or answers it.
    const int server = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(server >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(server, 4) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(server, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    UploadPlan plan;
    plan.engine = engine;
    plan.targets = {QUrl(QStringLiteral("http://127.0.0.1:%1/upload").arg(ntohs(address.sin_port)))};
    plan.parts = {synthetic("big", size)};
    plan.stallTimeoutMs = 500;
    SenderThread s;
    quint64 lastReported = 0;
    QObject::connect(s.sender, &app::Sender::progress, s.sender,
                     [&](int, int, quint64 sent, quint64) { lastReported = sent; }); // read after the run
    QElapsedTimer clock;
    clock.start();
    const auto results = s.run(plan, 30000);
    ::close(server);
    REQUIRE(results.size() == 1);
    CHECK(results[0].httpStatus == 0);
    // Where it stalled is reported and sampled, though it came within the throttle's interval of the report before.
    CHECK(lastReported == results[0].bytesSent);
    if (results[0].bytesSent > 0) {
        REQUIRE_FALSE(results[0].upload.isEmpty());
        CHECK(results[0].upload.last().bytes == results[0].bytesSent);
    }
    INFO(results[0].error.toStdString());
    CHECK(results[0].error.startsWith("no progress for 0.5 s"));
    CHECK(clock.elapsed() < 10000);
}

TEST_CASE("copy as curl sends the same parts as the plan", "[sender][curl]")
{
    ListenerFixture f;
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/part-event"))};
    plan.parts = {filePart("photo", f.file("it's a photo.jpg", test::randomBytes(200000, 12)), "image/jpeg"),
                  filePart("doc", f.file("d.txt", "doc"), "text/plain", "other name.txt"),
                  field("quote", "it's \"quoted\" $HOME `x`"), field("at", "@not-a-file"),
                  // names a client chose: ';' and ',' would split curl's -F spec unless quoted
                  filePart("odd", f.file("semi;colon,comma.txt", "odd"), "text/plain; charset=utf-8", "a;b,c.txt")};
    PlanPart typedField = field("typed", "a;b \"c\" \\ d");
    typedField.contentType = "text/x-note";
    PlanPart fromFile; // a field whose value is a file's content (curl's -F name=<path)
    fromFile.kind = PlanPart::Kind::FieldFile;
    fromFile.name = "long";
    fromFile.path = f.file("long value.txt", QByteArray(70000, 'v'));
    PlanPart encoded = filePart("encoded", f.file("e.b64", "aGVsbG8="), "application/octet-stream");
    encoded.transferEncoding = "base64"; // sent again as captured: still encoded, and saying so
    plan.parts << typedField << fromFile << encoded;
    // Synthetic parts are generated by the shell into temporary files: zeros and the pattern byte for byte.
    plan.parts << synthetic("zeros", 100000, PlanPart::Fill::Zero)
               << synthetic("pattern", 99999, PlanPart::Fill::Pattern);
    plan.headers = {{"X-Test", "yes it's set"}};
    SenderThread s;
    auto sent = s.run(plan);
    REQUIRE(sent.size() == 1);
    REQUIRE(sent[0].integrityOk());
    QProcess shell;
    shell.start("sh", {"-c", plan.toCurl() + " -s"});
    REQUIRE(shell.waitForFinished(30000));
    QJsonArray viaCurl = QJsonDocument::fromJson(shell.readAllStandardOutput()).object()["parts"].toArray();
    QJsonArray viaSender = QJsonDocument::fromJson(sent[0].response).object()["parts"].toArray();
    REQUIRE(viaCurl.size() == viaSender.size());
    for (qsizetype i = 0; i < viaCurl.size(); ++i) {
        INFO("part " << i);
        for (const char* key : {"name", "filename", "content_type", "sha256", "size", "transfer_encoding"})
            CHECK(viaCurl[i].toObject()[key] == viaSender[i].toObject()[key]);
    }
    const QJsonObject answer{{"parts", viaCurl}};
    CHECK(test::partNamed(answer, "odd")["filename"].toString() == "a;b,c.txt");
    CHECK(test::partNamed(answer, "odd")["content_type"].toString() == "text/plain; charset=utf-8");
    CHECK(test::partNamed(answer, "typed")["content_type"].toString() == "text/x-note");
    CHECK(test::partNamed(answer, "typed")["sha256"].toString().toStdString() == test::sha256("a;b \"c\" \\ d"));
    CHECK(test::partNamed(answer, "long")["filename"].isNull()); // a field, though its value came from a file
    CHECK(test::partNamed(answer, "long")["size"].toInteger() == 70000);
    CHECK(test::partNamed(answer, "encoded")["transfer_encoding"].toString() == "base64");
}

TEST_CASE("a curl command says above itself which field names curl -F cannot send", "[sender]")
{
    ListenerFixture f;
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/part-event"))};
    plan.parts = {field("a=b", "V"), field("say \"hi\"", "W"), field("plain", "X")};
    const QStringList lines = plan.toCurl().split('\n');
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "# curl -F cannot name a field 'a=b': a name ends at its first '=', so this sends it as 'a'");
    CHECK(lines[1].startsWith("# curl -F sends '\"', CR and LF in a name as %22, %0D and %0A: the field 'say \"hi\"'"));
    CHECK(lines[2].startsWith("curl "));
    QProcess shell; // the notes are comments: the command still runs, and the names arrive as the notes say
    shell.start("sh", {"-c", plan.toCurl() + " -s"});
    REQUIRE(shell.waitForFinished(30000));
    const QJsonObject answer = QJsonDocument::fromJson(shell.readAllStandardOutput()).object();
    CHECK(test::partNamed(answer, "a")["size"].toInteger() == 3); // "b=V"
    CHECK(test::partNamed(answer, "say %22hi%22")["size"].toInteger() == 1);
    CHECK(test::partNamed(answer, "plain")["size"].toInteger() == 1);
    // A name is the client's: a line break in it must not end the comment and start a command.
    const QString owned = f.dir.filePath("owned");
    plan.parts = {field("a=\ntouch " + owned + " #", "V"), field("b\r\u2028\x1b[2J", "W")};
    const QStringList hostile = plan.toCurl().split('\n');
    REQUIRE(hostile.size() >= 3); // the command holds the names' line breaks too, inside its quotes
    CHECK(hostile[0] == "# curl -F cannot name a field 'a=\\x0atouch " + owned +
                            " #': a name ends at its first '=', so this sends it as 'a'");
    CHECK(hostile[1].endsWith("the field 'b\\x0d\\u2028\\x1b[2J' arrives under another name"));
    CHECK(hostile[2].startsWith("curl "));
    QProcess run;
    run.start("sh", {"-c", plan.toCurl() + " -s -o /dev/null"});
    REQUIRE(run.waitForFinished(30000));
    CHECK(run.exitCode() == 0);
    CHECK_FALSE(QFile::exists(owned));
}

TEST_CASE("plans round-trip through JSON, and curl -F specs parse", "[sender]")
{
    UploadPlan plan;
    plan.targets = {QUrl("http://127.0.0.1:8080/file-part"), QUrl("http://example.test/upload")};
    plan.parts = {field("a", "b"), synthetic("s", 1234, PlanPart::Fill::Pattern),
                  filePart("f", "/tmp/x", "text/plain", "y.txt")};
    plan.parts.last().transferEncoding = "quoted-printable";
    plan.headers = {{"X-A", "1"}, {"X-Off", "2", false}};
    plan.method = "PATCH";
    plan.chunked = true;
    plan.runs = 3;
    plan.hash = core::HashKind::None;
    plan.engine = UploadPlan::Engine::Qnam;
    plan.stallTimeoutMs = 2500;
    auto back = UploadPlan::fromJson(plan.toJson());
    REQUIRE(back.has_value());
    CHECK(back->toJson() == plan.toJson());
    QString error;
    CHECK_FALSE(app::parseFormSpec("novalue", &error).has_value());
    CHECK_FALSE(app::parseFormSpec("f=@/definitely/missing", &error).has_value());
    CHECK(error.endsWith("no such file"));
    CHECK_FALSE(app::parseFormSpec("f=@/dev/null", &error).has_value()); // it exists, but has no size to send
    CHECK(error == "-F 'f=@/dev/null': not a regular file (a device, pipe or folder)");
    CHECK(app::parseFormSpec("f=plain", &error)->value == "plain");
    // What Copy as curl writes for an encoded part reads back (send -F takes curl's spec).
    CHECK(app::parseFormSpec(R"(f=@/etc/os-release;headers="Content-Transfer-Encoding: base64")", &error)
              ->transferEncoding == "base64");
    CHECK_FALSE(app::parseFormSpec(R"(f=@/etc/os-release;headers="X-Other: 1")", &error).has_value());
    // A plan file's content type cannot split the part's head or smuggle curl options into Copy as curl.
    for (const char* type : {"text/plain\r\nX-Injected: 1", "text/plain;headers=@/etc/passwd"}) {
        QJsonObject json = plan.toJson();
        QJsonArray parts = json["parts"].toArray();
        QJsonObject first = parts[0].toObject();
        first["content_type"] = type;
        parts[0] = first;
        json["parts"] = parts;
        CHECK_FALSE(UploadPlan::fromJson(json).has_value());
    }
    // As curl reads -F fields (review of issue 14: the type went into the value)
    const auto typed = app::parseFormSpec(R"(j={"a":1};type=application/json)", &error);
    CHECK(typed->value == R"({"a":1})");
    CHECK(typed->contentType == "application/json");
    const auto quoted = app::parseFormSpec(R"(q="a;b \"c\"";type=text/plain)", &error);
    CHECK(quoted->value == R"(a;b "c")");
    CHECK(quoted->contentType == "text/plain");
    CHECK(app::parseFormSpec("f=a;b", &error)->value == "a;b"); // no ;type=: all value
    CHECK(app::parseSyntheticSpec("big=1G:zero", &error)->size == 1ull << 30);
    CHECK_FALSE(app::parseSyntheticSpec("big=lots", &error).has_value());
}

TEST_CASE("PUT and PATCH with Bearer or Basic auth and a CSRF header reach a Flask server, from both engines and "
          "from Copy as curl",
          "[sender][method][flask]")
{
    const test::FlaskUpload flask;
    const quint16 port = flask.port;
    ListenerFixture f; // for its files
    const QByteArray photo = test::randomBytes(300000, 21);
    UploadPlan plan;
    plan.targets = {QUrl(QStringLiteral("http://127.0.0.1:%1/upload").arg(port))};
    plan.parts = {filePart("photo", f.file("photo.jpg", photo), "image/jpeg"), field("title", "holiday")};
    plan.hash = core::HashKind::None; // not our listener: nothing to check a digest against
    SenderThread s;
    auto answerOf = [](const RunResult& r) { return QJsonDocument::fromJson(r.response).object(); };
    for (auto engine : {UploadPlan::Engine::Raw, UploadPlan::Engine::Qnam}) {
        INFO(int(engine));
        plan.engine = engine;
        plan.method = "PUT";
        plan.headers = {{"Authorization", "Bearer s3cret"}, {"X-CSRF-Token", "tok"}, {"X-Off", "no", false}};
        auto runs = s.run(plan);
        REQUIRE(runs.size() == 1);
        CHECK(runs[0].httpStatus == 200);
        const QJsonObject answer = answerOf(runs[0]);
        CHECK(answer["method"] == "PUT");
        CHECK(answer["auth"] == "Bearer");
        CHECK(answer["form"].toObject()["title"] == "holiday");
        CHECK(answer["files"].toObject()["photo"].toObject()["sha256"].toString().toStdString() == test::sha256(photo));
        plan.method = "PATCH";
        plan.headers = {{"Authorization", "Basic " + QByteArray("user:pa55").toBase64()}, {"X-CSRF-Token", "tok"}};
        runs = s.run(plan);
        REQUIRE(runs.size() == 1);
        CHECK(answerOf(runs[0])["method"] == "PATCH");
        CHECK(answerOf(runs[0])["auth"] == "Basic");
        plan.headers[1].enabled = false; // an unticked header is not sent: the server asks for its token
        CHECK(s.run(plan)[0].httpStatus == 403);
    }
    plan.method = "PUT";
    plan.headers = {{"Authorization", "Bearer s3cret"}, {"X-CSRF-Token", "tok"}};
    QProcess shell;
    shell.start("sh", {"-c", plan.toCurl() + " -s"});
    REQUIRE(shell.waitForFinished(30000));
    const QJsonObject viaCurl = QJsonDocument::fromJson(shell.readAllStandardOutput()).object();
    CHECK(viaCurl["method"] == "PUT");
    CHECK(viaCurl["files"].toObject()["photo"].toObject()["size"].toInt() == photo.size());
}

TEST_CASE("headers that would split or reframe the request are refused, in plans and on the command line",
          "[sender][method]")
{
    CHECK(app::headerProblem("X-Ok", "fine value").isEmpty());
    CHECK(app::headerProblem("X-Bad", "a\r\nInjected: 1").contains("line break"));
    CHECK(app::headerProblem("Bad Name", "v").contains("cannot hold"));
    CHECK(app::headerProblem("content-length", "5").contains("set by the sender"));
    CHECK(app::headerProblem("Connection", "keep-alive").contains("set by the sender"));
    CHECK(app::headerProblem("Upload-Inspector-Hash", "none").contains("set by the sender"));
    QJsonObject json = UploadPlan().toJson();
    json["headers"] = QJsonArray{QJsonObject{{"name", "X-A"}, {"value", "1\n2"}}};
    QString error;
    CHECK_FALSE(UploadPlan::fromJson(json, &error));
    CHECK(error.contains("line break"));
    for (const QJsonValue& loose : {QJsonValue(QJsonObject{{"name", "X-A"}, {"value", "1"}, {"enabled", "no"}}),
                                    QJsonValue(QJsonObject{{"name", "X-A"}, {"value", 5}})}) {
        json["headers"] = QJsonArray{loose};
        CHECK_FALSE(UploadPlan::fromJson(json, &error));
        CHECK(error.contains("a header must have a text name and value"));
    }
    json["headers"] = QJsonObject{{"X-A", "1"}};
    CHECK_FALSE(UploadPlan::fromJson(json, &error));
    CHECK(error.contains("headers must be a list"));
    json["headers"] = QJsonArray{QJsonObject{{"name", "X-Off"}, {"value", "a\nb"}, {"enabled", false}}};
    CHECK(UploadPlan::fromJson(json, &error)); // kept, never sent
    json["headers"] = QJsonArray{};
    json["method"] = "DELETE";
    CHECK_FALSE(UploadPlan::fromJson(json, &error));
    CHECK(error.contains("POST, PUT, PATCH"));
    auto run = test::runCli({"send", "-F", "a=b", "-X", "GET", "http://127.0.0.1:1/"});
    CHECK(run.exitCode == 2);
    CHECK(run.err.contains("POST, PUT or PATCH"));
    run = test::runCli({"send", "-F", "a=b", "-H", "Transfer-Encoding: chunked", "http://127.0.0.1:1/"});
    CHECK(run.exitCode == 2);
    CHECK(run.err.contains("set by the sender"));
    run = test::runCli(
        {"send", "-F", "a=b", "-X", "put", "-H", "Authorization: Bearer x", "--print-curl", "http://127.0.0.1:1/up"});
    CHECK(run.out.startsWith("curl -X PUT "));
    CHECK(run.out.contains("-H 'Authorization: Bearer x'"));
}

TEST_CASE("an early answer stops the body and is reported with its status line, headers and body", "[sender][answer]")
{
    ListenerFixture f; // POST to a path it does not serve: 404 from the head, before the body is read
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/no-such-endpoint"))};
    plan.parts = {synthetic("big", quint64{256} << 20)};
    using Engine = UploadPlan::Engine;
    for (const Engine engine : {Engine::Raw, Engine::Qnam}) {
        plan.engine = engine;
        SenderThread s;
        const auto results = s.run(plan);
        REQUIRE(results.size() == 1);
        const RunResult& r = results.first();
        INFO("engine " << int(engine) << " error " << r.error.toStdString());
        CHECK(r.httpStatus == 404);
        CHECK(r.statusLine == "HTTP/1.1 404 Not Found");
        CHECK(r.error.isEmpty()); // the exchange completed: the server answered
        bool typed = false;
        for (const auto& [name, value] : r.responseHeaders)
            typed = typed || (name.toLower() == "content-type" && value == "text/plain");
        CHECK(typed);
        CHECK(r.response == "not found\n");
        if (engine == Engine::Raw) { // the raw client stops sending as curl does (QNAM sends on, not ours to stop)
            CHECK(r.answeredEarly);
            CHECK(r.bytesSent < r.bodyBytes / 4);
            CHECK_FALSE(r.bodySent());
            CHECK(r.mbPerSecond() == 0); // a rate of a body never sent would mean nothing
        }
        const QJsonObject json = app::runsToJson(results).first().toObject();
        CHECK(json["status_line"].toString() == "HTTP/1.1 404 Not Found");
        CHECK(json["response_body"].toString() == "not found\n");
        CHECK_FALSE(json["response_headers"].toArray().isEmpty());
    }
}

TEST_CASE("file parts get the content type curl would give them, from the extension", "[sender]")
{
    CHECK(app::guessContentType("x.png") == "image/png");
    CHECK(app::guessContentType("/a/b/photo.JPG") == "image/jpeg");
    CHECK(app::guessContentType("data.json") == "application/json");
    CHECK(app::guessContentType("notes.txt") == "text/plain");
    CHECK(app::guessContentType("blob.unknownext") == "application/octet-stream");
    CHECK(app::guessContentType("noextension") == "application/octet-stream");
    QString error;
    auto spec = app::parseFormSpec("img=@" + QStringLiteral(UPIN_DEFAULT_CORPUS) + "/README.md", &error);
    REQUIRE(spec);
    CHECK(spec->contentType == "text/markdown");
    ListenerFixture f; // and it arrives so
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/file-part"))};
    QByteArray png = QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/"
                                            "iZk9HQAAAABJRU5ErkJggg==");
    plan.parts = {*app::parseFormSpec("img=@" + f.file("x.png", png), &error)};
    SenderThread s;
    const auto results = s.run(plan);
    REQUIRE(results.size() == 1);
    const QJsonObject answer = QJsonDocument::fromJson(results.first().response).object();
    CHECK(answer["parts"].toArray()[0].toObject()["content_type"].toString() == "image/png");
}
