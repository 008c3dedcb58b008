#include "support/http_log.h"

#include <cstdio>

namespace upin::test {
namespace {

using core::BodyFraming;
using core::HeadReader;

std::string escaped(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\r')
            out += "\\r";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\\' || c == '"')
            out += std::string("\\") + c;
        else if (u < 0x20 || u >= 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", u);
            out += hex;
        } else
            out += c;
    }
    return out;
}

const char* framingName(BodyFraming::Kind kind)
{
    switch (kind) {
    case BodyFraming::Kind::None: return "none";
    case BodyFraming::Kind::ContentLength: return "content-length";
    case BodyFraming::Kind::Chunked: return "chunked";
    case BodyFraming::Kind::UntilClose: return "until-close";
    }
    return "?";
}

// The wire in the given piece sizes, the last size repeating.
class Pieces {
public:
    Pieces(std::string_view wire, const std::vector<size_t>& sizes) : m_wire(wire), m_sizes(sizes) {}
    bool done() const { return m_pos >= m_wire.size(); }
    std::string_view next()
    {
        size_t size = m_sizes.empty() ? m_wire.size() : m_sizes[std::min(m_index++, m_sizes.size() - 1)];
        auto piece = m_wire.substr(m_pos, std::max<size_t>(size, 1));
        m_pos += piece.size();
        return piece;
    }

private:
    std::string_view m_wire;
    const std::vector<size_t>& m_sizes;
    size_t m_pos = 0;
    size_t m_index = 0;
};

struct Collect final : core::BodySink {
    std::string body;
    void onBody(core::ByteView data) override { body.append(data); }
};

void logHead(std::string& log, const HeadReader& reader, HeadReader::Kind kind)
{
    std::span<const core::HttpField> fields;
    if (kind == HeadReader::Kind::Request) {
        const auto& h = reader.head();
        log += "request " + escaped(h.method) + " " + escaped(h.target) + " HTTP/1." + std::to_string(h.minorVersion) +
               "\n";
        fields = h.fields;
    } else {
        const auto& r = reader.response();
        log += "response HTTP/1." + std::to_string(r.minorVersion) + " " + std::to_string(r.status) + " \"" +
               escaped(r.reason) + "\"\n";
        fields = r.fields;
    }
    for (const auto& f : fields)
        log += "field \"" + escaped(f.name) + "\" \"" + escaped(f.value) + "\"\n";
}

std::string error(const char* where, core::Error e, uint64_t base)
{
    return std::string("error in ") + where + ": " + std::string(core::codeName(e.code)) + " at " +
           std::to_string(base + e.offset) + "\n";
}

std::string read(HeadReader::Kind kind, std::string_view wire, const std::vector<size_t>& sizes,
                 const HttpMessageOptions& options)
{
    std::string log;
    Pieces feed(wire, sizes);
    HeadReader reader(options.limits, kind);
    std::string_view pending;
    uint64_t headStart = 0;
    size_t interim = 0;
    while (true) {
        if (pending.empty()) {
            if (feed.done())
                return log + "end of input in the head\n";
            pending = feed.next();
        }
        auto used = reader.feed(pending);
        if (!used)
            return log + error("head", used.error(), headStart);
        pending.remove_prefix(*used);
        if (!reader.complete())
            continue;
        logHead(log, reader, kind);
        const int status = kind == HeadReader::Kind::Response ? reader.response().status : 0;
        if (status == 0 || status >= 200 || status == 101)
            break;
        if (++interim > options.maxInterim)
            return log + "error: more than " + std::to_string(options.maxInterim) + " interim answers\n";
        headStart += reader.headBytes();
        reader.reset();
    }
    auto framing = kind == HeadReader::Kind::Request ? core::bodyFraming(reader.head())
                                                     : core::responseFraming(reader.response(), options.answersHead);
    if (!framing)
        return log + error("framing", framing.error(), 0);
    log += std::string("framing ") + framingName(framing->kind) +
           (framing->kind == BodyFraming::Kind::ContentLength ? " " + std::to_string(framing->contentLength) : "") +
           (framing->keepAlive ? " keep-alive" : " close") + "\n";
    const uint64_t bodyStart = headStart + reader.headBytes();
    core::BodyDecoder decoder(*framing, options.limits);
    Collect sink;
    std::string failure;
    while (!decoder.done()) {
        if (pending.empty()) {
            if (feed.done())
                break;
            pending = feed.next();
        }
        auto used = decoder.feed(pending, sink);
        if (!used) {
            failure = error("body", used.error(), bodyStart);
            break;
        }
        pending.remove_prefix(*used);
    }
    if (failure.empty() && !decoder.done() && options.closeAtEnd)
        decoder.closed();
    log += "body " + std::to_string(sink.body.size()) + " \"" + escaped(sink.body.substr(0, 200)) + "\"\n";
    if (!failure.empty())
        return log + failure;
    if (!decoder.done())
        return log + "end of input in the body after " + std::to_string(decoder.wireBytes()) + " bytes\n";
    if (framing->kind == BodyFraming::Kind::Chunked)
        log += "chunks " + std::to_string(decoder.chunks()) + ", trailer bytes " +
               std::to_string(decoder.trailerBytes()) + "\n";
    return log + "complete, " + std::to_string(wire.size() - (bodyStart + decoder.wireBytes())) + " bytes after\n";
}

std::string everyWay(HeadReader::Kind kind, std::string_view wire, const HttpMessageOptions& options)
{
    std::string whole = read(kind, wire, {}, options);
    auto differs = [&](const std::string& how, const std::string& log) {
        return "differs " + how + ":\n" + log + "whole:\n" + whole;
    };
    if (std::string bytes = read(kind, wire, {1}, options); bytes != whole)
        return differs("byte by byte", bytes);
    for (size_t split = 1; split < wire.size(); ++split)
        if (std::string log = read(kind, wire, {split, wire.size()}, options); log != whole)
            return differs("split at " + std::to_string(split), log);
    return whole;
}

} // namespace

std::string readResponse(std::string_view wire, const std::vector<size_t>& pieces, const HttpMessageOptions& options)
{
    return read(HeadReader::Kind::Response, wire, pieces, options);
}

std::string readRequest(std::string_view wire, const std::vector<size_t>& pieces, const HttpMessageOptions& options)
{
    return read(HeadReader::Kind::Request, wire, pieces, options);
}

std::string readResponseEveryWay(std::string_view wire, const HttpMessageOptions& options)
{
    return everyWay(HeadReader::Kind::Response, wire, options);
}

std::string readRequestEveryWay(std::string_view wire, const HttpMessageOptions& options)
{
    return everyWay(HeadReader::Kind::Request, wire, options);
}

} // namespace upin::test
