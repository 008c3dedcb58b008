#pragma once
// Streaming SHA-256 through OpenSSL's EVP interface (uses the CPU's SHA extensions where present).

#include "upin/core/errors.h"

#include <string>

struct evp_md_ctx_st;

namespace upin::core {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&& other) noexcept;
    Sha256& operator=(Sha256&& other) noexcept;
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(ByteView data);
    // Lower-case hex digest; the object is reset and can hash again afterwards.
    std::string finishHex();
    static std::string hex(ByteView data);

private:
    evp_md_ctx_st* m_ctx;
};

} // namespace upin::core
