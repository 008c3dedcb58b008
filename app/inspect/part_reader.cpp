#include "inspect/part_reader.h"

#include "inspect/part_bytes.h"

#include <QFileInfo>

namespace upin::app {

namespace {
// Read a MiB at a time, the last needle's length less one kept for a match across two reads: a search of a
// multi-GB part holds one window, never the part.
constexpr qint64 kFindWindow = qint64{1} << 20;

// Where needle starts in [from, until) of the part's bytes, if it does.
std::optional<quint64> findIn(const PartBytes& source, const QByteArray& needle, quint64 from, quint64 until)
{
    QByteArray carry;
    quint64 carryStart = from;
    until = std::min(until, source.available);
    for (quint64 at = from; !needle.isEmpty() && at < until;) {
        const QByteArray read = readPartBytes(source, at, std::min<qint64>(kFindWindow, qint64(until - at)));
        if (read.isEmpty())
            break;
        const QByteArray window = carry + read;
        if (const qsizetype hit = window.indexOf(needle); hit >= 0)
            return carryStart + quint64(hit);
        at += quint64(read.size());
        const qsizetype keep = std::min(window.size(), needle.size() - 1);
        carry = window.right(keep);
        carryStart = at - quint64(keep);
    }
    return std::nullopt;
}

// From the offset to the end, then from the start up to it, as an editor's Find next goes round.
ByteReply findBytes(const ByteRequest& request, ByteReply reply)
{
    const QByteArray& needle = request.needle;
    auto hit = findIn(request.source, needle, request.offset, request.source.available);
    if (!hit && request.offset > 0) {
        hit = findIn(request.source, needle, 0, request.offset + quint64(std::max<qsizetype>(needle.size() - 1, 0)));
        reply.wrapped = hit.has_value();
    }
    if (!hit) {
        reply.error = QObject::tr("not found");
        return reply;
    }
    reply.offset = *hit;
    reply.bytes = needle;
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
