#include "common/limits.h"

#include "common/byte_size.h"

#include <limits>

namespace upin::app {

namespace {
constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

template <typename T>
T clampTo(uint64_t value)
{
    return value > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : T(value);
}

bool unlimited(bool isCount, uint64_t value)
{
    return isCount ? value >= std::numeric_limits<uint32_t>::max() : value == kNoLimit;
}
} // namespace

const std::array<UserLimit, 6> kUserLimits{{
    {"max-field-size", "largest form field (a part without a filename), e.g. 1M", false,
     [](const core::Options& o) { return o.maxFieldSize; }, [](core::Options& o, uint64_t v) { o.maxFieldSize = v; }},
    {"max-part-size", "largest part, e.g. 4G", false, [](const core::Options& o) { return o.maxPartSize; },
     [](core::Options& o, uint64_t v) { o.maxPartSize = v; }},
    {"max-parts", "most parts in one body, e.g. 10000", true,
     [](const core::Options& o) { return uint64_t(o.maxParts); },
     [](core::Options& o, uint64_t v) { o.maxParts = clampTo<uint32_t>(v); }},
    {"max-header-bytes", "largest header block of one part, e.g. 16K", false,
     [](const core::Options& o) { return uint64_t(o.maxHeaderBytes); },
     [](core::Options& o, uint64_t v) { o.maxHeaderBytes = clampTo<size_t>(v); }},
    {"max-body", "largest body, e.g. 64G", false, [](const core::Options& o) { return o.maxBodySize; },
     [](core::Options& o, uint64_t v) { o.maxBodySize = v; }},
    {"max-recorded-headers", "part header bytes kept in one report, all parts together, e.g. 1M", false,
     [](const core::Options& o) { return o.maxRecordedHeaderBytes; },
     [](core::Options& o, uint64_t v) { o.maxRecordedHeaderBytes = v; }},
}};

core::Options listenerLimits()
{
    core::Options options; // core's defaults are the protective ones
    options.maxBodySize = 64ull << 30;
    return options;
}

core::Options inspectLimits()
{
    core::Options options;
    options.maxFieldSize = kNoLimit; // fields stream through like files: nothing is held in memory
    options.maxPartSize = kNoLimit;
    options.maxBodySize = kNoLimit;
    options.maxParts = 100'000; // each part's summary stays in the report (about 1 KB in JSON): this bounds it
    options.maxHeaderBytes = size_t{64} * 1024;   // kept in the report for every part: bounded like the count
    options.maxRecordedHeaderBytes = 64ull << 20; // a file the user opened: keep far more than a listener would
    return options;
}

QString formatLimit(const UserLimit& limit, uint64_t value)
{
    if (unlimited(limit.isCount, value))
        return QStringLiteral("no limit");
    return limit.isCount ? QString::number(value) : formatBytes(value);
}

QString limitText(const UserLimit& limit, uint64_t value)
{
    if (unlimited(limit.isCount, value))
        return QStringLiteral("none");
    return limit.isCount ? QString::number(value) : exactByteSize(value);
}

bool setLimit(const UserLimit& limit, core::Options& options, const QString& text)
{
    const QString word = text.trimmed().toLower();
    if (word == QLatin1String("none") || word == QLatin1String("no limit") || word == QLatin1String("unlimited")) {
        limit.set(options, kNoLimit);
        return true;
    }
    auto value = parseByteSize(text);
    if (!value || *value == 0 || (limit.isCount && QString::number(*value) != word))
        return false; // a count takes no unit: 10k parts is a typo more likely than 10240
    limit.set(options, *value);
    return true;
}

} // namespace upin::app
