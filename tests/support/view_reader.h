#pragma once
// An Inspect view's byte requests answered at once, on the test's thread (the window answers them on its part
// reader's thread): a test that sets a result or a selection sees the previews filled when the call returns.

#include "inspect/part_reader.h"
#include "views/inspect_view.h"

namespace upin::test {

struct ViewReader {
    explicit ViewReader(ui::InspectView& view)
    {
        QObject::connect(&view, &ui::InspectView::bytesRequested, &reader, &app::PartReader::read);
        QObject::connect(&reader, &app::PartReader::bytesRead, &view, &ui::InspectView::onBytesRead);
    }
    app::PartReader reader;
};

} // namespace upin::test
