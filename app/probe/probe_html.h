#pragma once
// The probe's report as one self-contained HTML page (`probe --html FILE`, the Probe tab's Export HTML): the
// findings, the charts as inline SVG and the tables, with nothing linked, to attach to a bug report.

#include "probe/probe_report.h"

#include <QByteArray>
#include <QDateTime>

namespace upin::app {

QByteArray probeHtml(const ProbeReport& report, const QDateTime& when);

} // namespace upin::app
