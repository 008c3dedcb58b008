#pragma once
// Sample values the UI tests share: a nested parse report and a listener event.

#include "server/server_config.h"

#include "upin/core/event_recorder.h"

namespace upin::test {

inline core::ParseReport nestedReport()
{
    core::ParseReport r;
    r.ok = true;
    core::PartSummary a, child1, child2, b;
    a.index = 0;
    a.name = "outer";
    child1.index = 0;
    child2.index = 1;
    child2.filename = "x.txt";
    a.children = {child1, child2};
    b.index = 1;
    b.size = 42;
    r.parts = {a, b};
    return r;
}

inline app::CaptureEvent event(app::CaptureEvent::Kind kind, quint64 id, quint64 bytes)
{
    app::CaptureEvent e;
    e.kind = kind;
    e.capture.id = id;
    e.capture.endpoint = "/file-part";
    e.capture.client = "127.0.0.1:1";
    e.capture.bytes = bytes;
    e.capture.elapsedMs = 10;
    e.capture.received = QDateTime::currentDateTimeUtc().addMSecs(-10); // as a listener's events carry it
    return e;
}

} // namespace upin::test
