// The matcher bench with a stored body of the user's: what it refuses, and why.

#include "bench/bench_worker.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace upin;

TEST_CASE("the bench says a file that is not a whole multipart body is not one, with where it stops", "[ui][bench]")
{
    QTemporaryDir dir;
    app::BenchWorker worker;
    QSignalSpy finished(&worker, &app::BenchWorker::finished);
    const auto errorFor = [&](const char* name, const QByteArray& bytes) {
        QFile file(dir.filePath(name));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        app::BenchRequest request;
        request.path = file.fileName();
        request.runs = 1;
        worker.run(request);
        REQUIRE_FALSE(finished.isEmpty());
        return finished.takeLast().first().value<app::BenchResult>().error;
    };
    const QString cut = errorFor("cut.bin", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue");
    INFO(cut.toStdString());
    CHECK((cut.startsWith("cut.bin is not a multipart body: ") && cut.contains(" (byte ")));
    CHECK(errorFor("photo.png", "\x89PNG\r\n\x1a\n").contains("photo.png"));
    // A field over the listener's limit is still a whole body: the bench times matchers, not limits.
    CHECK(errorFor("bigfield.bin", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" +
                                       QByteArray(2 << 20, 'v') + "\r\n--XyZ--\r\n")
              .isEmpty());
    CHECK(
        errorFor("whole.bin", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ--\r\n").isEmpty());
}
