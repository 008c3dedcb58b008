#pragma once
// Command-line options that every test executable takes on top of Catch2's, so that CMake can register one
// binary several times (ctest passes them as EXTRA_ARGS):
//   --corpus DIR   the conformance corpus to read (sets UPIN_CORPUS_DIR; default: tests/corpus)
//   --simd LEVEL   cap the simd matcher at avx2, sse2 or scalar (sets UPIN_SIMD, read once by core)
// Both are applied before any test runs, so core's one-time read of UPIN_SIMD sees them. A run that matches no
// test fails (ctest passes each test's name; a name Catch cannot match must not pass silently).

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QtGlobal>

#include <cstdio>
#include <string>

namespace upin::test {

inline int runTests(int argc, char** argv)
{
    Catch::Session session;
    std::string corpus, simd;
    using Catch::clara::Opt;
    session.cli(session.cli() | Opt(corpus, "dir")["--corpus"]("conformance corpus folder (sets UPIN_CORPUS_DIR)") |
                Opt(simd, "level")["--simd"]("avx2, sse2 or scalar: the simd matcher's level (sets UPIN_SIMD)"));
    if (int rc = session.applyCommandLine(argc, argv); rc != 0)
        return rc;
    session.configData().warnings =
        static_cast<Catch::WarnAbout::What>(session.configData().warnings | Catch::WarnAbout::NoTests);
    if (!simd.empty() && simd != "avx2" && simd != "sse2" && simd != "scalar") {
        std::fprintf(stderr, "--simd takes avx2, sse2 or scalar, not %s\n", simd.c_str());
        return 2;
    }
    if (!corpus.empty())
        qputenv("UPIN_CORPUS_DIR", QByteArray::fromStdString(corpus));
    if (!simd.empty())
        qputenv("UPIN_SIMD", QByteArray::fromStdString(simd));
    return session.run();
}

} // namespace upin::test
