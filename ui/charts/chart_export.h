#pragma once
// Saving what a view shows (CSV, JSON, PNG). The view makes the bytes (a picture is grabbed and encoded on the GUI
// thread: a window-sized PNG takes milliseconds); the files are written on a pool thread, so that a slow or network
// disk never stalls the window, and the status bar, or a warning naming the file and the reason, says how it went.

#include <QChartView>
#include <QList>
#include <QString>

namespace upin::ui {

struct ExportFile {
    QString path;
    QByteArray bytes;
};

// Adds "Save chart as PNG…" to a chart view's context menu (right-click). One helper for every chart.
void addPngExport(QChartView* view);
// The path a user chose, without the extension a save dialog may have added (.csv, .json or .png); dots in
// folder names and inside the file name stay: "/home/u/v1.2/runs" stays as it is.
QString exportBase(const QString& chosen);
QByteArray pngBytes(const QImage& image);
// Writes the files in order (each to a temporary file, then renamed), stopping at the first that fails (the rest
// would fail the same way); parent's status bar (saved, else "Saved PATH") or a warning says how it went. Returns
// at once.
void saveExports(QWidget* parent, const QList<ExportFile>& files, const QString& saved = {});

} // namespace upin::ui
