#pragma once
// What the inspect worker hands the GUI: one opened source's parse report and where its bytes are. Owned values.

#include "capture/capture_record.h"
#include "inspect/har.h"

#include "upin/core/event_recorder.h"
#include "upin/core/part_decoding.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QMetaType>
#include <QString>

#include <memory>

namespace upin::app {

struct InspectResult {
    QString path;
    QString title;
    core::ParseReport report;
    QString bodyFile;                     // file the hex view reads; empty when none
    std::shared_ptr<QFile> bodyFileOwner; // a temporary bodyFile (a de-chunked body), deleted with the last copy
    QString unmappedReason;               // why part offsets do not map into bodyFile, when bodyFileOffset < 0
    qint64 bodyFileOffset = 0;            // file offset of body offset 0; -1 when offsets do not map
    QString partsFolder;                  // capture folder whose saved parts can be opened
    std::optional<CaptureRecord> capture; // capture.json, for captures
    // The request, for whole HTTP requests and captures (empty for bodies and HAR files): its head and framing; a
    // capture's also its client, host, arrival and transport.
    RequestRecord request;
    QList<HarEntry> harEntries; // HAR: every entry, by top-level node (HAR keeps bodies inline)
    // A capture's request as stored, looked at when it was opened (so that no view reads or stats a file for it):
    // head.raw's bytes (headKept false: none) and body.raw's size (-1: none).
    QByteArray storedHead;
    bool headKept = false;
    qint64 storedBodySize = -1;
    qint64 sourceSize = -1; // a request or body file's size, taken when it was opened (the same reason)
    QString error;
    bool cancelled = false;
};

// Where one part's body bytes can be read (see part_bytes.h for how they are found and read).
struct PartBytes {
    QString file;                 // the file holding the bytes; empty when they are in memory or not kept
    qint64 fileOffset = 0;        // where the part's first body byte is in file
    QByteArray memory;            // the bytes themselves, when inMemory
    bool inMemory = false;        // an inline field value or a part of a HAR body
    QByteArray before;            // bytes that come before file's (a capture's head.raw before its body.raw)
    QByteArray after;             // and after them (the last chunk of a chunked request); both count in available
    quint64 available = 0;        // bytes that can be read (fewer than the part's size when only a prefix was kept)
    bool partRelative = false;    // no whole body exists: offsets shown count from the part's first byte
    QString missing;              // why no bytes can be read; empty when they can
    std::shared_ptr<QFile> owner; // keeps a temporary file alive while the bytes are read or copied
};

// One part to write into a file of its own (Save part / Save all parts), decoded when encoding says so.
struct PartCopy {
    PartBytes source;
    QString target;
    core::PartEncoding encoding = core::PartEncoding::Identity;
};

// What a view wants some bytes for; a reply for a use the view asked again for since is dropped by id.
// Find: where needle first occurs at or after offset (the reply's offset; its bytes the needle).
enum class ByteUse : uint8_t { Text, Hex, Image, HeaderBlock, Find };

// Some of a source's bytes, asked of the part reader (views read no files).
struct ByteRequest {
    quint64 id = 0;
    ByteUse use = ByteUse::Text;
    PartBytes source;
    quint64 offset = 0;
    qint64 length = 0;
    core::PartEncoding decode = core::PartEncoding::Identity; // undo the part's transfer encoding (offset 0)
    QByteArray needle;                                        // Find: the bytes to look for
};

struct ByteReply {
    quint64 id = 0;
    ByteUse use = ByteUse::Text;
    quint64 offset = 0;
    QByteArray bytes; // what was read (decoded, when decoded), up to the request's length
    QString error;    // why nothing or not everything came: not kept, or where the encoding is invalid
    bool decoded = false;
    bool wrapped = false; // Find: found only after going round from the start
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::InspectResult)
Q_DECLARE_METATYPE(QList<upin::app::PartCopy>)
Q_DECLARE_METATYPE(upin::app::ByteRequest)
Q_DECLARE_METATYPE(upin::app::ByteReply)
