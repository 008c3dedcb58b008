#include "common/same_core.h"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace upin::app {

#ifdef __linux__
struct SameCore::Saved {
    cpu_set_t cpus;
};

SameCore::SameCore()
{
    auto saved = std::make_unique<Saved>();
    const int cpu = sched_getcpu();
    if (cpu < 0 || pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &saved->cpus) != 0)
        return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &one) == 0)
        m_saved = std::move(saved);
}

SameCore::~SameCore()
{
    if (m_saved)
        pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &m_saved->cpus);
}
#else
struct SameCore::Saved {};
SameCore::SameCore() = default;
SameCore::~SameCore() = default;
#endif

} // namespace upin::app
