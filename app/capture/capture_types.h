#pragma once
// Plain values of the capture store that other layers (listener configuration, the settings dialog) carry.

#include <QtGlobal>

namespace upin::app {

// How many finished capture folders are kept, newest (by finish time) first. The capture that just finished and
// every capture still receiving are never deleted, whatever the limits say.
struct RetentionPolicy {
    int keepCaptures = 200;
    // Total size of kept folders; 0: no size limit. 5 GiB by default: an unlimited folder of uploads fills disks.
    quint64 keepBytes = quint64{5} << 30;
};

} // namespace upin::app
