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

namespace {

// What to time: body size, shapes, matchers, runs and feed size, from bench's options.
struct BenchPlan {
    quint64 bytes = 0;
    quint64 chunkBytes = 0;
    int runs = 0;
    std::vector<core::BenchInput> inputs;
    std::vector<core::MatcherKind> matchers;
};

struct BenchOptions {
    void addTo(QCommandLineParser& cl) const;
    std::optional<BenchPlan> plan(const QCommandLineParser& cl) const; // nullopt: a value is not valid

    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("body size, e.g. 256M (default 256M)"),
                            QStringLiteral("N"), QStringLiteral("256M")};
    QCommandLineOption input{QStringLiteral("input"),
                             QStringLiteral("random, mixed, nearmiss, crlf, manyparts or all (default all)"),
                             QStringLiteral("SHAPE"), QStringLiteral("all")};
    QCommandLineOption matcher{QStringLiteral("matcher"), QStringLiteral("kmp, chunked, simd or all (default all)"),
                               QStringLiteral("NAME"), QStringLiteral("all")};
    QCommandLineOption runs{QStringLiteral("runs"),
                            QStringLiteral("timed runs per measurement; the median is reported (default 5)"),
                            QStringLiteral("N"), QStringLiteral("5")};
    QCommandLineOption chunk{QStringLiteral("chunk"), QStringLiteral("bytes per feed() call (default 256K)"),
                             QStringLiteral("N"), QStringLiteral("256K")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print JSON")};
};

void BenchOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(QStringLiteral(
        "Time the multipart parser (hashing off) on generated bodies with each matcher strategy, beside a memchr "
        "pass over the same bytes as the ceiling of the same run. Use a Release build."));
    cl.addHelpOption();
    cl.addOptions({size, input, matcher, runs, chunk, json});
}

std::optional<BenchPlan> BenchOptions::plan(const QCommandLineParser& cl) const
{
    BenchPlan plan;
    const auto bytes = parseByteSize(cl.value(size));
    const auto chunkBytes = parseByteSize(cl.value(chunk));
    plan.runs = cl.value(runs).toInt();
    if (cl.value(input) == QLatin1String("all"))
        plan.inputs.assign(std::begin(core::kAllBenchInputs), std::end(core::kAllBenchInputs));
    else if (auto one = core::benchInputFromName(cl.value(input).toStdString()))
        plan.inputs.push_back(*one);
    if (cl.value(matcher) == QLatin1String("all"))
        plan.matchers.assign(std::begin(core::kAllMatchers), std::end(core::kAllMatchers));
    else if (auto one = core::matcherFromName(cl.value(matcher).toStdString()))
        plan.matchers.push_back(*one);
    if (!bytes || *bytes == 0 || !chunkBytes || *chunkBytes == 0 || plan.runs < 1 || plan.inputs.empty() ||
        plan.matchers.empty())
        return std::nullopt;
    plan.bytes = *bytes;
    plan.chunkBytes = *chunkBytes;
    return plan;
}

// Every shape timed with every matcher beside memchr: the rows as JSON and as a table.
struct BenchResults {
    QJsonArray rows;
    QString table = QStringLiteral("%1  %2  %3  %4\n")
                        .arg(QStringLiteral("input"), -10)
                        .arg(QStringLiteral("strategy"), -8)
                        .arg(QStringLiteral("GB/s"), 7)
                        .arg(QStringLiteral("x memchr"), 8);
    bool allParsed = true;

    void add(const QString& shape, const QString& strategy, const core::BenchTiming& timing,
             const core::BenchTiming& ceiling, qint64 bytes)
    {
        const double ratio = ceiling.gbps > 0 ? timing.gbps / ceiling.gbps : 0;
        rows.append(QJsonObject{{"input", shape},
                                {"strategy", strategy},
                                {"gbps", timing.gbps},
                                {"ratio_to_memchr", ratio},
                                {"median_seconds", timing.medianSeconds},
                                {"bytes", bytes},
                                {"ok", timing.parsedOk}});
        table += QStringLiteral("%1  %2  %3  %4%5\n")
                     .arg(shape, -10)
                     .arg(strategy, -8)
                     .arg(timing.gbps, 7, 'f', 2)
                     .arg(ratio, 8, 'f', 2)
                     .arg(timing.parsedOk ? QString() : QStringLiteral("  PARSE FAILED"));
        allParsed = allParsed && timing.parsedOk;
    }
};

BenchResults timeAll(const BenchPlan& plan)
{
    BenchResults results;
    for (auto shape : plan.inputs) {
        const core::BenchBody body = core::makeBenchBody(shape, plan.bytes);
        const QString shapeName = toQString(core::benchInputName(shape));
        const std::vector<core::BenchTiming> timings =
            core::timeAgainstMemchr(body, plan.matchers, plan.runs, plan.chunkBytes);
        const core::BenchTiming& ceiling = timings.front();
        const auto bytes = qint64(body.body.size());
        results.add(shapeName, QStringLiteral("memchr"), ceiling, ceiling, bytes);
        for (size_t i = 0; i < plan.matchers.size(); ++i)
            results.add(shapeName, toQString(core::matcherName(plan.matchers[i])), timings[i + 1], ceiling, bytes);
    }
    return results;
}

} // namespace

int runBench(const QStringList& arguments)
{
    const BenchOptions options;
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(QStringList{QStringLiteral("upload-inspector-cli bench")} + arguments);
    const std::optional<BenchPlan> plan = options.plan(cl);
    if (!plan) {
        printErr(QStringLiteral("bench: bad option value\n") + cl.helpText());
        return 2;
    }
    const BenchResults results = timeAll(*plan);
    const QString simd = toQString(core::kSimdLevelNames.name(core::simdLevel()));
    if (cl.isSet(options.json)) {
        const QJsonObject doc{{"size", qint64(plan->bytes)},
                              {"runs", plan->runs},
                              {"chunk", qint64(plan->chunkBytes)},
                              {"simd_level", simd},
                              {"results", results.rows}};
        printOut(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)));
    } else {
        printOut(QStringLiteral("bench: %1 bytes per body, median of %2 runs, %3 bytes per feed, simd=%4\n")
                     .arg(plan->bytes)
                     .arg(plan->runs)
                     .arg(plan->chunkBytes)
                     .arg(simd) +
                 results.table);
    }
    return results.allParsed ? 0 : 1;
}

} // namespace upin::app::cli
