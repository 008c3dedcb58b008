#pragma once
// Where the tests find the conformance corpus: UPIN_CORPUS_DIR when set (the test executables' --corpus sets it),
// else the project's own corpus in tests/corpus.

#include <QByteArray>
#include <QString>
#include <QtGlobal>

namespace upin::test {

inline QString corpusDir()
{
    const QByteArray fromEnv = qgetenv("UPIN_CORPUS_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(UPIN_DEFAULT_CORPUS) : QString::fromLocal8Bit(fromEnv);
}

// A file of the project's own corpus (tests/corpus), whatever UPIN_CORPUS_DIR says: for tests of one sample.
inline QString ownCorpusFile(const QString& relative)
{
    return QStringLiteral(UPIN_DEFAULT_CORPUS "/") + relative;
}

} // namespace upin::test
