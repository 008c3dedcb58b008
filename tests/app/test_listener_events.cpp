// The listener's events for the window: a capture's start, its parts (sparingly, for a body of many), throughput
// samples with the count of parts, and its end.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>

#include <algorithm>

using namespace upin;
using test::curl;
using test::ListenerFixture;

namespace {

// The listener's events until a capture finishes (or 5 s).
QList<app::CaptureEvent> eventsUntilFinished(QSignalSpy& spy)
{
    QList<app::CaptureEvent> all;
    QElapsedTimer clock;
    clock.start();
    auto finished = [&] {
        return std::any_of(all.begin(), all.end(),
                           [](const auto& e) { return e.kind == app::CaptureEvent::Kind::CaptureFinished; });
    };
    while (!finished() && clock.elapsed() < 5000) {
        spy.wait(200);
        for (const auto& args : spy)
            all += args.at(0).value<QList<app::CaptureEvent>>();
        spy.clear();
    }
    REQUIRE(finished());
    return all;
}

} // namespace

TEST_CASE("events: capture started, parts, throughput samples, finished", "[listener][events]")
{
    ListenerFixture f;
    QSignalSpy spy(&f.listener, &app::Server::events);
    QString a = f.file("a.bin", test::randomBytes(4 << 20, 6));
    const QDateTime before = QDateTime::currentDateTimeUtc();
    auto r = curl({"--limit-rate", "20M", "-F", "f=@" + a, "-F", "g=x", f.url("/part-event")});
    const QDateTime after = QDateTime::currentDateTimeUtc();
    REQUIRE(r.status == 200);
    const QList<app::CaptureEvent> all = eventsUntilFinished(spy);
    int started = 0, partsStarted = 0, partsFinished = 0, samples = 0;
    for (const auto& e : all) {
        started += e.kind == app::CaptureEvent::Kind::CaptureStarted;
        partsStarted += e.kind == app::CaptureEvent::Kind::PartStarted;
        partsFinished += e.kind == app::CaptureEvent::Kind::PartFinished;
        samples += int(e.samples.size());
    }
    CHECK(started == 1);
    CHECK(partsStarted == 2);
    CHECK(partsFinished == 2);
    CHECK(samples >= 3); // ~200 ms upload, a sample at least every 50 ms
    CHECK(all.last().capture.state == app::CaptureState::Complete);
    // Every event says when the request came, the same moment from start to finish: the list's Time column.
    const QDateTime received = all.first().capture.received;
    CHECK(received >= before.addMSecs(-1));
    CHECK(received <= after);
    for (const auto& e : all)
        CHECK(e.capture.received == received);
}

TEST_CASE("events: a form of 1,000 fields and a file shows its first parts and the file, not an event per part",
          "[listener][events]")
{
    ListenerFixture f;
    QSignalSpy spy(&f.listener, &app::Server::events);
    QStringList args{"--limit-rate", "10M"}; // the file arrives for ~300 ms
    for (int i = 0; i < 1000; ++i)
        args << "-F" << QStringLiteral("field%1=value %1").arg(i);
    args << "-F"
         << "big=@" + f.file("big.bin", test::randomBytes(3 << 20, 8)) << f.url("/part-event");
    REQUIRE(curl(args).status == 200);
    const QList<app::CaptureEvent> all = eventsUntilFinished(spy);
    int started = 0, finished = 0, mostPartsInProgress = 0;
    std::optional<app::CaptureEvent> file;
    for (const auto& e : all) {
        started += e.kind == app::CaptureEvent::Kind::PartStarted;
        finished += e.kind == app::CaptureEvent::Kind::PartFinished;
        if (e.kind == app::CaptureEvent::Kind::PartStarted && e.part.index == 1000)
            file = e;
        if (e.kind == app::CaptureEvent::Kind::Progress)
            mostPartsInProgress = std::max(mostPartsInProgress, e.capture.parts);
    }
    INFO("part events: " << started << " started, " << finished << " finished");
    CHECK(started >= 100); // every one of the first 100
    CHECK(started < 150);
    CHECK(finished == started);
    REQUIRE(file.has_value()); // the file, shown while it arrives: begun where it began, before its last byte
    CHECK(file->capture.bytes < quint64(3 << 20));
    CHECK(file->part.filename == "big.bin");
    CHECK(mostPartsInProgress == 1001); // Progress counts the parts begun, shown or not
    CHECK(all.last().capture.parts == 1001);
}

TEST_CASE("events: a part whose bytes came early and whose end came late is timed at its end", "[listener][events]")
{
    ListenerFixture f;
    QSignalSpy spy(&f.listener, &app::Server::events);
    QByteArray body;
    for (int i = 0; i < int(app::kPartsAlwaysTimed); ++i) // the first 100 are timed anyway: the 101st is not
        body += "--b\r\nContent-Disposition: form-data; name=\"f" + QByteArray::number(i) + "\"\r\n\r\nvalue\r\n";
    const QByteArray late = "--b\r\nContent-Disposition: form-data; name=\"late\"\r\n\r\nall its bytes";
    const QByteArray end = "\r\n--b--\r\n";
    const QByteArray head = "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                            "boundary=b\r\nContent-Length: " +
                            QByteArray::number(body.size() + late.size() + end.size()) +
                            "\r\nConnection: close\r\n\r\n";
    test::RawClient client(f.listener.port());
    REQUIRE(client.send(head + body + late));
    QThread::msleep(3 * app::kPartTimingIntervalMs); // its end, long after its bytes
    REQUIRE(client.send(end));
    REQUIRE(client.receive(5000).startsWith("HTTP/1.1 200"));
    const QList<app::CaptureEvent> all = eventsUntilFinished(spy);
    const auto timed = [&](app::CaptureEvent::Kind kind) {
        return std::any_of(all.begin(), all.end(), [&](const auto& e) {
            return e.kind == kind && e.part.index == app::kPartsAlwaysTimed && e.part.name == "late";
        });
    };
    CHECK(timed(app::CaptureEvent::Kind::PartStarted));
    CHECK(timed(app::CaptureEvent::Kind::PartFinished));
}
