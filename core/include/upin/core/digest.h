#pragma once
// Streaming digests of part bodies. SHA-256 (OpenSSL's EVP, using the CPU's SHA extensions where present) is the
// default: it is what users compare with `sha256sum`. XXH3-128 (Debian's libxxhash) is the fast option: not a
// cryptographic hash, but an integrity check that keeps up with the wire (about ten times SHA-256's speed here);
// its hex is the canonical big-endian form that `xxh128sum` prints.

#include "upin/core/enum_names.h"
#include "upin/core/errors.h"

#include <string>

struct evp_md_ctx_st;
struct XXH3_state_s;

namespace upin::core {

enum class HashKind : uint8_t { Sha256, Xxh3, None };
// Also the JSON key of a part's digest ("sha256": "...", "xxh3": "...") and the value of ?hash= and --hash.
inline constexpr EnumNames<HashKind, 3> kHashNames{
    {{{HashKind::Sha256, "sha256"}, {HashKind::Xxh3, "xxh3"}, {HashKind::None, "none"}}}};
// For people: "SHA-256", "XXH3-128", "no hash".
std::string_view hashTitle(HashKind kind);

class Digest {
public:
    explicit Digest(HashKind kind = HashKind::Sha256);
    ~Digest();
    Digest(Digest&& other) noexcept;
    Digest& operator=(Digest&& other) noexcept;
    Digest(const Digest&) = delete;
    Digest& operator=(const Digest&) = delete;

    HashKind kind() const { return m_kind; }
    void update(ByteView data);
    // Lower-case hex digest (empty for HashKind::None); the object is reset and can hash again afterwards.
    std::string finishHex();
    static std::string hex(HashKind kind, ByteView data);

private:
    void reset();

    HashKind m_kind;
    evp_md_ctx_st* m_sha = nullptr;
    XXH3_state_s* m_xxh = nullptr;
};

} // namespace upin::core
