#include "upin/core/body_shapes.h"

#include "xorshift.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

namespace upin::core {
namespace {

constexpr size_t kCycleBytes = size_t{1} << 20;

struct Random64 : detail::XorShift64 {
    // count bytes with no CR or LF in them (a CR or LF becomes the byte after it).
    void appendPlain(std::string& out, size_t count)
    {
        for (size_t i = 0; i < count; ++i) {
            char c = char(next() >> 56);
            if (c == '\r' || c == '\n')
                ++c;
            out += c;
        }
    }
};

// A byte that is neither CR, LF nor `avoid`: what ends a prefix without completing it.
char other(char avoid)
{
    return avoid == 'x' ? 'y' : 'x';
}

// One unit of a dense shape; n counts units, for shapes that walk through the boundary's positions.
void appendUnit(std::string& out, BodyShape shape, std::string_view boundary, size_t n, Random64& rng)
{
    switch (shape) {
    case BodyShape::CrlfDense: {
        out += "\r\n";
        const size_t next = out.size();
        rng.appendPlain(out, 14);
        if (out[next] == '-') // never "\r\n--" and a short boundary by chance
            out[next] = '+';
        break;
    }
    case BodyShape::DashDense:
        out += "\r\n--";
        out += other(boundary[0]);
        rng.appendPlain(out, 3);
        break;
    case BodyShape::PrefixDense: {
        const size_t k = n % boundary.size();
        out += "\r\n--";
        out += boundary.substr(0, k);
        out += other(boundary[k]);
        break;
    }
    case BodyShape::NearMiss: {
        const size_t at = out.size() + 4 + n % boundary.size();
        out += "\r\n--";
        out += boundary;
        out[at] = other(out[at]);
        break;
    }
    default: rng.appendPlain(out, 4096); break;
    }
}

} // namespace

ShapeContent::ShapeContent(BodyShape shape, std::string_view boundary, uint64_t seed) : m_shape(shape)
{
    Random64 rng{{seed * 0x9E3779B97F4A7C15ull + 1}};
    if (boundary.empty())
        boundary = "-"; // no boundary to shape against: any prefix is as good
    m_cycle.reserve(kCycleBytes + 2 * boundary.size() + 4096);
    if (shape == BodyShape::Random) {
        m_cycle.resize(kCycleBytes);
        for (size_t i = 0; i < kCycleBytes; i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(m_cycle.data() + i, &v, 8);
        }
        // Random bytes may still spell the delimiter; it would take a boundary of a few bytes, but say never.
        const std::string delimiter = "\r\n--" + std::string(boundary);
        for (size_t at = m_cycle.find(delimiter); at != std::string::npos; at = m_cycle.find(delimiter, at))
            m_cycle[at] = 'x';
        return;
    }
    if (shape == BodyShape::LeadingCr)
        m_head = "\r";
    // Whole rounds of the boundary's positions, so that the cycle joins itself where a unit starts.
    for (size_t n = 0; m_cycle.size() < kCycleBytes || n % boundary.size() != 0; ++n)
        appendUnit(m_cycle, shape, boundary, n, rng);
}

std::shared_ptr<const ShapeContent> ShapeContent::shared(BodyShape shape, std::string_view boundary)
{
    static std::mutex mutex;
    static std::map<std::pair<BodyShape, std::string>, std::weak_ptr<const ShapeContent>> made;
    const std::pair<BodyShape, std::string> key{shape, std::string(boundary)};
    {
        const std::lock_guard lock(mutex);
        if (auto held = made[key].lock())
            return held;
    }
    // Made outside the lock (a 1 MiB cycle takes milliseconds): other shapes' senders do not wait on it. Two that
    // ask at once may both make one; the first kept is handed out after.
    auto content = std::make_shared<const ShapeContent>(shape, boundary);
    const std::lock_guard lock(mutex);
    std::erase_if(made, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<const ShapeContent>& slot = made[key];
    if (auto held = slot.lock())
        return held;
    slot = content;
    return content;
}

void ShapeContent::fill(char* out, size_t count, uint64_t offset) const
{
    while (count > 0 && offset < m_head.size()) {
        *out++ = m_head[offset++];
        --count;
    }
    uint64_t at = (offset - m_head.size()) % m_cycle.size();
    while (count > 0) {
        const size_t take = std::min<size_t>(count, m_cycle.size() - at);
        std::memcpy(out, m_cycle.data() + at, take);
        out += take;
        count -= take;
        at = 0;
    }
}

} // namespace upin::core
