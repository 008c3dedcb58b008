#pragma once
// Reads the bytes a view shows (a text preview, a hex page, an image, a header block) on a thread of its own, so
// that no view reads a file: a view asks with a ByteRequest and shows "reading…" until the ByteReply comes. Its
// own thread, not the inspect worker's: a preview must not wait behind a multi-GB parse or Save all parts.

#include "inspect/inspect_types.h"

#include <QObject>

namespace upin::app {

// Blocking: the reader's thread and tests. At most request.length bytes from request.offset; with decode, the
// part's transfer encoding undone from its first byte (offset must be 0) over the first length encoded bytes.
ByteReply readBytes(const ByteRequest& request);

class PartReader final : public QObject {
    Q_OBJECT
public:
    void read(const upin::app::ByteRequest& request) { emit bytesRead(readBytes(request)); }

signals:
    void bytesRead(const upin::app::ByteReply& reply);
};

} // namespace upin::app
