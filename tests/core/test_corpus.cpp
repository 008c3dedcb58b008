// The conformance corpus (tests/corpus, or the one --corpus / UPIN_CORPUS_DIR names): every case with an
// expectation, fed every way.

#include "support/chunking.h"
#include "support/corpus_dir.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

using namespace upin::core;

namespace {

// Cases where Upload Inspector deliberately differs from the source project's expectation, and why.
// Each listed case is still parsed every way and must stay consistent; only the named expectation is not applied.
const std::map<std::string, std::string> kDeliberateDifferences = {
    {"python-multipart/bad_initial_boundary",
     "python-multipart rejects a body that does not start with the delimiter; RFC 2046 allows a preamble, which we "
     "skip and report (Preamble diagnostic)"},
};

bool flagsSomething(const ParseReport& report)
{
    for (const auto& d : report.diagnostics)
        if (d.code != Errc::Preamble && d.code != Errc::BoundaryGuessed)
            return true;
    return false;
}

std::string baseName(const std::string& path)
{
    size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// busboy reports form fields, not MIME parts: parts without a name are dropped, filename is the basename, and the
// content type is the media type without parameters, text/plain when absent. Project our parts the same way.
std::vector<PartSummary> busboyView(const std::vector<PartSummary>& parts, bool preservePath)
{
    std::vector<PartSummary> out;
    for (auto part : parts) {
        if (!part.name)
            continue;
        if (part.filename && !preservePath)
            part.filename = baseName(*part.filename);
        std::string type = part.contentType.value_or("");
        type = type.substr(0, type.find(';'));
        while (!type.empty() && type.back() == ' ')
            type.pop_back();
        part.contentType = type.empty() ? "text/plain" : type;
        out.push_back(part);
    }
    return out;
}

void checkText(const QJsonObject& expected, const char* key, const std::optional<std::string>& actual)
{
    if (!expected.contains(key))
        return; // not asserted by the source
    INFO("field " << key);
    if (expected[key].isNull())
        CHECK_FALSE(actual.has_value());
    else
        CHECK(actual == expected[key].toString().toStdString());
}

void checkParts(const QJsonArray& expected, const std::vector<PartSummary>& actual, bool subset)
{
    if (!subset)
        REQUIRE(actual.size() == size_t(expected.size()));
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QJsonObject want = expected[i].toObject();
        const PartSummary* got = nullptr;
        if (subset) {
            for (const auto& part : actual)
                if (part.name == want["name"].toString().toStdString())
                    got = &part;
        } else {
            got = &actual[size_t(i)];
        }
        INFO("part " << i);
        REQUIRE(got != nullptr);
        checkText(want, "name", got->name);
        checkText(want, "filename", got->filename);
        checkText(want, "content_type", got->contentType);
        // python-multipart decodes Content-Transfer-Encoding; we report the bytes on the wire (raw_*).
        const char* sizeKey = want.contains("raw_size") ? "raw_size" : "size";
        const char* shaKey = want.contains("raw_sha256") ? "raw_sha256" : "sha256";
        if (want.contains(sizeKey))
            CHECK(got->size == uint64_t(want[sizeKey].toInteger()));
        if (want.contains(shaKey))
            CHECK(got->digest == want[shaKey].toString().toStdString());
        CHECK(got->complete);
        if (want.contains("nested"))
            checkParts(want["nested"].toObject()["parts"].toArray(), got->children, false);
    }
}

} // namespace

TEST_CASE("conformance corpus", "[corpus]")
{
    QDir dir(upin::test::corpusDir());
    QFile manifestFile(dir.filePath(QStringLiteral("manifest.json")));
    INFO("corpus at " << dir.absolutePath().toStdString() << " (set UPIN_CORPUS_DIR)");
    REQUIRE(manifestFile.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(manifestFile.readAll()).object()["cases"].toArray();
    REQUIRE_FALSE(cases.isEmpty());
    int checked = 0, skippedForOptions = 0;
    for (const auto& value : cases) {
        const QJsonObject c = value.toObject();
        const std::string id = c["id"].toString().toStdString();
        if (c["requires_options"].toBool()) {
            ++skippedForOptions; // busboy limit/event options we do not mirror
            continue;
        }
        QFile bodyFile(dir.filePath(c["file"].toString()));
        REQUIRE(bodyFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = bodyFile.readAll();
        const std::string body(bytes.constData(), size_t(bytes.size()));
        const std::string contentType = c["content_type"].toString().toStdString();
        const QJsonObject expect = c["expect"].toObject();
        const bool busboy = id.rfind("busboy/", 0) == 0;
        const bool preservePath = c["busboy_options"].toObject()["preservePath"].toBool();
        const auto difference = kDeliberateDifferences.find(id);
        SECTION(id)
        {
            ParseReport report = upin::test::parseEveryWay(contentType, body).report;
            if (difference != kDeliberateDifferences.end()) {
                INFO("deliberate difference: " << difference->second);
                CHECK(report.ok);
                CHECK_FALSE(report.diagnostics.empty());
            } else if (expect["unknown"].toBool()) {
                SUCCEED("no expectation; parsed consistently every way");
            } else if (expect["ok"].toBool()) {
                INFO("diagnostics: " << report.diagnostics.size());
                REQUIRE(report.ok);
                checkParts(expect["parts"].toArray(), busboy ? busboyView(report.parts, preservePath) : report.parts,
                           expect["parts_subset"].toBool());
            } else {
                // rejected, or in lenient mode flagged by a diagnostic; strict mode must reject
                CHECK((!report.ok || flagsSomething(report)));
                Options strict;
                strict.strict = true;
                CHECK_FALSE(upin::test::parseEveryWay(contentType, body, strict).report.ok);
            }
        }
        ++checked;
    }
    CHECK(checked + skippedForOptions == cases.size());
}
