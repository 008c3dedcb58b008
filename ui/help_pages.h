#pragma once
// Help > Keyboard shortcuts and Help > Getting started: the pages' text (HTML), kept apart from the window so that
// it can be checked against the shortcuts the widgets really have.

#include <QString>

namespace upin::ui {

QString keyboardShortcutsPage();
// listenerBase: where the listener is now ("http://127.0.0.1:8080"), for the first curl line.
QString gettingStartedPage(const QString& listenerBase);

} // namespace upin::ui
