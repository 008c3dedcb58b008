#pragma once
// The header fields of our own that our clients, listener, forwarder and probe say to each other.

namespace upin::app {

// A client that hashes what it sends (our sender) names its hash in this request header, so that the listener's
// digests are comparable with its own; a ?hash= query still wins, and the listener's default applies without both.
inline constexpr char kHashHeader[] = "Upload-Inspector-Hash";
// A probe's request through our forwarder carries kProbeHeader; the answer relayed to it then carries
// kCaptureHeader, what the forwarder saw pass: "id=17; parts=3; bytes=67109234; parsed=ok; probe=NONCE" (parts
// whole, their content bytes, whether the body parsed without error so far, and the probe's value said back: the
// forwarder does not pass kProbeHeader on, so a server behind it never sees the value and cannot pass itself off as
// our forwarder; a server probed directly does see it). Other answers go back unchanged.
inline constexpr char kProbeHeader[] = "Upload-Inspector-Probe";
inline constexpr char kCaptureHeader[] = "Upload-Inspector-Capture";

} // namespace upin::app
