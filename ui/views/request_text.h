#pragma once
// The Request row's Text tab in Inspect: the request as it reads on the wire, then what the tool learnt about it
// (framing, sizes, client, timings, transport, and forward mode's exchange). A pure function over the values.

#include "inspect/inspect_types.h"

#include <QString>

namespace upin::ui {

QString describeRequest(const app::InspectResult& result);
// A HAR entry's node: its request line and body, then the response the HAR kept (status, headers, body; JSON
// indented).
QString describeHarEntry(const app::HarEntry& entry, const core::PartSummary& node);

} // namespace upin::ui
