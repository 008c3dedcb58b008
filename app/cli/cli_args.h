#pragma once
// Small helpers shared by the CLI commands.

#include <QString>
#include <QStringList>

#include <cstdio>

namespace upin::app::cli {

void printOut(const QString& text); // UTF-8 to stdout
void printErr(const QString& text); // UTF-8 to stderr

int runParse(const QStringList& arguments);
int runBench(const QStringList& arguments);
int runListen(const QStringList& arguments);
int runSend(const QStringList& arguments);
int runCompare(const QStringList& arguments);

} // namespace upin::app::cli
