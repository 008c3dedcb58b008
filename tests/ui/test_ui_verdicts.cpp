// The window says what happened, the cause first: a Content-Length that promised more than the file holds, a
// client that went away, an upstream that was down. None of them reads as a parser problem.

#include "app/forward_fixture.h"
#include "app/listener_fixture.h"
#include "models/capture_list_model.h"
#include "support/inspect_file.h"
#include "support/sample_requests.h"
#include "support/view_reader.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace upin;

namespace {
// The State cell of the list's one row once its capture has finished.
// Connected before the request is sent: a batch the listener emits before its slot is connected is never delivered,
// which a loaded machine made happen to a body read whole with its head.
void showEvents(test::ListenerFixture& f, ui::ListenView& view)
{
    QObject::connect(&f.listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
}

QString finishedState(ui::ListenView& view)
{
    const auto state = [&] {
        auto* model = view.model();
        return model->rowCount() == 0
                   ? QString()
                   : model->data(model->index(0, ui::CaptureListModel::State), Qt::DisplayRole).toString();
    };
    for (int i = 0; i < 200 && (state().isEmpty() || state() == "receiving"); ++i)
        QTest::qWait(20);
    return state();
}
} // namespace

TEST_CASE("Inspect blames a Content-Length that promises more than the file has, not the whole body",
          "[ui][inspect][verdict]")
{
    QTemporaryDir dir;
    const QByteArray body = test::wholeMultipartBody();
    const QString file = test::requestShortOfItsLength(dir);
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(test::inspectFile(file));
    INFO(view.title().toStdString());
    CHECK(view.title().contains(QStringLiteral("13 bytes missing: Content-Length %1, the file has %2 (the body "
                                               "itself is whole)")
                                    .arg(body.size() + 13)
                                    .arg(body.size())));
    CHECK_FALSE(view.title().contains("input ended inside a part"));
    // The Request's text flags the length against what came, and the diagnostics say it once, with the count.
    REQUIRE(view.model()->isRequest(view.model()->index(0, 0)));
    view.tree()->setCurrentIndex(view.model()->index(0, 0));
    CHECK(view.text()->toPlainText().contains(
        QStringLiteral("⚠ 13 bytes short of its Content-Length (%1)").arg(body.size() + 13)));
    auto* diagnostics = view.findChild<QListWidget*>();
    REQUIRE(diagnostics);
    QStringList lines;
    for (int i = 0; i < diagnostics->count(); ++i)
        lines << diagnostics->item(i)->text();
    INFO(lines.join('\n').toStdString());
    CHECK(lines.filter("body_cut_short").size() == 1);
    CHECK(lines.filter("body_cut_short").first().contains("13 bytes missing"));
    CHECK(lines.filter("body_cut_short").first().contains("the body itself is whole"));
    CHECK(diagnostics->wordWrap());
    diagnostics->setCurrentRow(lines.indexOf(lines.filter("body_cut_short").first()));
    CHECK(view.hex()->toPlainText().contains(">00000030")); // the hex view marks the row of its byte (63 = 0x3f)
}

TEST_CASE("the Listen tab says a client went away, and after how much of the body", "[ui][listen][verdict]")
{
    test::ListenerFixture f;
    ui::ListenView view;
    showEvents(f, view);
    {
        test::RawClient client(f.listener.port());
        REQUIRE(client.send("POST /file-part HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                            "boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; "
                            "name=\"f\"; filename=\"x\"\r\n\r\n" +
                            QByteArray(2000, 'x')));
        QTest::qWait(200);
    } // closed mid-body
    const QString state = finishedState(view);
    INFO(state.toStdString());
    CHECK(state.startsWith("incomplete: the client closed the connection after "));
    CHECK(state.contains(" of the body (of 97.7 KiB)"));
    CHECK_FALSE(state.contains("input ended inside a part"));
}

TEST_CASE("the Listen tab says the upstream was down, not that the body ended", "[ui][listen][forward][verdict]")
{
    quint16 closedPort = 0;
    {
        QTcpServer probe; // a port nothing listens on once it closes
        REQUIRE(probe.listen(QHostAddress::LocalHost));
        closedPort = probe.serverPort();
    }
    auto f = test::forwarder(QStringLiteral("http://127.0.0.1:%1").arg(closedPort));
    ui::ListenView view;
    showEvents(*f, view);
    QTemporaryDir dir;
    QFile file(dir.filePath("a.txt"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    // More than the read that takes the head: the rest of the body waits in the kernel while the upstream connects.
    file.write(test::randomBytes(4 << 20, 5));
    file.close();
    CHECK(test::curl({"-F", "f=@" + file.fileName(), f->url("/upload")}).status == 502);
    const QString state = finishedState(view);
    INFO(state.toStdString());
    CHECK(state.startsWith("incomplete: upstream unreachable: "));
    CHECK_FALSE(state.contains("input ended inside a part"));
    const QString upstream =
        view.model()->data(view.model()->index(0, ui::CaptureListModel::Upstream), Qt::DisplayRole).toString();
    CHECK(upstream == "no answer: 502 upstream unreachable");
}

TEST_CASE("the Listen tab says a whole body whose upstream was down had no answer, not 'complete'",
          "[ui][listen][forward][verdict]")
{
    quint16 closedPort = 0;
    {
        QTcpServer probe;
        REQUIRE(probe.listen(QHostAddress::LocalHost));
        closedPort = probe.serverPort();
    }
    auto f = test::forwarder(QStringLiteral("http://127.0.0.1:%1").arg(closedPort));
    ui::ListenView view;
    showEvents(*f, view);
    // Read whole with its head, the body is parsed for the record although it went nowhere. Head and body go in one
    // write, so that they arrive in one read: curl may send them apart, and a loaded machine then let the forwarder
    // meet the refused upstream between the two (the test above).
    test::RawClient client(f->listener.port());
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    REQUIRE(client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                        "Content-Length: " +
                        QByteArray::number(body.size()) + "\r\n\r\n" + body));
    CHECK(client.receive(5000).startsWith("HTTP/1.1 502 "));
    const QString state = finishedState(view);
    INFO(state.toStdString());
    CHECK(state == "no answer from the server: 502"); // "complete" read as fine (a review)
    auto* model = view.model();
    CHECK(model->row(0).parts == 1);
    CHECK(model->data(model->index(0, ui::CaptureListModel::Upstream), Qt::DisplayRole).toString() ==
          "no answer: 502 upstream unreachable");
}

TEST_CASE("a complete capture with diagnostics says so in the list, not in plain green", "[ui][listen][verdict]")
{
    test::ListenerFixture f;
    ui::ListenView view;
    showEvents(f, view);
    // A preamble before the first delimiter and a part without Content-Disposition: whole, with two remarks.
    auto r = test::curl({"-H", "Content-Type: multipart/form-data; boundary=b", "--data-binary",
                         "preamble\r\n--b\r\nX-Note: 1\r\n\r\nv\r\n--b--\r\n", f.url("/part-event")});
    REQUIRE(r.status == 200);
    const QString state = finishedState(view);
    INFO(state.toStdString());
    CHECK(state.startsWith("complete, "));
    CHECK(state.contains(" diagnostic"));
    const QVariant colour = view.model()->data(view.model()->index(0, ui::CaptureListModel::State), Qt::ForegroundRole);
    CHECK(colour.value<QBrush>().color() != QColor(0x1a, 0x7f, 0x37)); // not the green of a clean capture
}
