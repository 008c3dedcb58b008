#include "upin/core/tls_client_hello.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace upin::core {
namespace {

using Status = ClientHello::Status;

constexpr uint8_t kHandshakeRecord = 22;
constexpr uint8_t kClientHelloType = 1;
constexpr size_t kRecordHeader = 5;
constexpr size_t kMaxRecordLength = size_t{1} << 14; // RFC 8446 5.1: a plaintext record's fragment
constexpr size_t kHandshakeHeader = 4;               // type and 24-bit length
constexpr uint32_t kServerNameExtension = 0;
constexpr uint32_t kHostNameType = 0;
constexpr uint32_t kAlpnExtension = 16;
constexpr uint32_t kMaxSessionId = 32;
constexpr size_t kMaxLabel = 63; // RFC 1035 2.3.4
constexpr size_t kMaxName = 253; // the same, written as text without the trailing dot

// Where reading stopped: with NeedMore when the bytes ran out, else with the answer. `at` counts from the first
// handshake byte while the ClientHello is read, from the first input byte while the records are.
struct Stop {
    Status status = Status::NeedMore;
    size_t at = 0;
    std::string_view reason;
};

uint32_t bigEndian(std::string_view bytes, size_t at, size_t n)
{
    uint32_t value = 0;
    for (size_t i = 0; i < n; ++i)
        value = value << 8 | static_cast<uint8_t>(bytes[at + i]);
    return value;
}

// The record header at `at`, byte by byte, so that a wrong byte is reported even before the header is whole.
// False with `stop` set when it is wrong (Invalid) or cut short by the input's end (NeedMore).
bool recordHeader(std::string_view in, size_t at, Stop& stop)
{
    auto fail = [&](size_t offset, std::string_view reason) {
        stop = {Status::Invalid, offset, reason};
        return false;
    };
    const size_t left = in.size() - at;
    if (static_cast<uint8_t>(in[at]) != kHandshakeRecord) // the first record's type was checked as NotTls
        return fail(at, "a record that is not a handshake record before the ClientHello's end");
    if (left > 1 && in[at + 1] != 3)
        return fail(at + 1, "a record version that is not 3.x");
    // 3.0 (SSL 3.0) to 3.4 exist, and clients send 3.1 or 3.3 here (RFC 8446 5.1); any 3.0x passes: the TLS
    // library judges the version, this only that the bytes look like a TLS record's.
    if (left > 2 && (static_cast<uint8_t>(in[at + 2]) & 0xf0) != 0)
        return fail(at + 2, "a record version that is not 3.x");
    if (left < kRecordHeader)
        return false; // NeedMore
    const size_t length = bigEndian(in, at + 3, 2);
    if (length == 0) // RFC 8446 5.1 forbids them; 5 bytes of input each that carry nothing
        return fail(at + 3, "an empty handshake record");
    if (length > kMaxRecordLength)
        return fail(at + 3, "a record length over 2^14");
    return true;
}

// The handshake bytes the records carry, up to the ClientHello's end once its header says where that is: a view of
// the input while they come from one record, else copied into scratch (reserved once: linear however many
// records). `stop` says why reading stopped short of the end: the input ran out, or a record header is wrong.
std::string_view handshakeBytes(std::string_view in, std::string& scratch, Stop& stop)
{
    std::string_view hs;
    bool copied = false;
    size_t wanted = std::numeric_limits<size_t>::max(); // the handshake message's bytes, header included
    for (size_t at = 0; at < in.size() && hs.size() < wanted;) {
        if (!recordHeader(in, at, stop))
            break;
        const size_t length = bigEndian(in, at + 3, 2);
        const std::string_view fragment = in.substr(at + kRecordHeader, std::min(length, wanted - hs.size()));
        if (hs.empty()) {
            hs = fragment;
        } else {
            if (!copied) {
                scratch.reserve(in.size());
                scratch.assign(hs);
                copied = true;
            }
            scratch.append(fragment);
            hs = scratch;
        }
        if (hs.size() >= kHandshakeHeader)
            wanted = kHandshakeHeader + bigEndian(hs, 1, 3);
        at += kRecordHeader + length;
    }
    return hs.substr(0, std::min(hs.size(), wanted)); // the first record may carry more than the ClientHello
}

// The input offset of a handshake byte, found by walking the record headers again (once per answer).
size_t inputOffset(std::string_view in, size_t hsOffset)
{
    size_t at = 0;
    while (at + kRecordHeader <= in.size()) {
        const size_t length = bigEndian(in, at + 3, 2);
        if (hsOffset < length)
            break;
        hsOffset -= length;
        at += kRecordHeader + length;
    }
    return at + kRecordHeader + hsOffset;
}

// What holds the fields being read: where it ends in the handshake bytes, and where its length field is.
struct Holder {
    size_t end;
    size_t lengthAt;
};

// Reads the handshake bytes in order. Each read first checks that the field lies inside what holds it, then
// that its bytes have come: so a prefix of the input stops where the whole would, or earlier with NeedMore.
class Cursor {
public:
    explicit Cursor(std::string_view hs) : m_hs(hs) {}
    size_t pos() const { return m_pos; }
    const Stop& stop() const { return m_stop; }
    std::string_view readSince(size_t from) const { return m_hs.substr(from, m_pos - from); }

    bool fail(size_t at, std::string_view reason)
    {
        m_stop = {Status::Invalid, at, reason};
        return false;
    }
    // An n-byte big-endian number (n <= 4) inside `holder`; `tooShort` says what is wrong when it is not.
    bool number(size_t n, const Holder& holder, uint32_t& out, std::string_view tooShort)
    {
        if (!fits(n, holder, tooShort))
            return false;
        out = bigEndian(m_hs, m_pos, n);
        m_pos += n;
        return true;
    }
    bool skip(size_t n, const Holder& holder, std::string_view tooShort)
    {
        if (!fits(n, holder, tooShort))
            return false;
        m_pos += n;
        return true;
    }
    // The `length` bytes counted by the length field at lengthAt, which must end inside `outer`.
    bool counted(size_t length, size_t lengthAt, const Holder& outer, Holder& inner, std::string_view runsPast)
    {
        if (length > outer.end - m_pos)
            return fail(lengthAt, runsPast);
        inner = {m_pos + length, lengthAt};
        return true;
    }

private:
    // A field cut short by its holder's end is wrong at its first byte, or at the holder's length when the holder
    // ends right before it (the byte after may not be the ClientHello's, or not have come).
    bool fits(size_t n, const Holder& holder, std::string_view tooShort)
    {
        if (n <= holder.end - m_pos) {
            if (n <= m_hs.size() - m_pos)
                return true;
            m_stop = {};
            return false;
        }
        if (m_pos == holder.end)
            return fail(holder.lengthAt, tooShort);
        if (m_pos < m_hs.size())
            return fail(m_pos, tooShort);
        m_stop = {};
        return false;
    }

    std::string_view m_hs;
    size_t m_pos = 0;
    Stop m_stop;
};

// The handshake header and the ClientHello's fields before its extensions (RFC 8446 4.1.2, RFC 5246 7.4.1.2).
bool readUpToExtensions(Cursor& c, Holder& hello)
{
    const Holder header{std::numeric_limits<size_t>::max(), 0};
    uint32_t type = 0;
    uint32_t length = 0;
    if (!c.number(1, header, type, {}))
        return false;
    if (type != kClientHelloType)
        return c.fail(0, "the handshake message is not a ClientHello");
    if (!c.number(3, header, length, {}))
        return false;
    hello = {c.pos() + length, 1};
    if (!c.skip(2 + 32, hello, "the ClientHello is too short for its version and random"))
        return false;
    Holder field{};
    size_t at = c.pos();
    if (!c.number(1, hello, length, "the ClientHello is too short for its session_id length"))
        return false;
    if (length > kMaxSessionId)
        return c.fail(at, "a session_id longer than 32 bytes");
    if (!c.counted(length, at, hello, field, "the session_id runs past the ClientHello") || !c.skip(length, field, {}))
        return false;
    at = c.pos();
    if (!c.number(2, hello, length, "the ClientHello is too short for its cipher_suites length"))
        return false;
    if (length < 2 || length % 2 != 0)
        return c.fail(at, "a cipher_suites length that is odd or 0");
    if (!c.counted(length, at, hello, field, "the cipher_suites run past the ClientHello") ||
        !c.skip(length, field, {}))
        return false;
    at = c.pos();
    if (!c.number(1, hello, length, "the ClientHello is too short for its compression_methods length"))
        return false;
    if (length == 0)
        return c.fail(at, "no compression_methods");
    return c.counted(length, at, hello, field, "the compression_methods run past the ClientHello") &&
           c.skip(length, field, {});
}

// A host name checked as a DNS name (see the header); name gets it lower-cased, without its trailing dot.
bool readHostName(Cursor& c, size_t length, size_t lengthAt, const Holder& list, std::string& name)
{
    Holder field{};
    if (length == 0)
        return c.fail(lengthAt, "an empty host name");
    if (!c.counted(length, lengthAt, list, field, "the host name runs past the server_name list"))
        return false;
    if (length > kMaxName + 1)
        return c.fail(lengthAt, "a host name longer than 253 characters");
    const size_t start = c.pos();
    if (!c.skip(length, field, {}))
        return false;
    std::string_view raw = c.readSince(start);
    size_t label = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
        const char ch = raw[i];
        if (ch == '.') {
            if (label == 0)
                return c.fail(start + i, "an empty label in the host name");
            label = 0;
        } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-') {
            if (++label > kMaxLabel)
                return c.fail(start + i, "a host name label longer than 63 characters");
        } else {
            return c.fail(start + i, ch == '\0' ? "a NUL in the host name"
                                                : "a host name byte that is not a letter, digit, hyphen or dot");
        }
    }
    if (raw.back() == '.')
        raw.remove_suffix(1);
    if (raw.size() > kMaxName)
        return c.fail(lengthAt, "a host name longer than 253 characters");
    name.resize(raw.size());
    std::transform(raw.begin(), raw.end(), name.begin(),
                   [](char ch) { return ch >= 'A' && ch <= 'Z' ? char(ch - 'A' + 'a') : ch; });
    return true;
}

// server_name's extension_data (RFC 6066 3): a list that fills it, holding one host_name. Other name types are
// refused as OpenSSL refuses them: no other was ever defined, and their length's form is not known.
bool readServerName(Cursor& c, const Holder& extension, std::string& name)
{
    const size_t at = c.pos();
    uint32_t length = 0;
    Holder list{};
    if (!c.number(2, extension, length, "the server_name extension is too short for its list length"))
        return false;
    if (length == 0)
        return c.fail(at, "an empty server_name list");
    if (!c.counted(length, at, extension, list, "the server_name list runs past its extension"))
        return false;
    if (list.end != extension.end)
        return c.fail(at, "the server_name list ends before its extension");
    while (c.pos() < list.end) {
        const size_t entryAt = c.pos();
        uint32_t entry = 0; // name_type and the name's 16-bit length
        if (!c.number(3, list, entry, "the server_name list is too short for a name's type and length"))
            return false;
        if (entry >> 16 != kHostNameType)
            return c.fail(entryAt, "a server name whose type is not host_name");
        if (!name.empty())
            return c.fail(entryAt, "a second host_name in the server_name list");
        if (!readHostName(c, entry & 0xffff, entryAt + 1, list, name))
            return false;
    }
    return true;
}

// application_layer_protocol_negotiation's extension_data (RFC 7301 3.1): a list that fills it, of names of 1 to
// 255 bytes, at least one (OpenSSL refuses the handshake otherwise: so does this, before it).
bool readProtocols(Cursor& c, const Holder& extension, std::vector<std::string>& protocols)
{
    const size_t at = c.pos();
    uint32_t length = 0;
    Holder list{};
    if (!c.number(2, extension, length, "the ALPN extension is too short for its list length"))
        return false;
    if (length == 0)
        return c.fail(at, "an empty ALPN protocol list");
    if (!c.counted(length, at, extension, list, "the ALPN protocol list runs past its extension"))
        return false;
    if (list.end != extension.end)
        return c.fail(at, "the ALPN protocol list ends before its extension");
    while (c.pos() < list.end) {
        const size_t nameAt = c.pos();
        Holder name{};
        if (!c.number(1, list, length, {}))
            return false;
        if (length == 0)
            return c.fail(nameAt, "an empty ALPN protocol name");
        if (!c.counted(length, nameAt, list, name, "an ALPN protocol name runs past the list") ||
            !c.skip(length, name, {}))
            return false;
        protocols.emplace_back(c.readSince(nameAt + 1));
    }
    return true;
}

// The extensions, which must end where the ClientHello does; server_name and ALPN are read, the others skipped.
bool readExtensions(Cursor& c, const Holder& hello, ClientHello& out)
{
    const size_t at = c.pos();
    uint32_t length = 0;
    Holder extensions{};
    if (!c.number(2, hello, length, "the ClientHello is too short for its extensions length") ||
        !c.counted(length, at, hello, extensions, "the extensions length runs past the ClientHello"))
        return false;
    if (extensions.end != hello.end)
        return c.fail(at, "the extensions length ends them before the ClientHello's end");
    bool seenName = false;
    bool seenAlpn = false;
    while (c.pos() < extensions.end) {
        const size_t typeAt = c.pos();
        uint32_t header = 0; // extension_type and the 16-bit length of extension_data
        Holder extension{};
        if (!c.number(4, extensions, header, "the extensions are too short for an extension's type and length") ||
            !c.counted(header & 0xffff, typeAt + 2, extensions, extension,
                       "an extension's length runs past the ClientHello"))
            return false;
        const uint32_t type = header >> 16;
        // RFC 8446 4.2: one extension of each type; a relay and a server could read different ones
        if (type == kServerNameExtension) {
            if (std::exchange(seenName, true))
                return c.fail(typeAt, "a second server_name extension");
            if (!readServerName(c, extension, out.name))
                return false;
        } else if (type == kAlpnExtension) {
            if (std::exchange(seenAlpn, true))
                return c.fail(typeAt, "a second ALPN extension");
            if (!readProtocols(c, extension, out.protocols))
                return false;
        } else if (!c.skip(header & 0xffff, extension, {})) {
            return false;
        }
    }
    return true;
}

std::string_view notTlsReason(uint8_t first)
{
    if ((first & 0x80) != 0) // SSL 2.0's two-byte record header: its length with the top bit set
        return "an SSLv2-style record header where a TLS record should begin";
    if (first >= 'A' && first <= 'Z')
        return "text where a TLS record should begin (plain HTTP?)";
    return "a first byte that is not a TLS handshake record's (22)";
}

} // namespace

bool ClientHello::offers(std::string_view protocol) const
{
    return std::find(protocols.begin(), protocols.end(), protocol) != protocols.end();
}

ClientHello readClientHello(std::string_view bytes)
{
    ClientHello out;
    if (bytes.empty())
        return out;
    if (static_cast<uint8_t>(bytes[0]) != kHandshakeRecord) {
        out.status = Status::NotTls;
        out.reason = notTlsReason(static_cast<uint8_t>(bytes[0]));
        return out;
    }
    std::string scratch;
    Stop records;
    Cursor c(handshakeBytes(bytes, scratch, records));
    Holder hello{};
    if (readUpToExtensions(c, hello) && (c.pos() == hello.end || readExtensions(c, hello, out))) {
        // TLS 1.2 and older may end the ClientHello after compression_methods: no extensions, no name
        out.status = out.name.empty() ? Status::NoName : Status::Found;
        return out;
    }
    out.name.clear(); // what was read before the error or the input's end is no answer
    out.protocols.clear();
    Stop stop = c.stop();
    if (stop.status == Status::Invalid)
        stop.at = inputOffset(bytes, stop.at);
    else // the handshake bytes ran out: because the input did, or at a wrong record header
        stop = records;
    out.status = stop.status;
    out.offset = stop.at;
    out.reason = stop.reason;
    return out;
}

} // namespace upin::core
