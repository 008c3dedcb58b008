// Inspect reads no files on the GUI thread, and its parts read as in the tools people know (issue 23, items 8
// and 15): hex offsets with the selected part shaded, columns that fit, a context menu, decoded transfer
// encodings, and /part-event captures, which keep no bytes, opened from their record.

#include "app/listener_fixture.h"
#include "main_window.h"
#include "service_wiring.h"
#include "support/inspect_file.h"
#include "support/view_reader.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/hex_view.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <QTreeView>

using namespace upin;

namespace {

QByteArray tinyPng()
{
    QImage image(40, 30, QImage::Format_RGB32);
    image.fill(QColor(0x20, 0x80, 0xc0));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

// A mail client's form: a PNG in base64 broken into lines, a note in quoted-printable, a plain field.
QByteArray encodedForm(const QByteArray& png)
{
    QByteArray base64 = png.toBase64();
    for (qsizetype at = 76; at < base64.size(); at += 78)
        base64.insert(at, "\r\n");
    return "--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dot.png\"\r\nContent-Type: image/png\r\n"
           "Content-Transfer-Encoding: base64\r\n\r\n" +
           base64 +
           "\r\n--B\r\nContent-Disposition: form-data; name=\"note\"\r\nContent-Type: text/plain; charset=utf-8\r\n"
           "Content-Transfer-Encoding: quoted-printable\r\n\r\ncaf=C3=A9 =3D long =\r\nline\r\n--B\r\n"
           "Content-Disposition: form-data; name=\"plain\"\r\n\r\nas is\r\n--B--\r\n";
}

QString writeBody(QTemporaryDir& dir, const QByteArray& body)
{
    QFile file(dir.filePath("form.bin"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(body);
    return file.fileName();
}

} // namespace

TEST_CASE("Inspect asks for the bytes it shows and reads no file itself, and drops a late answer for a part left",
          "[ui][inspect][async]")
{
    QTemporaryDir dir;
    ui::InspectView view; // no reader: every request waits, as it would behind a slow disk
    QSignalSpy asked(&view, &ui::InspectView::bytesRequested);
    view.showResult(test::inspectFile(writeBody(dir, encodedForm(tinyPng()))));
    REQUIRE(view.model()->rowCount() == 3);
    CHECK(view.text()->toPlainText() == "(reading…)");
    CHECK(view.hex()->toPlainText() == "(reading…)");
    CHECK(view.image()->text() == "(sent as base64: tick “Decode base64” to see the image)"); // nothing read
    REQUIRE(asked.size() >= 2); // text and hex of the first part
    const auto firstText = asked.first().first().value<app::ByteRequest>();
    CHECK(firstText.use == app::ByteUse::Text);
    view.tree()->setCurrentIndex(view.model()->index(2, 0)); // "plain", before the first answer came
    view.onBytesRead(app::readBytes(firstText));             // late: the photo's text must not show for "plain"
    CHECK(view.text()->toPlainText() == "(reading…)");
    for (const auto& call : asked.mid(asked.size() - 2)) // what "plain" asked: its text and its hex page
        view.onBytesRead(app::readBytes(call.first().value<app::ByteRequest>()));
    CHECK(view.text()->toPlainText() == "as is");
    CHECK(view.hex()->markedOffset() == view.model()->report().parts[2].bodyOffset);
}

TEST_CASE("the hex view: hex offsets, the selected part's header and body shaded, the offset in decimal on hover",
          "[ui][inspect][hex]")
{
    QTemporaryDir dir;
    ui::InspectView view;
    test::ViewReader reader(view);
    view.resize(1200, 800);
    view.show();
    view.showResult(test::inspectFile(writeBody(dir, encodedForm(tinyPng()))));
    view.tree()->setCurrentIndex(view.model()->index(1, 0)); // the note
    const auto& note = view.model()->report().parts[1];
    const auto ranges = view.hex()->shadedRanges();
    REQUIRE(ranges.size() == 2);
    CHECK(ranges[0].header);
    CHECK(ranges[0].from == note.offset);
    CHECK(ranges[0].to == note.bodyOffset);
    CHECK_FALSE(ranges[1].header);
    CHECK(ranges[1].from == note.bodyOffset);
    CHECK(ranges[1].to == note.bodyOffset + note.size);
    CHECK(view.hex()->extraSelections().size() >= 4); // hex and text columns of each shaded line, and the mark
    CHECK(view.hex()->markedOffset() == note.bodyOffset);
    // Offsets in hexadecimal, eight digits; the marked line has '>' in a column of its own, every line as wide.
    const QString line = QStringLiteral(">%1  ").arg(note.bodyOffset & ~quint64(15), 8, 16, QLatin1Char('0'));
    CHECK(view.hex()->toPlainText().contains(line));
    const QStringList lines = view.hex()->toPlainText().split('\n', Qt::SkipEmptyParts);
    for (const QString& l : lines.mid(0, lines.size() - 1))
        CHECK(l.size() == lines.first().size());
    // The tooltip of the body's first byte: its offset in hex and decimal, and what it belongs to.
    const quint64 firstLine = lines.first().mid(1, 8).toULongLong(nullptr, 16);
    QTextCursor cursor(view.hex()->document()->findBlockByNumber(int((note.bodyOffset - firstLine) / 16)));
    cursor.setPosition(cursor.block().position() + 1 + 8 + 2 + 3 * int(note.bodyOffset % 16) + 1);
    const QString tip = view.hex()->toolTipAt(view.hex()->cursorRect(cursor).center());
    CHECK(tip.startsWith(QStringLiteral("offset 0x%1 = %2").arg(note.bodyOffset, 0, 16).arg(note.bodyOffset)));
    CHECK(tip.contains("part 1 (note) body, its byte 0"));
}

TEST_CASE("Inspect at 1200 px: Size and the digest are in view, a long name elides and types and numbers do not",
          "[ui][inspect][layout]")
{
    test::ListenerFixture f;
    REQUIRE(test::curl({"-F",
                        "photo=@" + f.file("a-long-name-for-a-photo-taken-on-holiday-by-the-sea.png",
                                           test::randomBytes(5000, 3)),
                        "-F", "note=hello", f.url("/file-part")})
                .status == 200);
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    auto* view = window.inspectView();
    test::ViewReader reader(*view);
    window.tabs()->setCurrentWidget(view);
    view->showResult(test::inspectFile(f.onlyCaptureFolder()));
    QApplication::processEvents();
    QTreeView* tree = view->tree();
    CHECK(tree->horizontalScrollBar()->maximum() == 0); // no sideways scroll
    auto* header = tree->header();
    const int viewport = tree->viewport()->width();
    CHECK(header->isSectionHidden(ui::PartTreeModel::Sent)); // not a capture of this window's own send
    for (int column : {ui::PartTreeModel::Size, ui::PartTreeModel::Digest}) {
        INFO(column);
        CHECK(header->sectionViewportPosition(column) + header->sectionSize(column) <= viewport);
    }
    auto textWidth = [&](int row, int column) {
        return tree->fontMetrics().horizontalAdvance(
            view->model()->data(view->model()->index(row, column), Qt::DisplayRole).toString());
    };
    for (int row = 1; row < view->model()->rowCount(); ++row)
        for (int column : {ui::PartTreeModel::BodyOffset, ui::PartTreeModel::Size})
            CHECK(header->sectionSize(column) >= textWidth(row, column)); // numbers whole
    // The request's method, target and type, the parts' types and the digests' starts are whole; a 55-letter
    // filename elides, whole in its tooltip.
    for (int row = 0; row < view->model()->rowCount(); ++row)
        for (int column : {ui::PartTreeModel::Filename, ui::PartTreeModel::ContentType, ui::PartTreeModel::Digest})
            if (row != 1 || column != ui::PartTreeModel::Filename) {
                INFO(row << " " << column);
                CHECK(header->sectionSize(column) >= textWidth(row, column));
            }
    CHECK(header->sectionSize(ui::PartTreeModel::Filename) < textWidth(1, ui::PartTreeModel::Filename));
    CHECK(view->model()
              ->data(view->model()->index(1, ui::PartTreeModel::Filename), Qt::ToolTipRole)
              .toString()
              .contains("a-long-name-for-a-photo-taken-on-holiday-by-the-sea.png"));
    // The digest shows its first 12 hex digits, as git shows a commit's, and is whole in its tooltip.
    const QModelIndex digest = view->model()->index(1, ui::PartTreeModel::Digest);
    CHECK(digest.data().toString().size() == 12);
    CHECK(view->model()->data(digest, Qt::ToolTipRole).toString().size() == 64);
    CHECK(view->model()->data(digest, Qt::ToolTipRole).toString().startsWith(digest.data().toString()));
}

TEST_CASE("Inspect at 1280 px: a name longer than its share takes the width no column uses", "[ui][inspect][layout]")
{
    test::ListenerFixture f;
    REQUIRE(test::curl({"-F", "photo=@" + f.file("vacation-photo-from-the-beach.png", test::randomBytes(150000, 3)),
                        f.url("/capture")})
                .status == 200);
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    auto* view = window.inspectView();
    test::ViewReader reader(*view);
    window.tabs()->setCurrentWidget(view);
    view->showResult(test::inspectFile(f.onlyCaptureFolder()));
    QTreeView* tree = view->tree();
    const QString name = view->model()->index(1, ui::PartTreeModel::Filename).data().toString();
    REQUIRE(name == "vacation-photo-from-the-beach.png");
    UPIN_WAIT_FOR(
        tree->header()->sectionSize(ui::PartTreeModel::Filename) >= tree->fontMetrics().horizontalAdvance(name), 5000);
    CHECK(tree->horizontalScrollBar()->maximum() == 0);
    CHECK(tree->header()->sectionSize(0) < 40); // "#" as wide as its digits: 40 px cut this name under Xvfb
}

TEST_CASE("right-click on a part offers Save part, Copy digest, Copy as curl and Show in hex", "[ui][inspect][menu]")
{
    QTemporaryDir dir;
    ui::InspectView view;
    test::ViewReader reader(view);
    view.resize(1200, 800);
    view.show();
    view.showResult(test::inspectFile(writeBody(dir, encodedForm(tinyPng()))));
    QStringList offered;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        REQUIRE(menu);
        for (QAction* action : menu->actions())
            if (action->isEnabled())
                offered << action->text();
        for (QAction* action : menu->actions())
            if (action->text() == "Copy digest")
                action->trigger();
        menu->close();
    });
    const QRect row = view.tree()->visualRect(view.model()->index(2, 0)); // "plain"
    emit view.tree()->customContextMenuRequested(row.center());
    CHECK(offered == QStringList{"Save part…", "Copy digest", "Copy as curl", "Show in hex"});
    CHECK(view.model()->part(view.tree()->currentIndex())->name == "plain"); // the menu acts on the row clicked
    CHECK(QApplication::clipboard()->text().toStdString() == view.model()->report().parts[2].digest);
}

TEST_CASE("one Decode box beside the tabs decodes Text, Image and Save part alike (Hex stays as received)",
          "[ui][inspect][decoding]")
{
    QTemporaryDir dir;
    const QByteArray png = tinyPng();
    REQUIRE_FALSE(png.isEmpty());
    ui::InspectView view;
    test::ViewReader reader(view);
    view.resize(1024, 700);
    view.show();
    view.showResult(test::inspectFile(writeBody(dir, encodedForm(png))));
    QCheckBox* decode = view.decodeBox();
    auto* tabs = view.findChild<QTabWidget*>();
    REQUIRE(tabs);
    CHECK(tabs->cornerWidget() == decode);                   // seen on every tab, not on Text's alone
    view.tree()->setCurrentIndex(view.model()->index(0, 0)); // the photo, in base64
    CHECK(decode->isVisible());
    CHECK(decode->text() == "Decode base64");
    // Not ticked: every tab shows what was sent, and the image says which box shows it.
    CHECK(view.image()->pixmap().isNull());
    CHECK(view.image()->text() == "(sent as base64: tick “Decode base64” to see the image)");
    CHECK(view.text()->toPlainText().startsWith(QString::fromLatin1(png.toBase64().left(40))));
    decode->setChecked(true);
    CHECK_FALSE(view.image()->pixmap().isNull());
    CHECK(view.image()->toolTip().startsWith("decoded from its Content-Transfer-Encoding"));
    CHECK(view.text()->toPlainText().startsWith("(binary once decoded"));
    // The note about it wraps: read whole in the pane, not on one line scrolled sideways.
    tabs->setCurrentIndex(tabs->indexOf(view.text()->parentWidget()));
    QApplication::processEvents();
    const QTextBlock note = view.text()->document()->firstBlock();
    INFO(note.text().toStdString() << " in " << view.text()->viewport()->width() << " px");
    REQUIRE(view.text()->fontMetrics().horizontalAdvance(note.text()) > view.text()->viewport()->width());
    CHECK(view.text()->document()->documentLayout()->blockBoundingRect(note).height() >
          1.5 * view.text()->fontMetrics().lineSpacing());
    CHECK(view.hex()->toPlainText().contains(
        QString::fromLatin1(png.toBase64().left(4).toHex(' ')))); // Hex stays the bytes as received
    view.tree()->setCurrentIndex(view.model()->index(1, 0));      // the note, quoted-printable
    CHECK(decode->text() == "Decode quoted-printable");
    CHECK(view.text()->toPlainText() == QString::fromUtf8("café = long line"));
    decode->setChecked(false);
    CHECK(view.text()->toPlainText() == "caf=C3=A9 =3D long =\nline"); // the line break as the text view shows it
    view.tree()->setCurrentIndex(view.model()->index(2, 0));           // no coding: no box
    CHECK(decode->isHidden());
}

TEST_CASE("a /part-event capture opens in Inspect from its record: names, sizes, digests, headers, no bytes",
          "[ui][inspect][listen]")
{
    test::WiredWindow wired;
    QTemporaryDir& dir = wired.dir;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    test::ViewReader reader(*window.inspectView()); // answered at once, as well as on the reader's thread
    const QByteArray photo = test::randomBytes(3000, 4);
    QFile file(dir.filePath("photo.bin"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(photo);
    file.close();
    QProcess curl;
    curl.start("curl", {"-s", "-F", "photo=@" + file.fileName(), "-F", "note=hi",
                        QStringLiteral("http://127.0.0.1:%1/part-event").arg(port)});
    auto* table = window.listenView()->findChild<QTableView*>();
    REQUIRE(table);
    const auto* model = window.listenView()->model();
    UPIN_WAIT_FOR(model->rowCount() == 1 && model->row(0).record, 10000);
    curl.waitForFinished();
    table->setCurrentIndex(table->model()->index(0, 0));
    QTest::keyClick(table, Qt::Key_Return);
    ui::InspectView* inspect = window.inspectView();
    CHECK(window.tabs()->currentWidget() == inspect);
    CHECK(inspect->title().contains("(/part-event)"));
    REQUIRE(inspect->model()->rowCount() == 3); // the request, photo, note
    CHECK(inspect->model()->data(inspect->model()->index(1, ui::PartTreeModel::Name), Qt::DisplayRole) == "photo");
    CHECK(inspect->model()->data(inspect->model()->index(1, ui::PartTreeModel::Digest), Qt::ToolTipRole).toString() ==
          QString::fromLatin1(QCryptographicHash::hash(photo, QCryptographicHash::Sha256).toHex()));
    inspect->tree()->setCurrentIndex(inspect->model()->index(1, 0));
    CHECK(inspect->headers()->rowCount() >= 1);
    CHECK(inspect->text()->toPlainText().contains("/part-event keeps no part bytes, only their sizes and hashes"));
    CHECK_FALSE(inspect->savePartButton()->isEnabled());
}

TEST_CASE("a client's filename cannot reorder or style what the tree shows", "[ui][inspect][adversarial]")
{
    core::ParseReport report;
    core::PartSummary part;
    part.name = "f";
    part.filename = "\xe2\x80\xaegnp.exe<b>x</b>"; // U+202E, then markup
    report.parts.push_back(part);
    ui::PartTreeModel model;
    model.setReport(report, {});
    const QModelIndex filename = model.index(model.rowCount() - 1, ui::PartTreeModel::Filename);
    CHECK(filename.data().toString() == "\\u202egnp.exe<b>x</b>"); // the mark spelt, the text as sent
    const QString tip = filename.data(Qt::ToolTipRole).toString();
    CHECK(tip.contains("&lt;b&gt;x&lt;/b&gt;")); // shown as text, not drawn bold
    CHECK_FALSE(tip.contains("<b>"));
}

TEST_CASE("Save all parts writes a client's hostile filenames as safe names inside the folder chosen",
          "[ui][inspect][hostile]")
{
    QTemporaryDir dir;
    const QByteArray body =
        "--B\r\nContent-Disposition: form-data; name=\"a\"; filename=\"..\"\r\n\r\none\r\n"
        "--B\r\nContent-Disposition: form-data; name=\"b\"; filename=\"\t\xe2\x80\xaegnp.exe\"\r\n\r\n"
        "two\r\n--B\r\nContent-Disposition: form-data; name=\"c\"; filename=\"" +
        QByteArray(3000, 'x') +
        "\"\r\n\r\nthree\r\n--B\r\nContent-Disposition: form-data; "
        "name=\"d\"; filename=\"\"\r\n\r\nfour\r\n--B--\r\n";
    ui::InspectView view;
    view.showResult(test::inspectFile(writeBody(dir, body)));
    REQUIRE(view.model()->rowCount() == 4);
    QList<app::PartCopy> asked;
    QObject::connect(&view, &ui::InspectView::savePartsRequested,
                     [&](const QList<app::PartCopy>& copies) { asked = copies; });
    const QString into = dir.filePath("saved");
    view.saveAllPartsInto(into);
    REQUIRE(asked.size() == 4);
    QStringList names;
    for (const auto& copy : asked) {
        CHECK(QFileInfo(copy.target).path() == into); // each inside the folder chosen
        names << QFileInfo(copy.target).fileName();
    }
    CHECK(names.value(0) == "000-part");      // no "..", no name of dots alone
    CHECK(names.value(1) == "001-__gnp.exe"); // no tab, no right-to-left mark to turn ".exe" round
    CHECK(names.value(2).size() < 255);       // a name the file system takes
    CHECK(names.value(3) == "003-d");         // an empty filename: the field's name
}

TEST_CASE("Inspect with nothing open says how to open something", "[ui][inspect]")
{
    ui::InspectView view;
    CHECK(view.title().contains("double-click a capture in Listen"));
    CHECK(view.title().contains("Ctrl+O"));
}
