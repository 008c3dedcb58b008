#pragma once
// The Request row's Text tab in Inspect: the request as it reads on the wire, then what the tool learnt about it
// (framing, sizes, client, timings, transport, and forward mode's exchange). A pure function over the values.

#include "inspect/inspect_types.h"

#include <QString>

namespace upin::ui {

QString describeRequest(const app::InspectResult& result);

} // namespace upin::ui
