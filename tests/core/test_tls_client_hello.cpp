// readClientHello: real ClientHellos whole, at every split point and cut into records; each length field
// wrong, with the offset of the first wrong byte; and hostile record cutting. Every input is also read in every
// prefix, each of which must give NeedMore or the whole's answer (what the proxy sees as the bytes come in).

#include "upin/core/tls_client_hello.h"

#include <catch2/catch.hpp>

using namespace upin::core;
using Status = ClientHello::Status;

namespace Catch {
template <>
struct StringMaker<Status> {
    static std::string convert(Status status) { return std::string(kClientHelloStatusNames.name(status)); }
};
} // namespace Catch

namespace {

// Captured on this machine, each the bytes one client sent to a Python listener on 127.0.0.1 (accept, recv until
// the records hold the whole ClientHello, close), from:
//   openssl s_client -connect 127.0.0.1:PORT -servername upload.example   (OpenSSL 3.0.19, TLS 1.3)
//   curl https://upload.example:PORT --resolve upload.example:PORT:127.0.0.1   (curl 7.88.1: ALPN and padding)
//   openssl s_client -connect 127.0.0.1:PORT -noservername
//   openssl s_client -connect 127.0.0.1:PORT -servername upload.example -tls1_2
//   a Go 1.19 crypto/tls client: tls.Dial("tcp", addr, &tls.Config{ServerName: "upload.example"})
const char* const kOpenSsl =
    "160301013b0100013703039e2124644c263bacd155317b7c3a7cae495fd33dbcc6b0d8f632af8f07a5740c204bf5cc8475d7080d67e60404"
    "1a824860527c5ac8b5928f69cd6e7bfea16627df003e130213031301c02cc030009fcca9cca8ccaac02bc02f009ec024c028006bc023c027"
    "0067c00ac0140039c009c0130033009d009c003d003c0035002f00ff010000b000000013001100000e75706c6f61642e6578616d706c6500"
    "0b000403000102000a00160014001d0017001e0019001801000101010201030104002300000016000000170000000d002a00280403050306"
    "03080708080809080a080b080408050806040105010601030303010302040205020602002b0009080304030303020301002d000201010033"
    "00260024001d002095cb17924f0f0cf94f26022d2ad6205ad3dde91e0b0675d636010f1a8d0c6608";
const char* const kCurl =
    "1603010200010001fc03034b0364e00c0c48bf1650e4814fdc841435117437353af6cd97351a3e5ba3cac9209d93b31d603c79233266c946"
    "06f4751b4e443cd5a4c7cd1764a94caaf5f15732003e130213031301c02cc030009fcca9cca8ccaac02bc02f009ec024c028006bc023c027"
    "0067c00ac0140039c009c0130033009d009c003d003c0035002f00ff0100017500000013001100000e75706c6f61642e6578616d706c6500"
    "0b000403000102000a00160014001d0017001e00190018010001010102010301040010000e000c02683208687474702f312e310016000000"
    "17000000310000000d002a0028040305030603080708080809080a080b080408050806040105010601030303010302040205020602002b00"
    "09080304030303020301002d00020101003300260024001d0020eb4077e1b1fd30a6089f55218d71a98c197c5954671aafa774ef36a6045a"
    "501e001500af0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000";
const char* const kOpenSslNoName =
    "160301012401000120030365f875db73c08f99ef648439d6a0b4038bad47521fac06cf55b0bfb47a573c3520611b48e37631cfe8693c8344"
    "ab432f8d32685a56dc4e98b186522703aec3a04f003e130213031301c02cc030009fcca9cca8ccaac02bc02f009ec024c028006bc023c027"
    "0067c00ac0140039c009c0130033009d009c003d003c0035002f00ff01000099000b000403000102000a00160014001d0017001e00190018"
    "01000101010201030104002300000016000000170000000d002a0028040305030603080708080809080a080b080408050806040105010601"
    "030303010302040205020602002b0009080304030303020301002d00020101003300260024001d0020a9d1967c1db92abd74789db0fd167c"
    "d0597f203cf2ee59d8da0c03ab37182958";
const char* const kOpenSslTls12 =
    "16030100ce010000ca0303116ed966781c64644f95f401aeb68ae94bd1fbc26087e254f7ae83323cc11dbf000038c02cc030009fcca9cca8"
    "ccaac02bc02f009ec024c028006bc023c0270067c00ac0140039c009c0130033009d009c003d003c0035002f00ff01000069000000130011"
    "00000e75706c6f61642e6578616d706c65000b000403000102000a000c000a001d0017001e00190018002300000016000000170000000d00"
    "2a0028040305030603080708080809080a080b080408050806040105010601030303010302040205020602";
const char* const kGo =
    "1603010101010000fd0303f88495f4c564863cbe408021fa473f37034a470fe36352aae82df218941ef3502061054c4332d26cf67762a9b3"
    "fe020be10b2f1e80838ec67adaf5cccb4b5e66590026c02bc02fc02cc030cca9cca8c009c013c00ac014009c009d002f0035c012000a1301"
    "130213030100008e00000013001100000e75706c6f61642e6578616d706c65000500050100000000000a000a0008001d001700180019000b"
    "00020100000d001a0018080404030807080508060401050106010503060302010203ff0100010000120000002b0005040304030300330026"
    "0024001d002080de38b8398277139e59786a08882fa970824cf1de7bf88a969c854056c62229";

std::string fromHex(std::string_view hex)
{
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2)
        out += char(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
    return out;
}

std::string bigEndian(size_t value, int bytes)
{
    std::string out;
    for (int i = bytes - 1; i >= 0; --i)
        out += char((value >> (8 * i)) & 0xff);
    return out;
}

// The handshake bytes cut into handshake records of at most `size` bytes each.
std::string records(std::string_view handshake, size_t size)
{
    std::string out;
    for (size_t at = 0; at < handshake.size(); at += size) {
        const auto fragment = handshake.substr(at, size);
        out += "\x16\x03\x01" + bigEndian(fragment.size(), 2) + std::string(fragment);
    }
    return out;
}

std::string extension(int type, std::string_view data)
{
    return bigEndian(type, 2) + bigEndian(data.size(), 2) + std::string(data);
}

std::string serverName(std::string_view name)
{
    return extension(0, bigEndian(name.size() + 3, 2) + '\0' + bigEndian(name.size(), 2) + std::string(name));
}

// A ClientHello's handshake message; the offsets the tests name are those of hello(...) in one record:
// 0 record header, 5 handshake type, 6 its length, 9 version, 11 random, 43 session_id length, 44 cipher_suites
// length, 48 compression_methods length, 50 extensions length, 52 the first extension (54 its length; for
// server_name: 56 the list length, 58 the name type, 59 the name length, 61 the name).
std::string handshake(std::string_view extensions, bool withExtensions = true, std::string_view suites = "\x13\x01")
{
    std::string body =
        "\x03\x03" + std::string(32, 'r') + '\0' + bigEndian(suites.size(), 2) + std::string(suites) + '\x01' + '\0';
    if (withExtensions)
        body += bigEndian(extensions.size(), 2) + std::string(extensions);
    return '\x01' + bigEndian(body.size(), 3) + body;
}

std::string hello(std::string_view extensions)
{
    return records(handshake(extensions), 1 << 14);
}

std::string patched(std::string bytes, size_t at, std::string_view with)
{
    return bytes.replace(at, with.size(), with);
}

std::string verdict(const ClientHello& r)
{
    std::string out(kClientHelloStatusNames.name(r.status));
    if (r.status == Status::Found)
        out += " " + r.name;
    if (r.status == Status::Invalid || r.status == Status::NotTls)
        out += " at " + std::to_string(r.offset) + ": " + r.reason;
    for (size_t i = 0; i < r.protocols.size(); ++i)
        out += (i == 0 ? " alpn " : ",") + r.protocols[i];
    return out;
}

// The whole's verdict, after checking that every prefix gives NeedMore or the same verdict, and that an offset
// reported lies inside the bytes read.
std::string readEveryWay(std::string_view bytes)
{
    std::string whole = verdict(readClientHello(bytes));
    for (size_t size = 0; size < bytes.size(); ++size) {
        const auto r = readClientHello(bytes.substr(0, size));
        if (r.status != Status::NeedMore) {
            INFO("prefix of " << size << " bytes");
            REQUIRE(verdict(r) == whole);
            REQUIRE(r.offset < size);
        }
    }
    return whole;
}

} // namespace

TEST_CASE("real ClientHellos give their name whole, and NeedMore at every split point before", "[tls][client-hello]")
{
    const std::pair<const char*, std::string> goldens[] = {{kOpenSsl, "found upload.example"},
                                                           {kCurl, "found upload.example alpn h2,http/1.1"},
                                                           {kOpenSslTls12, "found upload.example"},
                                                           {kGo, "found upload.example"},
                                                           {kOpenSslNoName, "no_name"}}; // as a client of an IP
    for (const auto& [hex, expected] : goldens) {
        const std::string bytes = fromHex(hex);
        for (size_t size = 0; size < bytes.size(); ++size)
            REQUIRE(readClientHello(std::string_view(bytes).substr(0, size)).status == Status::NeedMore);
        CHECK(verdict(readClientHello(bytes)) == expected);
        CHECK(verdict(readClientHello(bytes + fromHex("140303000101"))) == expected); // what follows is not read
    }
}

TEST_CASE("a ClientHello cut into several handshake records is reassembled", "[tls][client-hello]")
{
    const std::string curl = fromHex(kCurl).substr(5); // the handshake message, without its record header
    for (size_t cut = 1; cut < curl.size(); ++cut) {
        const std::string two = records(curl.substr(0, cut), cut) + records(curl.substr(cut), curl.size());
        REQUIRE(verdict(readClientHello(two)) == "found upload.example alpn h2,http/1.1");
        if (cut < 6 || cut % 97 == 0) // the handshake header split, and a few more, read in every prefix too
            CHECK(readEveryWay(two) == "found upload.example alpn h2,http/1.1");
    }
    for (size_t size : {1, 2, 3, 7, 64, 200})
        CHECK(readEveryWay(records(curl, size)) == "found upload.example alpn h2,http/1.1");
    // the record that ends the ClientHello may carry more, and later records be anything: neither is read
    CHECK(readEveryWay(records(curl + "more", 300) + fromHex("1703030000")) == "found upload.example alpn h2,http/1.1");
}

TEST_CASE("a ClientHello without server_name, or without extensions, has no name", "[tls][client-hello]")
{
    CHECK(readEveryWay(hello(extension(10, fromHex("0002001d")))) == "no_name");
    CHECK(readEveryWay(hello("")) == "no_name");
    CHECK(readEveryWay(records(handshake("", false), 100)) == "no_name"); // TLS 1.2 allows none at all
}

TEST_CASE("plain HTTP and an SSLv2-style hello are not TLS", "[tls][client-hello]")
{
    CHECK(readEveryWay("GET / HTTP/1.1\r\n") == "not_tls at 0: text where a TLS record should begin (plain HTTP?)");
    // SSL 2.0 framing of a TLS 1.0 hello: 2-byte length with the top bit set, type 1, version 3.1, then lengths
    const std::string sslv2 = fromHex("802e010301001500000010") + std::string(21, '\x01') + std::string(16, 'c');
    CHECK(readEveryWay(sslv2) == "not_tls at 0: an SSLv2-style record header where a TLS record should begin");
    CHECK(readClientHello("").status == Status::NeedMore);
}

TEST_CASE("wrong record headers are invalid at their first wrong byte", "[tls][client-hello]")
{
    const std::string good = hello(serverName("upload.example"));
    CHECK(readEveryWay(patched(good, 3, "\x40\x01")) == "invalid at 3: a record length over 2^14");
    CHECK(readEveryWay(patched(good, 3, std::string(2, '\0'))) == "invalid at 3: an empty handshake record");
    CHECK(readEveryWay(patched(good, 1, "\x02")) == "invalid at 1: a record version that is not 3.x");
    CHECK(readEveryWay(patched(good, 2, "\x10")) == "invalid at 2: a record version that is not 3.x");
    // in the second record: its offsets count the first record, header and all
    const std::string hs = handshake(serverName("upload.example"));
    const std::string two = records(hs, 20);
    CHECK(readEveryWay(patched(two, 25, "\x15")) ==
          "invalid at 25: a record that is not a handshake record before the ClientHello's end");
    CHECK(readEveryWay(patched(two, 28, "\x40\x01")) == "invalid at 28: a record length over 2^14");
}

TEST_CASE("a handshake message other than a ClientHello, or too short for its fields, is invalid",
          "[tls][client-hello]")
{
    const std::string good = hello(serverName("upload.example"));
    CHECK(readEveryWay(patched(good, 5, "\x02")) == "invalid at 5: the handshake message is not a ClientHello");
    // a length that leaves no room for the first field is wrong itself, one that cuts a field short at its byte
    CHECK(readEveryWay(records(std::string("\x01\0\0\0", 4), 4)) ==
          "invalid at 6: the ClientHello is too short for its version and random");
    CHECK(readEveryWay(records(std::string("\x01\0\0\x02\x03\x03", 6), 6)) ==
          "invalid at 9: the ClientHello is too short for its version and random");
    CHECK(readEveryWay(records(std::string("\x01\0\0\x22\x03\x03", 6) + std::string(32, 'r'), 64)) ==
          "invalid at 6: the ClientHello is too short for its session_id length");
}

TEST_CASE("each length of the ClientHello is checked where it stands", "[tls][client-hello]")
{
    const std::string good = hello(serverName("upload.example"));
    CHECK(readEveryWay(patched(good, 43, "\x21")) == "invalid at 43: a session_id longer than 32 bytes");
    CHECK(readEveryWay(patched(good, 43, "\x20")) == "invalid at 43: the session_id runs past the ClientHello");
    CHECK(readEveryWay(patched(good, 44, std::string("\0\x03", 2))) ==
          "invalid at 44: a cipher_suites length that is odd or 0");
    CHECK(readEveryWay(patched(good, 44, std::string(2, '\0'))) ==
          "invalid at 44: a cipher_suites length that is odd or 0");
    CHECK(readEveryWay(patched(good, 44, fromHex("1000"))) ==
          "invalid at 44: the cipher_suites run past the ClientHello");
    CHECK(readEveryWay(patched(good, 48, std::string(1, '\0'))) == "invalid at 48: no compression_methods");
    CHECK(readEveryWay(patched(good, 48, "\x50")) == "invalid at 48: the compression_methods run past the ClientHello");
    const std::string length = bigEndian(serverName("upload.example").size() + 1, 2);
    CHECK(readEveryWay(patched(good, 50, length)) == "invalid at 50: the extensions length runs past the ClientHello");
    CHECK(readEveryWay(patched(good, 50, std::string("\0\x04", 2))) ==
          "invalid at 50: the extensions length ends them before the ClientHello's end");
    CHECK(readEveryWay(patched(good, 54, fromHex("0100"))) ==
          "invalid at 54: an extension's length runs past the ClientHello");
}

TEST_CASE("an extension header cut short by the extensions' end is invalid at its first byte", "[tls][client-hello]")
{
    const std::string sni = serverName("upload.example"); // 23 bytes: the stray bytes start at 52 + 23
    for (size_t stray = 1; stray < 4; ++stray)
        CHECK(readEveryWay(hello(sni + std::string(stray, '\x17'))) ==
              "invalid at 75: the extensions are too short for an extension's type and length");
    CHECK(readEveryWay(hello("\x17")) ==
          "invalid at 52: the extensions are too short for an extension's type and length");
}

TEST_CASE("the server_name list and its host name are checked", "[tls][client-hello]")
{
    const std::string good = hello(serverName("upload.example"));
    CHECK(readEveryWay(patched(good, 56, std::string("\0\x12", 2))) ==
          "invalid at 56: the server_name list runs past its extension");
    CHECK(readEveryWay(patched(good, 56, std::string("\0\x10", 2))) ==
          "invalid at 56: the server_name list ends before its extension");
    CHECK(readEveryWay(hello(extension(0, std::string(2, '\0')))) == "invalid at 56: an empty server_name list");
    CHECK(readEveryWay(hello(extension(0, ""))) ==
          "invalid at 54: the server_name extension is too short for its list length");
    CHECK(readEveryWay(hello(extension(0, std::string("\0\x02\0\0", 4)))) ==
          "invalid at 58: the server_name list is too short for a name's type and length");
    CHECK(readEveryWay(patched(good, 59, std::string(2, '\0'))) == "invalid at 59: an empty host name");
    CHECK(readEveryWay(patched(good, 59, std::string("\0\x0f", 2))) ==
          "invalid at 59: the host name runs past the server_name list");
    CHECK(readEveryWay(patched(good, 58, "\x01")) == "invalid at 58: a server name whose type is not host_name");
    CHECK(readEveryWay(hello(serverName("upload example"))) ==
          "invalid at 67: a host name byte that is not a letter, digit, hyphen or dot");
    CHECK(readEveryWay(hello(serverName(std::string("upload\0example", 14)))) ==
          "invalid at 67: a NUL in the host name");
    CHECK(readEveryWay(hello(serverName("up_load.example"))) ==
          "invalid at 63: a host name byte that is not a letter, digit, hyphen or dot");
    CHECK(readEveryWay(hello(serverName("b\xc3\xbcro.example"))) ==
          "invalid at 62: a host name byte that is not a letter, digit, hyphen or dot");
}

std::string alpn(std::string_view names)
{
    return extension(16, bigEndian(names.size(), 2) + std::string(names));
}

TEST_CASE("the ALPN protocols are read in order, and their list and names are checked", "[tls][client-hello]")
{
    const std::string h2 = std::string("\x02h2", 3), http11 = std::string("\x08http/1.1", 9);
    CHECK(readEveryWay(hello(alpn(h2 + http11))) == "no_name alpn h2,http/1.1");
    CHECK(readEveryWay(hello(serverName("a.example") + alpn(http11))) == "found a.example alpn http/1.1");
    const ClientHello offered = readClientHello(hello(alpn(http11 + h2)));
    CHECK(offered.offers("h2"));
    CHECK_FALSE(offered.offers("h2c"));
    CHECK_FALSE(readClientHello(hello(alpn(std::string("\x08http/1.0", 9)))).offers("http/1.1"));
    CHECK(readEveryWay(hello(extension(16, ""))) ==
          "invalid at 54: the ALPN extension is too short for its list length");
    CHECK(readEveryWay(hello(extension(16, std::string(2, '\0')))) == "invalid at 56: an empty ALPN protocol list");
    CHECK(readEveryWay(hello(extension(16, bigEndian(4, 2) + h2))) ==
          "invalid at 56: the ALPN protocol list runs past its extension");
    CHECK(readEveryWay(hello(extension(16, bigEndian(2, 2) + h2))) ==
          "invalid at 56: the ALPN protocol list ends before its extension");
    CHECK(readEveryWay(hello(alpn(std::string("\0", 1) + h2))) == "invalid at 58: an empty ALPN protocol name");
    CHECK(readEveryWay(hello(alpn("\x05h2"))) == "invalid at 58: an ALPN protocol name runs past the list");
    CHECK(readEveryWay(hello(alpn(h2) + alpn(h2))) == "invalid at 61: a second ALPN extension");
}

TEST_CASE("one name only: a second host_name or server_name extension is invalid", "[tls][client-hello]")
{
    const std::string name = std::string(1, '\0') + bigEndian(1, 2) + "a";
    CHECK(readEveryWay(hello(extension(0, bigEndian(8, 2) + name + name))) ==
          "invalid at 62: a second host_name in the server_name list");
    const std::string sni = serverName("a.example"); // 18 bytes
    CHECK(readEveryWay(hello(sni + extension(10, "xy") + sni)) == "invalid at 76: a second server_name extension");
}

TEST_CASE("host names are lower-cased, lose a trailing dot, and must be DNS names", "[tls][client-hello]")
{
    CHECK(readEveryWay(hello(serverName("Upload.EXAMPLE."))) == "found upload.example");
    CHECK(readEveryWay(hello(serverName("xn--bro-hoa.example"))) == "found xn--bro-hoa.example");
    CHECK(readEveryWay(hello(serverName("a"))) == "found a");
    CHECK(readEveryWay(hello(serverName("."))) == "invalid at 61: an empty label in the host name");
    CHECK(readEveryWay(hello(serverName("a..b"))) == "invalid at 63: an empty label in the host name");
    CHECK(readEveryWay(hello(serverName("a.example.."))) == "invalid at 71: an empty label in the host name");
    CHECK(readEveryWay(hello(serverName(std::string(63, 'a') + ".b"))) == "found " + std::string(63, 'a') + ".b");
    CHECK(readEveryWay(hello(serverName(std::string(64, 'a')))) ==
          "invalid at 124: a host name label longer than 63 characters");
    std::string longest; // 3 labels of 63 and one of 61: 253 characters
    for (int i = 0; i < 3; ++i)
        longest += std::string(63, 'a') + '.';
    longest += std::string(61, 'b');
    REQUIRE(longest.size() == 253);
    CHECK(readEveryWay(hello(serverName(longest + "."))) == "found " + longest);
    CHECK(readEveryWay(hello(serverName(longest + "b"))) == "invalid at 59: a host name longer than 253 characters");
    CHECK(readEveryWay(hello(serverName(longest + "b."))) == "invalid at 59: a host name longer than 253 characters");
}

TEST_CASE("an error in a later record counts the record headers before it", "[tls][client-hello]")
{
    const std::string split = records(handshake(serverName("upload example")), 40);
    // handshake offset 62 (61 - 5 + 6: the space) lies in the second record, after two record headers
    CHECK(readEveryWay(split) == "invalid at 72: a host name byte that is not a letter, digit, hyphen or dot");
}

TEST_CASE("one handshake byte per record costs linear time", "[tls][client-hello][adversarial]")
{
    // 16 KiB of handshake bytes in 16 Ki records of 6 bytes, then the most a ClientHello holds (64 KiB of cipher
    // suites and 64 KiB of extensions: 128 Ki records), where a copy of the handshake bytes per record would
    // copy 8 GB.
    const std::string sni = serverName("upload.example");
    for (bool largest : {false, true}) {
        const size_t padding = largest ? 0xffff - sni.size() - 4 : size_t{16} << 10;
        const std::string suites = largest ? std::string(0xfffe, '\x13') : std::string("\x13\x01");
        const std::string bytes = records(handshake(sni + extension(21, std::string(padding, '\0')), true, suites), 1);
        CHECK(verdict(readClientHello(bytes)) == "found upload.example");
        for (size_t size : {bytes.size() / 3, bytes.size() - 1})
            CHECK(readClientHello(std::string_view(bytes).substr(0, size)).status == Status::NeedMore);
        CHECK(verdict(readClientHello(patched(bytes, bytes.size() - 12, "\x15"))) ==
              "invalid at " + std::to_string(bytes.size() - 12) +
                  ": a record that is not a handshake record before the ClientHello's end");
    }
}
