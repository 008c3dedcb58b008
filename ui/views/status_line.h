#pragma once
// One line in the main window's status bar that says what just happened (copied, saved, nothing to send), so a
// click that changes nothing on screen is not silent. Views call it with any widget of theirs.

#include <QMainWindow>
#include <QStatusBar>
#include <QWidget>

namespace upin::ui {

// "1 part", "3 parts": tr()'s %n plural needs a translation loaded to drop the "(s)", and the app ships none.
inline QString countOf(qsizetype n, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

inline void showStatus(QWidget* from, const QString& text)
{
    if (auto* window = from ? qobject_cast<QMainWindow*>(from->window()) : nullptr)
        window->statusBar()->showMessage(text, 6000);
}

} // namespace upin::ui
