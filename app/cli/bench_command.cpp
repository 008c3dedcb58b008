// upload-inspector-cli bench: time the whole parser with each matcher strategy against a memchr ceiling.

#include "cli/cli_args.h"
#include "common/byte_size.h"
#include "common/qt_text.h"

#include "upin/core/bench.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <vector>

namespace upin::app::cli {

int runBench(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(QStringLiteral(
        "Time the multipart parser (hashing off) on generated bodies with each matcher strategy, beside a memchr "
        "pass over the same bytes as the ceiling of the same run. Use a Release build."));
    cl.addHelpOption();
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("body size, e.g. 256M (default 256M)"),
                            QStringLiteral("N"), QStringLiteral("256M"));
    QCommandLineOption input(QStringLiteral("input"),
                             QStringLiteral("random, mixed, nearmiss, crlf, manyparts or all (default all)"),
                             QStringLiteral("SHAPE"), QStringLiteral("all"));
    QCommandLineOption matcher(QStringLiteral("matcher"), QStringLiteral("kmp, chunked, simd or all (default all)"),
                               QStringLiteral("NAME"), QStringLiteral("all"));
    QCommandLineOption runs(QStringLiteral("runs"),
                            QStringLiteral("timed runs per measurement; the median is reported (default 5)"),
                            QStringLiteral("N"), QStringLiteral("5"));
    QCommandLineOption chunk(QStringLiteral("chunk"), QStringLiteral("bytes per feed() call (default 256K)"),
                             QStringLiteral("N"), QStringLiteral("256K"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print JSON"));
    cl.addOptions({size, input, matcher, runs, chunk, json});
    cl.process(QStringList{QStringLiteral("upload-inspector-cli bench")} + arguments);

    auto bytes = parseByteSize(cl.value(size));
    auto chunkBytes = parseByteSize(cl.value(chunk));
    int runCount = cl.value(runs).toInt();
    std::vector<core::BenchInput> inputs;
    if (cl.value(input) == QLatin1String("all"))
        inputs.assign(std::begin(core::kAllBenchInputs), std::end(core::kAllBenchInputs));
    else if (auto one = core::benchInputFromName(cl.value(input).toStdString()))
        inputs.push_back(*one);
    std::vector<core::MatcherKind> matchers;
    if (cl.value(matcher) == QLatin1String("all"))
        matchers.assign(std::begin(core::kAllMatchers), std::end(core::kAllMatchers));
    else if (auto one = core::matcherFromName(cl.value(matcher).toStdString()))
        matchers.push_back(*one);
    if (!bytes || *bytes == 0 || !chunkBytes || *chunkBytes == 0 || runCount < 1 || inputs.empty() ||
        matchers.empty()) {
        printErr(QStringLiteral("bench: bad option value\n") + cl.helpText());
        return 2;
    }

    QJsonArray results;
    QString table = QStringLiteral("%1  %2  %3  %4\n")
                        .arg(QStringLiteral("input"), -10)
                        .arg(QStringLiteral("strategy"), -8)
                        .arg(QStringLiteral("GB/s"), 7)
                        .arg(QStringLiteral("x memchr"), 8);
    bool allParsed = true;
    for (auto shape : inputs) {
        core::BenchBody body = core::makeBenchBody(shape, *bytes);
        const QString shapeName = toQString(core::benchInputName(shape));
        const std::vector<core::BenchTiming> timings = core::timeAgainstMemchr(body, matchers, runCount, *chunkBytes);
        const core::BenchTiming& ceiling = timings.front();
        auto add = [&](const QString& strategy, const core::BenchTiming& timing) {
            double ratio = ceiling.gbps > 0 ? timing.gbps / ceiling.gbps : 0;
            results.append(QJsonObject{{"input", shapeName},
                                       {"strategy", strategy},
                                       {"gbps", timing.gbps},
                                       {"ratio_to_memchr", ratio},
                                       {"median_seconds", timing.medianSeconds},
                                       {"bytes", qint64(body.body.size())},
                                       {"ok", timing.parsedOk}});
            table += QStringLiteral("%1  %2  %3  %4%5\n")
                         .arg(shapeName, -10)
                         .arg(strategy, -8)
                         .arg(timing.gbps, 7, 'f', 2)
                         .arg(ratio, 8, 'f', 2)
                         .arg(timing.parsedOk ? QString() : QStringLiteral("  PARSE FAILED"));
            allParsed = allParsed && timing.parsedOk;
        };
        add(QStringLiteral("memchr"), ceiling);
        for (size_t i = 0; i < matchers.size(); ++i)
            add(toQString(core::matcherName(matchers[i])), timings[i + 1]);
    }
    if (cl.isSet(json)) {
        QJsonObject doc{{"size", qint64(*bytes)},
                        {"runs", runCount},
                        {"chunk", qint64(*chunkBytes)},
                        {"simd_level", toQString(core::kSimdLevelNames.name(core::simdLevel()))},
                        {"results", results}};
        printOut(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
    } else {
        printOut(QStringLiteral("bench: %1 bytes per body, median of %2 runs, %3 bytes per feed, simd=%4\n")
                     .arg(*bytes)
                     .arg(runCount)
                     .arg(*chunkBytes)
                     .arg(toQString(core::kSimdLevelNames.name(core::simdLevel()))) +
                 table);
    }
    return allParsed ? 0 : 1;
}

} // namespace upin::app::cli
