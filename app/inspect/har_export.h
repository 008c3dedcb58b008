#pragma once
// Captures as a HAR 1.2 file, the format browsers' devtools export and import (Chromium's and Firefox's Network
// panels, HTTP Toolkit, and this tool's own Open): one entry per capture, its request line, header fields and body
// as its client sent them, and the answer that client got. The window's Export HAR and `upload-inspector-cli har`.
//
// HAR keeps bodies inline. A capture that kept its body (body.raw) gives it as it came; one that kept its parts
// (/file-part) gives a body made again from them under the captured boundary (every part's headers and bytes; a
// preamble or epilogue is not kept); a body that is not UTF-8 text is base64 with "encoding": "base64", as
// Chromium's own export writes it. Where neither can be had, or a body is over kMaxHarBody, postData lists the
// parts (params: names, file names, types, field values) without the files' bytes, and the entry's comment says so.

#include "upin/core/multipart_parser.h"

#include <QString>
#include <QStringList>

namespace upin::app {

inline constexpr qint64 kMaxHarBody = qint64{32} << 20;

struct HarExport {
    int entries = 0;
    QStringList notes; // one line per capture whose body is not in the file whole, or that could not be read
    QString error;     // the file could not be written; empty when it was
};

// Writes the captures of these folders, in this order, to path, reading one capture at a time (memory holds one
// body). Blocking: a pool thread, the CLI.
HarExport writeHar(const QStringList& folders, const QString& path, const core::Options& limits);

} // namespace upin::app
