#include "sender/multipart_body.h"

#include <QFileInfo>

#include <cstring>

namespace upin::app {

namespace {

// Content-Disposition parameter value: quotes and backslashes escaped, CR/LF dropped (they would end the header).
QByteArray quoted(const QString& value)
{
    QByteArray out = value.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\r', "").replace('\n', "");
    return '"' + out + '"';
}

} // namespace

MultipartBody::MultipartBody(const UploadPlan& plan, const QString& boundary, QObject* parent)
    : QIODevice(parent), m_hash(plan.hash)
{
    const QByteArray dashBoundary = "--" + boundary.toLatin1();
    for (const auto& part : plan.parts) {
        const int index = int(m_parts.size());
        PartInfo info;
        info.name = part.name;
        QByteArray head = dashBoundary + "\r\nContent-Disposition: form-data; name=" + quoted(part.name);
        Segment body{Segment::Kind::Literal, {}, {}, 0, part.fill, index};
        if (part.kind == PlanPart::Kind::Field) {
            body.literal = part.value.toUtf8();
            body.size = quint64(body.literal.size());
        } else if (part.kind == PlanPart::Kind::FieldFile) {
            body.kind = Segment::Kind::File;
            body.path = part.path;
            body.size = quint64(QFileInfo(part.path).size());
        } else {
            info.filename = !part.filename.isEmpty()            ? part.filename
                            : part.kind == PlanPart::Kind::File ? QFileInfo(part.path).fileName()
                                                                : part.name + QStringLiteral(".bin");
            head += "; filename=" + quoted(info.filename);
            QString type = part.contentType.isEmpty() ? guessContentType(info.filename) : part.contentType;
            head += "\r\nContent-Type: " + type.toUtf8();
            body.kind = part.kind == PlanPart::Kind::File ? Segment::Kind::File : Segment::Kind::Synthetic;
            body.path = part.path;
            body.size = part.kind == PlanPart::Kind::File ? quint64(QFileInfo(part.path).size()) : part.size;
        }
        const bool field = part.kind == PlanPart::Kind::Field || part.kind == PlanPart::Kind::FieldFile;
        if (field && !part.contentType.isEmpty())
            head += "\r\nContent-Type: " + part.contentType.toUtf8();
        head += "\r\n\r\n";
        m_segments.push_back({Segment::Kind::Literal, head, {}, quint64(head.size()), {}, -1});
        info.size = body.size;
        m_segments.push_back(body);
        m_segments.push_back({Segment::Kind::Literal, "\r\n", {}, 2, {}, -1});
        m_parts.push_back(info);
        m_hashers.emplace_back(m_hash);
    }
    QByteArray close = dashBoundary + "--\r\n";
    m_segments.push_back({Segment::Kind::Literal, close, {}, quint64(close.size()), {}, -1});
    for (const auto& s : m_segments)
        m_total += s.size;
}

bool MultipartBody::openBody()
{
    for (const auto& s : m_segments)
        if (s.kind == Segment::Kind::File && !QFileInfo(s.path).isReadable()) {
            setErrorString(QStringLiteral("cannot read %1").arg(s.path));
            return false;
        }
    return open(QIODevice::ReadOnly);
}

qint64 MultipartBody::bytesAvailable() const
{
    return qint64(m_total - m_sent) + QIODevice::bytesAvailable();
}

void MultipartBody::fillSynthetic(char* out, qint64 count, PlanPart::Fill fill)
{
    if (fill == PlanPart::Fill::Zero) {
        std::memset(out, 0, size_t(count));
        return;
    }
    if (fill == PlanPart::Fill::Pattern) { // the offset as text, repeated: easy to recognise in a hex view
        for (qint64 i = 0; i < count; ++i)
            out[i] = "0123456789abcdef"[(m_inSegment + quint64(i)) % 16];
        return;
    }
    for (qint64 i = 0; i < count; i += 8) { // xorshift64: several GB/s, no allocation
        m_rng ^= m_rng << 13;
        m_rng ^= m_rng >> 7;
        m_rng ^= m_rng << 17;
        std::memcpy(out + i, &m_rng, size_t(std::min<qint64>(8, count - i)));
    }
}

void MultipartBody::finishSegment()
{
    const Segment& s = m_segments[m_current];
    if (s.part >= 0)
        m_parts[size_t(s.part)].digest = QString::fromStdString(m_hashers[size_t(s.part)].finishHex());
    m_file.close();
    ++m_current;
    m_inSegment = 0;
}

qint64 MultipartBody::readData(char* data, qint64 maxSize)
{
    qint64 written = 0;
    while (written < maxSize && m_current < m_segments.size()) {
        Segment& s = m_segments[m_current];
        if (m_inSegment == s.size) { // empty value or file
            finishSegment();
            continue;
        }
        const qint64 want = qint64(std::min<quint64>(quint64(maxSize - written), s.size - m_inSegment));
        char* out = data + written;
        qint64 got = want;
        switch (s.kind) {
        case Segment::Kind::Literal: std::memcpy(out, s.literal.constData() + m_inSegment, size_t(want)); break;
        case Segment::Kind::Synthetic: fillSynthetic(out, want, s.fill); break;
        case Segment::Kind::File:
            if (!m_file.isOpen()) {
                m_file.setFileName(s.path);
                if (!m_file.open(QIODevice::ReadOnly)) {
                    setErrorString(m_file.errorString());
                    return -1;
                }
            }
            got = m_file.read(out, want);
            if (got <= 0) { // the file shrank or failed while sending: the body would lie about its length
                setErrorString(QStringLiteral("%1: read failed or file shrank").arg(s.path));
                return -1;
            }
            break;
        }
        if (s.part >= 0)
            m_hashers[size_t(s.part)].update({out, size_t(got)});
        written += got;
        m_inSegment += quint64(got);
        if (m_inSegment == s.size)
            finishSegment();
    }
    m_sent += quint64(written);
    if (written == 0 && m_current >= m_segments.size())
        return -1; // end of body
    return written;
}

} // namespace upin::app
