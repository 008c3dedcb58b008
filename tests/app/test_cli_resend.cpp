// upload-inspector-cli resend (issue 48's Resend, on the command line): a captured upload sent again through the
// real binary, one header edited, arrives with that header changed, the others in their order, and every part's
// digest unchanged.

#include "app/listener_fixture.h"
#include "capture/capture_record.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QDir>

using namespace upin;

namespace {

// The captures under root, in the order they came (their folder names begin with the time).
QList<app::CaptureRecord> records(const QString& root)
{
    QList<app::CaptureRecord> out;
    QStringList folders = QDir(root).entryList({"capture-*"}, QDir::Dirs, QDir::Name);
    for (const QString& folder : folders)
        if (auto record = app::CaptureRecord::read(QDir(root).filePath(folder)))
            out.append(*record);
    return out;
}

QStringList fields(const app::CaptureRecord& record, const QStringList& names)
{
    QStringList out;
    for (const auto& [name, value] : record.request.headers.value_or(QList<QPair<QString, QString>>{}))
        if (names.contains(name, Qt::CaseInsensitive))
            out.append(name + ": " + value);
    return out;
}

QList<std::string> digests(const app::CaptureRecord& record)
{
    QList<std::string> out;
    for (const auto& part : record.report.parts)
        out.append(part.digest);
    return out;
}

} // namespace

TEST_CASE("resend sends a capture again with a header edited: the same method, parts and digests, the other "
          "fields in their order",
          "[cli][resend]")
{
    test::ListenerFixture f;
    const QString photo = f.file("photo.png", test::randomBytes(300'000, 3));
    REQUIRE(test::curl({"-H", "Authorization: Bearer tok-XYZ", "-H", "X-Trace: 7", "-H", "Upload-Inspector-Probe: 9",
                        "-F", "pic=@" + photo + ";type=image/png", "-F", "note=hello", f.url("/file-part")})
                .status == 200);
    const QList<app::CaptureRecord> first = records(f.listener.captureRoot());
    REQUIRE(first.size() == 1);
    const QString folder = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).constFirst();

    const test::CliRun run = test::runCli({"resend", QDir(f.listener.captureRoot()).filePath(folder), "-H",
                                           "authorization: Bearer tok-NEW", "--to", f.url("")});
    INFO(run.out.toStdString() << run.err.toStdString());
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.contains("checks"));
    const QList<app::CaptureRecord> both = records(f.listener.captureRoot());
    REQUIRE(both.size() == 2);
    const app::CaptureRecord& again = both[1];
    CHECK(again.request.method == "POST");
    CHECK(again.request.target == "/file-part");
    const QStringList chosen{"Authorization", "X-Trace", "User-Agent", "Accept"};
    QStringList expected = fields(first[0], chosen); // curl's User-Agent and Accept, then ours
    REQUIRE(expected.size() == 4);
    CHECK(expected.indexOf("Authorization: Bearer tok-XYZ") == 2);
    expected[2] = "authorization: Bearer tok-NEW"; // where it stood, as the user wrote it
    CHECK(fields(again, chosen) == expected);
    // The probe's marker is not sent again: the resend is the user's, not one of a probe's uploads.
    CHECK(fields(first[0], {"Upload-Inspector-Probe"}).size() == 1);
    CHECK(fields(again, {"Upload-Inspector-Probe"}).isEmpty());
    REQUIRE(again.report.parts.size() == 2);
    CHECK(digests(again) == digests(first[0]));
    CHECK(again.report.parts[0].filename == std::optional<std::string>("photo.png"));
    CHECK(again.report.parts[0].contentType == std::optional<std::string>("image/png"));

    // 'Name:' with no value removes a captured field, as curl's -H does.
    const test::CliRun dropped =
        test::runCli({"resend", QDir(f.listener.captureRoot()).filePath(folder), "-H", "X-Trace:", "--to", f.url("")});
    REQUIRE(dropped.exitCode == 0);
    const QList<app::CaptureRecord> three = records(f.listener.captureRoot());
    REQUIRE(three.size() == 3);
    CHECK(fields(three[2], {"X-Trace"}).isEmpty());
    CHECK(fields(three[2], {"Authorization"}) == QStringList{"Authorization: Bearer tok-XYZ"});
    // Options that cannot be taken are refused by name before anything is read or sent.
    const QString captured = QDir(f.listener.captureRoot()).filePath(folder);
    for (const auto& [options, said] : std::initializer_list<std::pair<QStringList, QString>>{
             {{"--entry", "abc"}, "--entry abc: give a request's number, from 0"},
             {{"--entry", "0"}, "--entry is for a HAR file's requests"},
             {{"--to", "ftp://x/y"}, "--to ftp://x/y: give an http:// or https:// URL"},
             {{"--plan", "p.json"}, "--plan: resend's plan is the capture's"}}) {
        const test::CliRun refused = test::runCli(QStringList{"resend", captured} + options);
        INFO(refused.err.toStdString());
        CHECK(refused.exitCode == 2);
        CHECK(refused.err.contains(said.toUtf8()));
    }
    REQUIRE(records(f.listener.captureRoot()).size() == 3);

    // A header the sender sets itself cannot be edited so: it says which, and sends nothing.
    const test::CliRun framing = test::runCli(
        {"resend", QDir(f.listener.captureRoot()).filePath(folder), "-H", "Content-Length: 5", "--to", f.url("")});
    CHECK(framing.exitCode == 2);
    CHECK(framing.err.contains("Content-Length is set by the sender itself"));
    CHECK(records(f.listener.captureRoot()).size() == 3);
}
