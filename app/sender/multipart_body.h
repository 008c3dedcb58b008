#pragma once
// A multipart/form-data request body generated while it is read: part headers, then file contents read in
// pieces, synthetic bytes generated on the fly, field values. Nothing is loaded whole, whatever the size.
// Each part is hashed (the plan's hash) as its bytes go out, so the sender knows what it sent without a second pass.

#include "sender/upload_plan.h"

#include "upin/core/digest.h"

#include <QFile>
#include <QIODevice>

#include <vector>

namespace upin::app {

class MultipartBody final : public QIODevice {
    Q_OBJECT
public:
    MultipartBody(const UploadPlan& plan, const QString& boundary, QObject* parent = nullptr);

    // Opens for reading; false with errorString() when a file cannot be read.
    bool openBody();
    qint64 totalSize() const { return m_total; } // the Content-Length
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override;
    bool atEnd() const override { return m_sent >= m_total; }

    struct PartInfo {
        QString name;
        QString filename;
        quint64 size = 0;
        QString digest; // set once the part has been read completely (and hashing is on)
    };
    const std::vector<PartInfo>& parts() const { return m_parts; }

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    struct Segment {
        enum class Kind : uint8_t { Literal, File, Synthetic } kind;
        QByteArray literal;
        QString path;
        quint64 size = 0;
        PlanPart::Fill fill = PlanPart::Fill::Random;
        int part = -1; // part index whose body this is, -1 for headers and delimiters
    };
    void finishSegment();
    void fillSynthetic(char* out, qint64 count, PlanPart::Fill fill);

    std::vector<Segment> m_segments;
    std::vector<PartInfo> m_parts;
    std::vector<core::Digest> m_hashers;
    core::HashKind m_hash;
    size_t m_current = 0;
    quint64 m_inSegment = 0;
    quint64 m_total = 0;
    quint64 m_sent = 0;
    QFile m_file;
    quint64 m_rng = 0x9E3779B97F4A7C15ull;
};

} // namespace upin::app
