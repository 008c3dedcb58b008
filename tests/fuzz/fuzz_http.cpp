// libFuzzer target for every HTTP parser of untrusted bytes: request heads and bodies (as the listener reads them,
// and strictly, as the forwarder does), response heads and bodies (as the forwarder and the sender read an
// upstream's answer), header parameters (Content-Type, Content-Disposition, RFC 8187 values) and the relayed
// head, a part's transfer encoding (base64, quoted-printable), and the server name of a TLS ClientHello (as the
// proxy reads it before a tunnel's handshake). Byte 0 picks which, byte 1 seeds the chunking, the rest is the
// input. Besides the sanitizers' findings, a message read in pieces must give the same log as read whole
// (support/http_log.h), a request head's errors must be sticky and a strict one's line ends all CRLF, a
// relayed head must parse again as a request, a part decoded in pieces must give the same
// bytes and error offset as decoded whole, and a ClientHello's prefixes must not answer otherwise than the whole.

#include "support/http_log.h"
#include "upin/core/header_params.h"
#include "upin/core/http_relay.h"
#include "upin/core/part_decoding.h"
#include "upin/core/tls_client_hello.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace upin;

namespace {

std::vector<size_t> pieces(uint8_t seed, size_t size)
{
    std::vector<size_t> out;
    uint32_t rng = seed * 2654435761u + 1;
    for (size_t total = 0; total < size;) {
        rng = rng * 1103515245u + 12345u;
        out.push_back(1 + (rng >> 16) % (seed % 32 + 1));
        total += out.back();
    }
    return out;
}

void sameEveryWay(bool response, std::string_view input, uint8_t seed, const test::HttpMessageOptions& options)
{
    auto read = response ? test::readResponse : test::readRequest;
    if (read(input, {}, options) != read(input, pieces(seed, input.size()), options))
        std::abort();
}

// The head's contract (http.h): its errors are sticky, and with strict line ends a head that parses has a LF after
// every CR and a CR before every LF.
void headContract(std::string_view input, const core::HttpLimits& limits)
{
    core::HeadReader reader(limits);
    const auto used = reader.feed(input);
    if (!used) {
        const auto again = reader.feed(input);
        if (again || again.error().code != used.error().code || again.error().offset != used.error().offset)
            std::abort();
        return;
    }
    if (!limits.strictLineEnds || !reader.complete())
        return;
    const std::string_view head = input.substr(0, *used);
    for (size_t i = 0; i < head.size(); ++i)
        if ((head[i] == '\r' && (i + 1 == head.size() || head[i + 1] != '\n')) ||
            (head[i] == '\n' && (i == 0 || head[i - 1] != '\r')))
            std::abort();
}

// A part's transfer encoding decoded whole and in pieces must give the same bytes and the same error offset.
void decodedEveryWay(std::string_view input, uint8_t seed)
{
    const auto encoding = (seed & 1) != 0 ? core::PartEncoding::Base64 : core::PartEncoding::QuotedPrintable;
    auto decode = [&](const std::vector<size_t>& sizes) {
        core::PartDecoder decoder(encoding);
        std::string out;
        size_t at = 0;
        for (size_t size : sizes) {
            if (auto r = decoder.feed(input.substr(at, size), out); !r)
                return std::make_pair(out, r.error().offset);
            at = std::min(at + size, input.size()); // the last piece may reach past the end
        }
        auto r = decoder.feed(input.substr(at), out);
        if (r)
            r = decoder.finish(out);
        return std::make_pair(out, r ? ~uint64_t(0) : r.error().offset);
    };
    const auto whole = decode({});
    if (whole != decode(pieces(seed, input.size())) || whole.first.size() > input.size())
        std::abort();
}

void relayed(std::string_view input)
{
    core::HeadReader reader;
    if (!reader.feed(input) || !reader.complete())
        return;
    core::RelayTarget target;
    target.pathPrefix = "/prefix/";
    target.upstreamHost = "upstream:1";
    target.clientAddress = "127.0.0.1";
    auto head = core::relayHead(reader.head(), target);
    if (!head)
        return;
    core::HttpLimits roomier; // three fields of ours more, and their bytes
    roomier.maxHeaderFields += 3;
    roomier.maxHeadBytes += 1024;
    core::HeadReader again(roomier); // what we send must read as one request, with the same framing
    auto used = again.feed(*head);
    if (!used || !again.complete() || *used != head->size())
        std::abort();
    auto before = core::bodyFraming(reader.head());
    auto after = core::bodyFraming(again.head());
    if (bool(before) != bool(after) ||
        (before && (before->kind != after->kind || before->contentLength != after->contentLength)))
        std::abort();
}

// The ClientHello read whole and in growing prefixes: each prefix must answer NeedMore or as the whole does (the
// proxy acts on the first answer that is not NeedMore), with an offset inside the bytes it was given; a name
// found must be one a certificate can be made for; protocols come only with a whole ClientHello, none empty.
void clientHelloEveryWay(std::string_view input, uint8_t seed)
{
    using Status = core::ClientHello::Status;
    const auto whole = core::readClientHello(input);
    auto answered = [](const core::ClientHello& r, size_t size) {
        const bool hasOffset = r.status == Status::Invalid || r.status == Status::NotTls;
        if ((hasOffset && (r.offset >= size || r.reason.empty())) || (r.status == Status::Found) == r.name.empty())
            std::abort();
    };
    answered(whole, input.size());
    const bool complete = whole.status == Status::Found || whole.status == Status::NoName;
    if ((!complete && !whole.protocols.empty()) ||
        std::any_of(whole.protocols.begin(), whole.protocols.end(), [](const auto& p) { return p.empty(); }))
        std::abort();
    if (whole.status == Status::Found &&
        (whole.name.size() > 253 || whole.name.back() == '.' ||
         whole.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-.") != std::string::npos))
        std::abort();
    size_t end = 0;
    int prefixes = 0;
    for (size_t size : pieces(seed, input.size())) {
        end = std::min(end + size, input.size());
        if (end == input.size() || ++prefixes > 512) // each prefix is read from its start: bounded, for speed
            break;
        const auto part = core::readClientHello(input.substr(0, end));
        if (part.status == Status::NeedMore)
            continue;
        answered(part, end);
        if (part.status != whole.status || part.name != whole.name || part.offset != whole.offset ||
            part.reason != whole.reason || part.protocols != whole.protocols)
            std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    const uint8_t mode = data[0] % 8;
    const uint8_t seed = data[1];
    const std::string_view input(reinterpret_cast<const char*>(data) + 2, size - 2);
    test::HttpMessageOptions options;
    options.limits.maxHeadBytes = 4096; // reachable by the fuzzer's inputs
    options.limits.maxHeaderFields = 16;
    options.limits.maxChunkExtension = 64;
    options.limits.maxTrailerBytes = 128;
    options.limits.strictLineEnds = mode == 1 || mode == 2;
    options.answersHead = (seed & 0x80) != 0;
    options.closeAtEnd = (seed & 0x40) != 0;
    options.maxInterim = 4;
    switch (mode) {
    case 0:
    case 1:
        headContract(input, options.limits);
        sameEveryWay(false, input, seed, options);
        break;
    case 2:
    case 3: sameEveryWay(true, input, seed, options); break;
    case 4: {
        const auto value = core::parseHeaderValue(input);
        (void)value.param("boundary");
        (void)core::parseContentDisposition(input);
        (void)core::decodeExtValue(input);
        break;
    }
    case 5: relayed(input); break;
    case 7: clientHelloEveryWay(input, seed); break;
    default: decodedEveryWay(input, seed); break;
    }
    return 0;
}
