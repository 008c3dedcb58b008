#pragma once
// Saving what a view shows (CSV, JSON, PNG), with one place that checks every write and tells the user when one
// fails, naming the file and the reason. Small files, written on the GUI thread.

#include <QChartView>
#include <QString>

namespace upin::ui {

// Adds "Save chart as PNG…" to a chart view's context menu (right-click). One helper for every chart.
void addPngExport(QChartView* view);
// The path a user chose, without the extension a save dialog may have added (.csv, .json or .png); dots in
// folder names and inside the file name stay: "/home/u/v1.2/runs" stays as it is.
QString exportBase(const QString& chosen);
// Writes data to path (temp file and rename); false after a warning to the user naming the file and the reason.
bool writeExport(QWidget* parent, const QString& path, const QByteArray& data);
// Saves a widget's picture as PNG; false after a warning like writeExport's.
bool writePng(QWidget* parent, QWidget* source, const QString& path);

} // namespace upin::ui
