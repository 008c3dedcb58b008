// What a run reports: where its time and CPU went, per-target statistics, CSV and JSON.

#include "app/forward_fixture.h"
#include "app/plan_parts.h"
#include "sender/run_report.h"
#include "sender/sender.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

using namespace upin;
using app::PlanPart;
using app::RunResult;
using app::UploadPlan;
using test::ListenerFixture;
using test::SenderThread;
using test::synthetic;

TEST_CASE("a run says where its CPU went: reading ahead, hashing, this thread, the whole process", "[sender]")
{
    ListenerFixture f;
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/discard"))};
    plan.parts = {synthetic("random", 16 << 20)};
    for (const core::HashKind hash : {core::HashKind::Sha256, core::HashKind::None}) {
        INFO("hash " << core::kHashNames.name(hash));
        plan.hash = hash;
        SenderThread s;
        const auto results = s.run(plan);
        REQUIRE(results.size() == 1);
        const RunResult::Cpu& cpu = results[0].cpu;
        CHECK(cpu.readMs > 0); // 16 MiB of random bytes made on the read-ahead thread
        CHECK(cpu.sendMs > 0);
        CHECK(cpu.processMs >= cpu.sendMs);
        if (hash == core::HashKind::None)
            CHECK(cpu.hashMs == -1); // no hashing thread
        else
            CHECK(cpu.hashMs > 0);
        const QJsonObject json = runsToJson(results)[0].toObject()["cpu_ms"].toObject();
        CHECK(json["hash"].isNull() == (hash == core::HashKind::None));
        CHECK(json["read"].toDouble() == cpu.readMs);
    }
}

TEST_CASE("Compare says what bounded a target's runs, from our listener's cpu_ms, and nothing for another server",
          "[sender][compare]")
{
    ListenerFixture f;
    UploadPlan plan;
    plan.targets = {QUrl(f.url("/part-event?matcher=kmp"))};
    plan.parts = {synthetic("big", 32 << 20, PlanPart::Fill::Random)};
    plan.runs = 3;
    plan.hash = core::HashKind::None; // the listener hashes with SHA-256 all the same: its share is measured
    SenderThread s;
    const auto runs = s.run(plan);
    REQUIRE(runs.size() == 3);
    const auto stats = app::statsByTarget(runs);
    REQUIRE(stats.size() == 1);
    CHECK(stats[0].parseShare > 0);
    CHECK(stats[0].parseShare < 1.5); // CPU time of one thread against the wall time of the run
    CHECK(stats[0].hashShare >= 0);
    const QString bound = app::boundBy(stats[0]);
    INFO(bound.toStdString());
    CHECK((bound.startsWith("parsing (") || bound.startsWith("hashing (") || bound.startsWith("the transfer (") ||
           bound.startsWith("the listener's work together (")));
    CHECK(stats[0].storeShare == 0); // /part-event stores nothing
    CHECK(app::statsTable(stats).contains(bound));
    RunResult other = runs[0]; // an answer without cpu_ms: another server says nothing of its time
    other.response = R"({"ok": true})";
    CHECK(app::boundBy(app::statsByTarget({other})[0]).startsWith("not reported"));
    // Review: shares that add up to most of the time are the listener's work, not "the transfer"; a target whose
    // runs all failed did not run, whoever answered.
    app::TargetStats shares = stats[0];
    shares.parseShare = 0.3, shares.hashShare = 0.3, shares.storeShare = 0.19;
    CHECK(app::boundBy(shares).startsWith("the listener's work together (parsing 30%"));
    RunResult refused = runs[0];
    refused.httpStatus = 404;
    CHECK(app::boundBy(app::statsByTarget({refused})[0]) == "no run completed");
    // This side's hashing, from the runs' own cpu_ms: said first when it took most of the time, whatever the
    // server; below half, or below one of the listener's stages, the listener's figures speak.
    RunResult hashing = other;
    hashing.totalSeconds = 0.2;
    hashing.cpu.hashMs = 150;
    CHECK(app::statsByTarget({hashing})[0].ownHashShare == Approx(0.75));
    CHECK(app::boundBy(app::statsByTarget({hashing})[0]) == "hashing on this side (75% of the time)");
    hashing.cpu.hashMs = 60;
    CHECK(app::boundBy(app::statsByTarget({hashing})[0]).startsWith("not reported"));
    shares.ownHashShare = 0.6, shares.parseShare = 0.7;
    CHECK(app::boundBy(shares).startsWith("parsing (70%"));
    shares.ownHashShare = 0.35, shares.parseShare = 0.1, shares.hashShare = 0, shares.storeShare = 0;
    CHECK(app::boundBy(shares) == "the transfer (parsing 10%, hashing 0%, storing 0%; hashing on this side 35%)");
}

TEST_CASE("per-target statistics", "[sender]")
{
    QList<RunResult> runs;
    for (double t : {1.0, 3.0, 2.0}) {
        RunResult r;
        r.target = QUrl("http://a/");
        r.httpStatus = 200;
        r.totalSeconds = t;
        r.lastByteSeconds = t; // the whole body was sent
        r.bodyBytes = 6000000;
        runs.append(r);
    }
    RunResult failed;
    failed.target = QUrl("http://b/");
    failed.error = "refused";
    runs.append(failed);
    auto stats = app::statsByTarget(runs);
    REQUIRE(stats.size() == 2);
    CHECK(stats[0].count == 3);
    CHECK(stats[0].medianSeconds == 2.0);
    CHECK(stats[0].minSeconds == 1.0);
    CHECK(stats[0].maxSeconds == 3.0);
    CHECK(stats[0].medianMBps == 3.0);
    CHECK(stats[1].failures == 1);
    CHECK(app::runsToCsv(runs).count('\n') == 5);
}

TEST_CASE("the runs' CSV leaves what a run did not measure empty and counts the bytes it really sent",
          "[sender][export]")
{
    RunResult refused; // no connection: no status, no times, no rate
    refused.target = QUrl("http://a/");
    refused.error = "Connection refused";
    refused.bodyBytes = 1000;
    RunResult early; // a 404 after 1% of the body
    early.target = QUrl("http://a/");
    early.run = 1;
    early.httpStatus = 404;
    early.answeredEarly = true;
    early.bodyBytes = 1000;
    early.bytesSent = 10;
    early.totalSeconds = 0.5;
    early.responseHeadSeconds = 0.25;
    const QStringList lines = app::runsToCsv({refused, early}).split('\n');
    CHECK(lines[0].startsWith("target,run,status,error,body_bytes,bytes_sent,total_s,last_byte_s,response_head_s,"
                              "mb_per_s,"));
    CHECK(lines[1].startsWith("http://a/,1,,\"Connection refused\",1000,0,,,,,"));
    CHECK(lines[2].startsWith("http://a/,2,404,\"\",1000,10,0.500000,,0.250000,,"));
    CHECK_FALSE(lines.join('\n').contains("-1.0"));
}
