#pragma once
// Small helpers shared by the CLI commands.

#include "upin/core/multipart_parser.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstdio>

namespace upin::app::cli {

void printOut(const QString& text); // UTF-8 to stdout
void printErr(const QString& text); // UTF-8 to stderr

// --max-field-size and the other user limits (common/limits.h), with these defaults shown in --help.
QList<QCommandLineOption> limitOptions(const core::Options& defaults);
// Applies the limits the user set; false, with a message on stderr, when a value is not a size or count.
bool applyLimitOptions(const QCommandLineParser& cl, core::Options& options);

int runParse(const QStringList& arguments);
int runExtract(const QStringList& arguments);
int runCurl(const QStringList& arguments);
int runBench(const QStringList& arguments);
int runListen(const QStringList& arguments);
int runSend(const QStringList& arguments);
int runCompare(const QStringList& arguments);

} // namespace upin::app::cli
