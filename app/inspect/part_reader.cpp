#include "inspect/part_reader.h"

#include "inspect/part_bytes.h"

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
