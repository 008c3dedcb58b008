#pragma once
// What a server's answer says arrived, against what the probe sent: digests that differ (our listener), a
// `parts` list of names and sizes that disagrees or is empty (our listener, and servers that report what they
// read), an httpbin-style echo of the file and fields (`files`, `form`), or the size at the user's --expect path.

#include "sender/run_types.h"

#include <QString>

namespace upin::app {

// Why other bytes arrived than were sent, in words; empty when the answer agrees or says nothing.
QString wrongBytes(const RunResult& r, const QString& expectPath, const QString& field);
// Whether --expect's path names a number in the answer: one that does not (a typo, another JSON layout) checks
// nothing, which the report says, rather than a finding against the server.
bool expectedSizeFound(const RunResult& r, const QString& expectPath);

// Through our own forwarder, its answer carries what it saw pass (kCaptureHeader): its capture, the parts whole and
// their bytes, and the probe's nonce said back (a field without it is a server's, not our forwarder's, and is not
// believed). Against what was sent: capture 0 without the field; wrong says how they differ, in words.
struct ForwarderSaw {
    quint64 capture = 0;
    QString wrong;
};
ForwarderSaw forwarderSaw(const RunResult& r, const QString& nonce);

} // namespace upin::app
