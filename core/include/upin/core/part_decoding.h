#pragma once
// A part's Content-Transfer-Encoding undone (RFC 2045 6.7 quoted-printable, 6.8 base64), as a stream: a part of
// any size decodes in pieces of any size, in memory bounded by the piece. Old browsers and mail clients send
// parts this way; the raw bytes stay what a capture keeps, and this gives the bytes the sender meant on request.
//
// Contract: feed() appends the decoded bytes of each piece to out and returns an Error whose offset counts from
// the first encoded byte ever fed; after an error the decoder is stuck on it (every later call returns it) and
// out holds everything decoded before the offending byte. finish() says the encoded bytes ended: it decodes what
// was held back (a base64 group without padding, trailing white space of quoted-printable) or reports an escape
// or group cut short.
//
// What counts as an error, where RFC 2045 lets a decoder choose: in base64, any byte outside the alphabet other
// than CR, LF, space and tab, and data after the padding; in quoted-printable, '=' not followed by two hex digits
// or by a (soft) line break. Lower-case hex digits are accepted (some encoders write them). Written by hand: Qt's
// and OpenSSL's base64 decoders report no position, and neither library decodes quoted-printable.

#include "upin/core/errors.h"

#include <optional>
#include <string>

namespace upin::core {

enum class PartEncoding : uint8_t { Identity, Base64, QuotedPrintable };

// From a Content-Transfer-Encoding value, case-insensitive: 7bit, 8bit, binary and an absent value (empty) are
// Identity; nullopt for a coding RFC 2045 does not define (x-uuencode, say).
std::optional<PartEncoding> partEncodingFromName(std::string_view value);
std::string_view partEncodingName(PartEncoding encoding);

class PartDecoder {
public:
    explicit PartDecoder(PartEncoding encoding) : m_encoding(encoding) {}
    Result<void> feed(ByteView input, std::string& out);
    Result<void> finish(std::string& out);
    uint64_t consumed() const { return m_consumed; }

private:
    Result<void> fail(Errc code, uint64_t offset);
    Result<void> feedBase64(ByteView input, std::string& out);
    Result<void> feedQuotedPrintable(ByteView input, std::string& out);
    void flushSpaces(std::string& out);

    PartEncoding m_encoding;
    uint64_t m_consumed = 0;      // encoded bytes fed before the current piece
    std::optional<Error> m_error; // sticky
    uint32_t m_group = 0;         // base64: the 6-bit values of the group so far
    int m_groupSize = 0;          // base64: how many of the group's four characters have come
    int m_padding = 0;            // base64: '=' seen; data after it is an error
    int m_escape = 0;             // quoted-printable: 0 none, 1 after '=', 2 after '=X', 3 '=' then space,
                                  // 4 '=' [space] CR
    char m_escapeHex = 0;         // the X of '=X'
    uint64_t m_escapeAt = 0;      // the '=' that began it
    std::string m_spaces;         // quoted-printable: spaces and tabs held back, for trailing white space
                                  // is dropped (rule 3); past 1 KiB they are data (memory stays bounded)
};

} // namespace upin::core
