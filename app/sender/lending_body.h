#pragma once
// A request body that lends its bytes where they lie instead of copying them out (MultipartBody's read-ahead
// blocks): the raw client writes each piece to the socket as it is, and keeps hold of it until the socket has
// handed it to the kernel. Through QIODevice::read() every byte was copied twice more, into the client's buffer
// and then into the socket's, which cost the sending thread as much as the kernel's own copy.

#include <QtGlobal>

#include <memory>

namespace upin::app {

class LendingBody {
public:
    struct Piece {
        std::shared_ptr<const void> holder; // the bytes stay valid while it is held
        const char* data = nullptr;
        qint64 size = 0; // 0: the body has ended; -1: it could not be read (the device's errorString() says why)
    };
    // The next bytes of the body, at most maxSize; waits while none is ready. Counts them as handed over.
    virtual Piece lend(qint64 maxSize) = 0;
    // How many of its blocks a borrower may hold at once: the body makes its bytes ahead into a fixed number of
    // blocks, and one that waited for a block the borrower holds would wait for ever (the borrower waits in
    // lend()). Past it the borrower reads (copies) instead.
    virtual int blocksToLend() const = 0;

protected:
    ~LendingBody() = default;
};

} // namespace upin::app
