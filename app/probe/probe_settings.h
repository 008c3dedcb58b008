#pragma once
// What a probe is asked to do (`upload-inspector-cli probe`'s options, the Probe tab's form), and the one set of
// rules both check it by.

#include "sender/upload_plan.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <cstdint>
#include <optional>

namespace upin::app {

// The probe's body shapes: the content shapes of core/body_shapes.h, and shapes of the form itself.
inline const QStringList kProbeShapes{
    QStringLiteral("plain"),      QStringLiteral("random"),          QStringLiteral("crlf-dense"),
    QStringLiteral("dash-dense"), QStringLiteral("prefix-dense"),    QStringLiteral("near-miss"),
    QStringLiteral("leading-cr"), QStringLiteral("many-fields"),     QStringLiteral("many-files"),
    QStringLiteral("chunked"),    QStringLiteral("split-delimiters")};

struct ProbeSettings {
    QUrl target;
    QUrl baseline;                          // a /discard-like endpoint; empty: the probe's own listener
    QString field = QStringLiteral("file"); // the file part's name
    QList<PlanPart> extraParts;             // -F: fields the server needs beside the file
    QList<PlanHeader> headers;              // -H: auth, cookies
    QString method = QStringLiteral("POST");
    QString caCertificates;
    bool insecure = false;
    // The defaults are a first run's, the CLI's and the window's alike: about half a GiB in all and under a minute
    // on a server that takes 20 MB/s (every shape at 8 MiB, a form of 1,000 small files, scaling at 4 and 8 MiB,
    // three parallel rounds of 2 MiB uploads). A larger --size measures a fast server with less noise.
    quint64 size = quint64{8} << 20; // of each shape's file part
    QStringList shapes = kProbeShapes;
    QList<int> concurrency{1, 4, 16};
    bool scaling = true;
    qint64 pid = 0;                      // whose memory to watch; 0: the local process holding the port
    quint64 maxBytes = quint64{1} << 30; // sent in all, baseline included: room for rechecks of slow shapes
    int maxSeconds = 120;
    QString expectSizePath; // --expect size=a.b.c: the file part's size in the answer's JSON
    int stallTimeoutMs = 30'000;
    QString nonce; // sent in Upload-Inspector-Probe, said back by our forwarder; the runner makes one
};

std::optional<QList<int>> parseClientCounts(const QString& text, QString* error);
QString clientCountsText(const QList<int>& counts); // the other way: "1,4,16", "0" for none

// A probe's settings, as the CLI's options and the window's fields both name them.
enum class ProbeSetting : uint8_t { Field, Method, Size, MaxBytes, MaxSeconds, Shapes, CaFile };
struct ProbeSettingProblem {
    ProbeSetting setting;
    QString why; // reads after the setting's name: "give a whole size above 0, such as 64M or 1G"
};
// The first thing wrong with settings, by the one set of rules the CLI and the window both apply (a size that
// did not parse is 0); the URLs are checked as they are read (checkHttpUrl), the counts by parseClientCounts.
std::optional<ProbeSettingProblem> checkProbeSettings(const ProbeSettings& s);

} // namespace upin::app
