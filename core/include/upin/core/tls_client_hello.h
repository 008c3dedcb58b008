#pragma once
// The server name (SNI, RFC 6066 3) and the application protocols offered (ALPN, RFC 7301) read from the first
// bytes a TLS client sends, before its TLS handshake starts, from bytes nobody has checked yet: the forward proxy
// picks the certificate for a tunnel by the name, and the listener offers HTTP/2 only to a client that asks for it
// (Qt's server, asked for none of its protocols, would agree its first anyway, which the client refuses).
//
// Contract: readClientHello() takes everything the client has sent so far, from its first byte, and answers
// from it alone (no state between calls: a caller calls it again on the whole buffer as bytes arrive, which
// kMaxClientHelloBytes bounds). It reads only what it needs to find the name safely, not the whole ClientHello:
// the TLS library reads the same bytes again, fully, in the handshake that follows.
//
// Checked: TLS records of type 22 (handshake), version 3.x, length 1..2^14; the handshake bytes they carry,
// reassembled across records, must begin with a ClientHello (type 1) with a 24-bit length. In it, every length
// is checked against what holds it: session_id (at most 32 bytes), cipher_suites (even, at least 2 bytes),
// compression_methods (at least 1), the extensions (which must end where the ClientHello does), each extension,
// in server_name the list (which must fill its extension) and the one host_name in it, and in
// application_layer_protocol_negotiation the list (which must fill its extension, of at least one name) and each
// name in it (1 to 255 bytes, any bytes). One extension of each of the two. The host name must be
// a DNS name in ASCII: letters, digits, hyphens and dots (a NUL, a space, an underscore or a UTF-8 byte is
// Invalid; a client sends an international name as its xn-- form), no empty label, labels of at most 63
// characters, at most 253 characters. One trailing dot is dropped, and the name is lower-cased.
// Not checked: legacy_version, the random, the cipher suites' and compression methods' values, every extension
// but these two, that the name is not an IP address (RFC 6066 forbids one; a client sends none then), where a
// hyphen stands in a label, and any byte after the ClientHello's last (the rest of its record, later records).
//
// Errors are answers, not exceptions: Invalid or NotTls with the absolute offset in `bytes` (record headers
// counted) of the first wrong byte. A length that runs past what holds it is reported at that length; a field
// cut short by the end of what holds it is reported at its first byte, or at the length of what holds it when
// that ends just before the field. The bytes are read in order and an answer is given as soon as it is certain,
// so more bytes never change an answer other than NeedMore: Found and NoName come once the ClientHello's last
// byte has, Invalid once the bytes that show the error have (a name's bytes are checked once all have come).
//
// Linear time in bytes.size() however the records are cut (one handshake byte per record costs a record header
// each, no more), and no allocation per byte or per record: one for the handshake bytes when the ClientHello
// spans records (reassembled), one for the name, one per protocol, one for the reason.

#include "upin/core/enum_names.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace upin::core {

struct ClientHello {
    enum class Status : uint8_t {
        NeedMore, // a valid beginning of a ClientHello; read more bytes and call again
        Found,    // the whole ClientHello has arrived, with a host name in server_name
        NoName,   // the whole ClientHello has arrived, with no server_name (a client connecting to an IP address)
        NotTls,   // the first byte is not a TLS handshake record's (plain HTTP in a tunnel, an SSLv2-style hello)
        Invalid   // a TLS handshake record, but what it carries is not a well-formed ClientHello
    };
    Status status = Status::NeedMore;
    std::string name;   // Found: the host name as sent, ASCII, lower-cased, without a trailing dot
    size_t offset = 0;  // Invalid, NotTls: the absolute offset in the bytes read of the first wrong byte
    std::string reason; // Invalid, NotTls: what is wrong, e.g. "an extension's length runs past the ClientHello"
    std::vector<std::string> protocols; // Found, NoName: the ALPN protocols as sent, in order ("h2", "http/1.1")

    bool offers(std::string_view protocol) const;
};

ClientHello readClientHello(std::string_view bytes);

// What a caller reads before it gives up on NeedMore: a ClientHello of up to 16 KiB (a full record's worth) with
// its 4-byte handshake header, in up to 4 records (it needs 2; a client may cut records smaller). A browser's,
// post-quantum key share included, is about 2 KiB; a longer one is a client resuming with many PSK identities.
// TLS allows up to 128 KiB, but a proxy that waited for that much from a client that never finishes, or that
// sends one handshake byte per record, would hold the tunnel and its buffer for nothing.
inline constexpr size_t kMaxClientHelloBytes = 16 * 1024 + 4 + 4 * 5;

inline constexpr EnumNames<ClientHello::Status, 5> kClientHelloStatusNames{
    {{{ClientHello::Status::NeedMore, "need_more"},
      {ClientHello::Status::Found, "found"},
      {ClientHello::Status::NoName, "no_name"},
      {ClientHello::Status::NotTls, "not_tls"},
      {ClientHello::Status::Invalid, "invalid"}}}};

} // namespace upin::core
