#include "upin/core/sha256.h"

#include <openssl/evp.h>

#include <utility>

namespace upin::core {

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new())
{
    EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_ctx);
}

Sha256::Sha256(Sha256&& other) noexcept : m_ctx(std::exchange(other.m_ctx, nullptr)) {}

Sha256& Sha256::operator=(Sha256&& other) noexcept
{
    std::swap(m_ctx, other.m_ctx);
    return *this;
}

void Sha256::update(ByteView data)
{
    if (!data.empty())
        EVP_DigestUpdate(m_ctx, data.data(), data.size());
}

std::string Sha256::finishHex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_ctx, digest, &length);
    EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(size_t{length} * 2);
    for (unsigned i = 0; i < length; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 15];
    }
    return out;
}

std::string Sha256::hex(ByteView data)
{
    Sha256 hasher;
    hasher.update(data);
    return hasher.finishHex();
}

} // namespace upin::core
