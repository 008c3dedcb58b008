#pragma once
// Qt's own file dialog (where no desktop's dialog is at hand: a bare X session, Xvfb) opens at about 600 px with
// its columns at fixed widths that cut sizes ("13….KiB"), types and dates, and a side bar that cuts the home
// folder's name. One filter on the application widens each such dialog as it shows, whichever view opened it, and
// starts one given no folder where the user last was (else at home), not in the working folder.

namespace upin::ui {

// Once per process; later calls do nothing.
void fitFileDialogs();

} // namespace upin::ui
