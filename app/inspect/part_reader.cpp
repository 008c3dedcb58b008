#include "inspect/part_reader.h"

#include "inspect/part_bytes.h"

#include <QFileInfo>

namespace upin::app {

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
