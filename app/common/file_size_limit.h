#pragma once
// Call first thing in main: a write past the file size limit (ulimit -f) then fails with EFBIG, which the listener
// answers as a 507 naming the file and the limit, instead of the default SIGXFSZ ending the whole process.

#include <csignal>

namespace upin::app {

inline void failWritesPastFileSizeLimit()
{
    std::signal(SIGXFSZ, SIG_IGN);
}

} // namespace upin::app
