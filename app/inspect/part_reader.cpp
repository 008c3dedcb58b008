#include "inspect/part_reader.h"

#include "inspect/part_bytes.h"

#include <QFileInfo>

namespace upin::app {

namespace {
// Read a MiB at a time, the last needle's length less one kept for a match across two reads: a search of a
// multi-GB part holds one window, never the part.
constexpr qint64 kFindWindow = qint64{1} << 20;

ByteReply findBytes(const ByteRequest& request, ByteReply reply)
{
    const QByteArray& needle = request.needle;
    QByteArray carry;
    quint64 carryStart = request.offset;
    for (quint64 at = request.offset; !needle.isEmpty() && at < request.source.available;) {
        const QByteArray read = readPartBytes(request.source, at, kFindWindow);
        if (read.isEmpty())
            break;
        const QByteArray window = carry + read;
        if (const qsizetype hit = window.indexOf(needle); hit >= 0) {
            reply.offset = carryStart + quint64(hit);
            reply.bytes = needle;
            return reply;
        }
        at += quint64(read.size());
        const qsizetype keep = std::min(window.size(), needle.size() - 1);
        carry = window.right(keep);
        carryStart = at - quint64(keep);
    }
    reply.error = QObject::tr("not found from offset %1 to the end").arg(request.offset);
    return reply;
}
} // namespace

ByteReply readBytes(const ByteRequest& request)
{
    ByteReply reply;
    reply.id = request.id;
    reply.use = request.use;
    reply.offset = request.offset;
    reply.decoded = request.decode != core::PartEncoding::Identity;
    if (!request.source.missing.isEmpty()) {
        reply.error = request.source.missing;
        return reply;
    }
    if (request.use == ByteUse::Find)
        return findBytes(request, reply);
    const QByteArray raw = readPartBytes(request.source, request.offset, request.length);
    const quint64 expected = request.offset < request.source.available
                                 ? std::min<quint64>(quint64(request.length), request.source.available - request.offset)
                                 : 0;
    if (quint64(raw.size()) < expected) // a part file deleted or cut since the capture was written
        reply.error = QFileInfo::exists(request.source.file)
                          ? QObject::tr("%1 holds fewer bytes than the capture says").arg(request.source.file)
                          : QObject::tr("%1 is gone").arg(request.source.file);
    if (!reply.decoded) {
        reply.bytes = raw;
        return reply;
    }
    core::PartDecoder decoder(request.decode);
    std::string out;
    auto decoded = decoder.feed(core::ByteView(raw.constData(), size_t(raw.size())), out);
    // The end of the part ends the encoded text; a preview of its first bytes stops anywhere.
    if (decoded && request.offset + quint64(raw.size()) >= request.source.available)
        decoded = decoder.finish(out);
    if (!decoded)
        reply.error = decodingError(decoded.error(), request.decode);
    reply.bytes = QByteArray(out.data(), qsizetype(out.size()));
    return reply;
}

} // namespace upin::app
