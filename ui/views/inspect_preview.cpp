// InspectView's previews: the bytes each one shows are asked for (bytesRequested) and drawn when they come
// (onBytesRead); a reply for a selection the user has left is dropped by its id.

#include "status_colors.h"
#include "views/inspect_view.h"

#include "common/qt_text.h"
#include "inspect/part_bytes.h"
#include "views/hex_pane.h"
#include "views/hex_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStringDecoder>
#include <QTabWidget>
#include <QTableWidget>

namespace upin::ui {

namespace {
constexpr qint64 kPreviewBytes = qint64{64} * 1024; // text preview: the first 64 KiB of a part
constexpr qint64 kHexBytes = 4096;                  // hex view window
constexpr quint64 kMaxImageBytes = 4u << 20; // decoded on the GUI thread: keep it to what decodes in milliseconds

size_t useIndex(app::ByteUse use)
{
    return static_cast<size_t>(use);
}

// A diagnostic in part's header block that left a line out of its headers: the rest (a bare LF, a control byte in a
// value) keep the line, which the table already shows.
// A page's shading without what Find found: for a page that is not the match's.
QList<HexRange> withoutFound(QList<HexRange> ranges)
{
    ranges.removeIf([](const HexRange& r) { return r.found; });
    return ranges;
}

bool leftOutHeaderLine(const core::Diagnostic& d, const core::PartSummary& part)
{
    const bool leavesOut = d.code == core::Errc::MalformedHeader || d.code == core::Errc::InvalidHeaderName ||
                           d.code == core::Errc::LeadingWhitespaceHeader;
    return leavesOut && d.offset >= part.offset && d.offset < part.bodyOffset;
}

} // namespace

void InspectView::requestBytes(app::ByteUse use, const app::PartBytes& source, quint64 offset, qint64 length,
                               core::PartEncoding decode)
{
    app::ByteRequest request{++m_lastRequestId, use, source, offset, length, decode, {}};
    m_wanted[useIndex(use)] = request.id;
    emit bytesRequested(request);
}

void InspectView::forgetRequests()
{
    m_wanted.fill(0);
}

void InspectView::onBytesRead(const app::ByteReply& reply)
{
    if (reply.id == 0 || m_wanted[useIndex(reply.use)] != reply.id)
        return; // asked for a selection the user has left
    m_wanted[useIndex(reply.use)] = 0;
    switch (reply.use) {
    case app::ByteUse::Text: showText(reply); break;
    case app::ByteUse::Image: showImage(reply); break;
    case app::ByteUse::Hex: showHexPage(reply); break;
    case app::ByteUse::HeaderBlock: showHeaderBlock(reply); break;
    case app::ByteUse::Find: showFound(reply); break;
    }
}

core::PartEncoding InspectView::shownEncoding(const core::PartSummary& part) const
{
    if (!m_decode->isChecked())
        return core::PartEncoding::Identity;
    return core::partEncodingFromName(part.transferEncoding.value_or(std::string()))
        .value_or(core::PartEncoding::Identity);
}

QString InspectView::decodeBoxName(core::PartEncoding encoding)
{
    return tr("Decode %1").arg(app::toQString(core::partEncodingName(encoding)));
}

void InspectView::updateDecodeBox(const core::PartSummary* part)
{
    const auto encoding = part ? core::partEncodingFromName(part->transferEncoding.value_or(std::string()))
                               : std::optional<core::PartEncoding>();
    const bool encoded = encoding && *encoding != core::PartEncoding::Identity;
    m_decode->setVisible(encoded);
    if (!encoded)
        return;
    const QString name = app::toQString(core::partEncodingName(*encoding));
    m_decode->setText(decodeBoxName(*encoding));
    m_decode->setToolTip(tr("The part was sent with Content-Transfer-Encoding: %1. Ticked, Text, Image and Save "
                            "part give the bytes its sender meant; Hex always shows the bytes as received.")
                             .arg(name));
}

void InspectView::requestText(const core::PartSummary& part)
{
    if (!m_partBytes.missing.isEmpty()) {
        m_text->setPlainText(tr("(%1)").arg(m_partBytes.missing));
        return;
    }
    m_text->setPlainText(tr("(reading…)"));
    requestBytes(app::ByteUse::Text, m_partBytes, 0, std::min<qint64>(qint64(part.size), kPreviewBytes),
                 shownEncoding(part));
}

void InspectView::showText(const app::ByteReply& reply)
{
    const core::PartSummary* part = m_shownPart;
    if (!part)
        return;
    auto encoding = QStringConverter::encodingForName(m_encoding->currentText().toLatin1().constData());
    QStringDecoder decoder(encoding.value_or(QStringConverter::Utf8));
    QString text = decoder.decode(reply.bytes);
    // Bytes that are not text in the chosen encoding would show as a jumble of replacement marks.
    const bool utf16 = m_encoding->currentText().startsWith(QLatin1String("UTF-16"));
    if ((decoder.hasError() || (!utf16 && reply.bytes.contains('\0'))) && reply.decoded)
        text = tr("(binary once decoded: %1 bytes of it read; Save part with Decode ticked writes them, Hex shows "
                  "the bytes as received)")
                   .arg(reply.bytes.size());
    else if (decoder.hasError() || (!utf16 && reply.bytes.contains('\0')))
        text = tr("(binary, %1 bytes: see Hex, or choose another encoding)").arg(part->size);
    else if (m_partBytes.available < part->size && qint64(m_partBytes.available) < kPreviewBytes)
        text += tr("\n… (only the first %1 of %2 bytes were kept)").arg(m_partBytes.available).arg(part->size);
    else if (qint64(part->size) > kPreviewBytes)
        text += reply.decoded ? tr("\n… (the first 64 KiB of the part, decoded)") : tr("\n… (first 64 KiB shown)");
    if (!reply.error.isEmpty())
        text += tr("\n… (%1)").arg(reply.error);
    m_text->setPlainText(text);
}

void InspectView::requestImage(const core::PartSummary& part)
{
    const QString type = QString::fromStdString(part.contentType.value_or("")).toLower();
    // One Decode box for Text, Image and Save part: an image sent as base64 shows once it is ticked (Hex always
    // shows the bytes as received).
    const auto sentAs = core::partEncodingFromName(part.transferEncoding.value_or(std::string()))
                            .value_or(core::PartEncoding::Identity);
    const core::PartEncoding decode = shownEncoding(part);
    // base64 takes four bytes for three: the limit is on what the image decoder gets.
    const quint64 limit = decode == core::PartEncoding::Base64 ? kMaxImageBytes / 3 * 4 + 4 : kMaxImageBytes;
    m_image->setPixmap({});
    m_image->setToolTip({});
    if (!m_partBytes.missing.isEmpty())
        m_image->setText(tr("(%1)").arg(m_partBytes.missing));
    else if (!type.startsWith(QLatin1String("image/")))
        m_image->setText(tr("(not an image: %1)").arg(type.isEmpty() ? tr("no Content-Type") : type));
    else if (sentAs != decode)
        m_image->setText(tr("(sent as %1: tick “%2” to see the image)")
                             .arg(app::toQString(core::partEncodingName(sentAs)), decodeBoxName(sentAs)));
    else if (part.size > limit)
        m_image->setText(tr("(image larger than 4 MiB: save it to view it)"));
    else {
        m_image->setText(tr("(reading…)"));
        requestBytes(app::ByteUse::Image, m_partBytes, 0, qint64(part.size), decode);
    }
}

void InspectView::showImage(const app::ByteReply& reply)
{
    const QImage image = QImage::fromData(reply.bytes);
    if (image.isNull()) {
        const QString type = m_shownPart ? QString::fromStdString(m_shownPart->contentType.value_or("")) : QString();
        m_image->setText(!reply.error.isEmpty() ? tr("(%1)").arg(reply.error)
                                                : tr("(%1 that does not decode)").arg(type));
        return;
    }
    m_image->setText({});
    // Icons are often 16 px: show small images enlarged, pixel for pixel, with their real size in the tooltip.
    const int factor = std::max(1, 128 / std::max(1, std::max(image.width(), image.height())));
    m_image->setPixmap(
        QPixmap::fromImage(image.scaled(image.size() * factor, Qt::KeepAspectRatio, Qt::FastTransformation)));
    m_image->setToolTip((reply.decoded ? tr("decoded from its Content-Transfer-Encoding; ") : QString()) +
                        tr("%1 x %2 px%3")
                            .arg(image.width())
                            .arg(image.height())
                            .arg(factor > 1 ? tr(", shown %1x").arg(factor) : QString()));
}

void InspectView::addUnparsedHeaderLines(const core::PartSummary& part)
{
    bool any = false;
    for (const auto& d : m_result.report.diagnostics)
        any = any || leftOutHeaderLine(d, part);
    if (!any)
        return;
    if (m_wholeBody.available == 0) // the lines are named by offset only
        addUnparsedRows(part, {});
    else // the block is at most Options::maxHeaderBytes (16 KiB by default)
        requestBytes(app::ByteUse::HeaderBlock, m_wholeBody, part.offset, qint64(part.bodyOffset - part.offset));
}

void InspectView::showHeaderBlock(const app::ByteReply& reply)
{
    if (m_shownPart)
        addUnparsedRows(*m_shownPart, reply.bytes);
}

void InspectView::addUnparsedRows(const core::PartSummary& part, const QByteArray& block)
{
    for (const auto& d : m_result.report.diagnostics) {
        if (!leftOutHeaderLine(d, part))
            continue;
        QString line = tr("(the line at byte %1; this source did not keep the raw header bytes)").arg(d.offset);
        if (!block.isEmpty()) {
            const qsizetype at = qsizetype(d.offset - part.offset);
            const qsizetype start = block.lastIndexOf('\n', at > 0 ? at - 1 : 0) + 1;
            const qsizetype end = block.indexOf('\n', at);
            QByteArray bytes = block.mid(start, (end < 0 ? block.size() : end) - start);
            if (bytes.endsWith('\r'))
                bytes.chop(1);
            line = app::printable(QString::fromUtf8(bytes));
        }
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        auto* mark = new QTableWidgetItem(tr("⚠ not parsed"));
        auto* value = new QTableWidgetItem(line);
        for (auto* item : {mark, value}) {
            item->setForeground(status::failure());
            item->setToolTip(tr("byte %1: %2 — %3 (the line was left out of the part's headers)")
                                 .arg(d.offset)
                                 .arg(app::toQString(core::codeName(d.code)), app::toQString(core::describe(d.code))));
        }
        m_headers->setItem(row, 0, mark);
        m_headers->setItem(row, 1, value);
    }
}

QList<HexRange> InspectView::partRanges(const core::PartSummary& part, bool partRelative) const
{
    const QString name =
        QStringLiteral("part %1%2")
            .arg(part.index)
            .arg(part.name ? QStringLiteral(" (%1)").arg(app::printable(app::toQString(*part.name))) : QString());
    if (partRelative)
        return {{0, part.size, tr("%1 body").arg(name), false}};
    return {{part.offset, part.bodyOffset, tr("%1 headers").arg(name), true},
            {part.bodyOffset, part.bodyOffset + part.size, tr("%1 body").arg(name), false}};
}

void InspectView::showHexAt(quint64 bodyOffset)
{
    if (m_wholeBody.available > 0) {
        showHex(m_wholeBody, bodyOffset, {}, m_shownPart ? partRanges(*m_shownPart, false) : QList<HexRange>{});
    } else if (const core::PartSummary* holder = app::partHolding(m_result.report.parts, bodyOffset)) {
        const app::PartBytes bytes = app::locatePart(m_result, *holder);
        const bool har = harEntryOf(*holder) != nullptr; // a HAR entry's node: its request body
        showHex(bytes, bodyOffset - holder->bodyOffset,
                !bytes.missing.isEmpty() ? QString()
                : har                    ? tr("this request's body, offsets from its first byte")
                      : tr("part %1, offsets from its first byte (no whole body was kept); body offset %2 is 0x%3 here")
                            .arg(holder->index)
                            .arg(bodyOffset)
                            .arg(bodyOffset - holder->bodyOffset, 0, 16),
                partRanges(*holder, true));
    } else {
        m_hexPage = {};
        m_hex->showMessage(
            tr("(body offset %1 is not inside a kept part, and no whole body was kept)").arg(bodyOffset));
    }
    if (sender() == m_diagnostics)
        m_tabs->setCurrentWidget(m_hexPane);
}

void InspectView::showHex(const app::PartBytes& source, quint64 at, const QString& note, const QList<HexRange>& ranges)
{
    const QString heading = note.isEmpty() ? QString() : QStringLiteral("# %1\n").arg(note);
    m_hexPage = {source, at, note, ranges, {}};
    m_hexPane->setStatus({});
    if (!source.missing.isEmpty()) {
        m_wanted[useIndex(app::ByteUse::Hex)] = 0;
        m_hex->showMessage(heading + tr("(%1)").arg(source.missing));
        return;
    }
    // The window starts up to 1 KiB before the byte, on a line's start, so that the byte is in the middle.
    const quint64 start = at > quint64(kHexBytes / 4) ? (at - quint64(kHexBytes / 4)) & ~quint64(15) : 0;
    m_hex->showMessage(heading + tr("(reading…)"));
    requestBytes(app::ByteUse::Hex, source, start, kHexBytes);
}

void InspectView::showHexPage(const app::ByteReply& reply)
{
    if (reply.bytes.isEmpty()) {
        const QString heading = m_hexPage.note.isEmpty() ? QString() : QStringLiteral("# %1\n").arg(m_hexPage.note);
        m_hex->showMessage(heading + (reply.error.isEmpty() ? tr("(no bytes at offset %1)").arg(m_hexPage.at)
                                                            : tr("(%1)").arg(reply.error)));
        return;
    }
    m_hex->showBytes(reply.bytes, reply.offset, m_hexPage.at, m_hexPage.ranges, m_hexPage.note);
}

void InspectView::goToHex(quint64 offset)
{
    const app::PartBytes& source = m_hexPage.source;
    if (!source.missing.isEmpty() || source.available == 0)
        m_hexPane->setStatus(tr("Nothing to go to: choose a part or the request first"), true);
    else if (offset >= source.available)
        m_hexPane->setStatus(
            tr("Offset %1 is past the end: the last byte is at %2").arg(offset).arg(source.available - 1), true);
    else // the page's shading, without the last match: it is not where the view goes
        showHex(source, offset, m_hexPage.note, withoutFound(m_hexPage.ranges));
}

// From the byte shown, or just after the last match, to the end of what the view pages through.
void InspectView::findInHex(const QByteArray& needle)
{
    const app::PartBytes& source = m_hexPage.source;
    if (!source.missing.isEmpty() || source.available == 0) {
        m_hexPane->setStatus(tr("Nothing to search: choose a part or the request first"), true);
        return;
    }
    // The next match of the same bytes; other bytes from the byte shown.
    const quint64 from = m_hexPage.at + (!m_hexPage.found.isEmpty() && m_hexPage.found == needle ? 1 : 0);
    const app::ByteRequest request{
        ++m_lastRequestId, app::ByteUse::Find, source, from, 0, core::PartEncoding::Identity, needle};
    m_wanted[useIndex(app::ByteUse::Find)] = request.id;
    m_hexPane->setStatus(tr("Searching…"));
    emit bytesRequested(request);
}

void InspectView::showFound(const app::ByteReply& reply)
{
    if (!reply.error.isEmpty()) {
        m_hexPane->setStatus(tr("“%1”: %2").arg(m_hexPane->findEdit()->text(), reply.error), true);
        return;
    }
    QList<HexRange> ranges = withoutFound(m_hexPage.ranges);
    ranges.append({reply.offset, reply.offset + quint64(reply.bytes.size()), tr("found"), false, true});
    showHex(m_hexPage.source, reply.offset, m_hexPage.note, ranges);
    m_hexPage.found = reply.bytes;
    m_hexPane->setStatus(tr("Found at offset %1 (0x%2)%3")
                             .arg(reply.offset)
                             .arg(reply.offset, 0, 16)
                             .arg(reply.wrapped ? tr(", from the start again") : QString()));
}

} // namespace upin::ui
