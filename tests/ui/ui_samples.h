#pragma once
// Sample values the UI tests share: a nested parse report and a listener event.

#include "server/listener_types.h"

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

inline app::ListenerEvent event(app::ListenerEvent::Kind kind, quint64 id, quint64 bytes)
{
    app::ListenerEvent e;
    e.kind = kind;
    e.captureId = id;
    e.endpoint = "/file-part";
    e.client = "127.0.0.1:1";
    e.bytes = bytes;
    e.elapsedMs = 10;
    return e;
}

} // namespace upin::test
