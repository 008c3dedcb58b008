// The Probe tab (issue 24, item 10): a whole probe of a real server on loopback started from the form, its
// findings listed, each chart drawn from data, the exports written; the form's mistakes said before anything is
// sent; the picker lists the server among the local listening processes.

#include "app/forward_fixture.h"
#include "charts/probe_chart.h"
#include "main_window.h"
#include "service_wiring.h"
#include "tls/tls_identity.h"
#include "views/probe_view.h"
#include "views/tls_trust.h"

#include <catch2/catch.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

namespace {

struct Window {
    QTemporaryDir dir;
    std::unique_ptr<ui::MainWindow> window;
    std::unique_ptr<ui::ServiceWiring> wiring;
    ui::ProbeView* probe = nullptr;
    Window()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
        window = std::make_unique<ui::MainWindow>();
        wiring = std::make_unique<ui::ServiceWiring>(*window, dir.filePath("captures"));
        probe = window->probeView();
    }
    ~Window() { wiring.reset(); }
};

void untick(const QList<QCheckBox*>& shapes, const QStringList& keep)
{
    for (QCheckBox* box : shapes)
        box->setChecked(keep.contains(box->text()));
}

bool waitFor(const std::function<bool()>& done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < ms)
        QTest::qWait(20);
    return done();
}

} // namespace

TEST_CASE("a whole probe from the Probe tab: findings listed, every chart with data, HTML JSON and PNG written",
          "[ui][probe]")
{
    test::PythonServer lossy({UPIN_TESTS_DIR "/app/probe_servers.py", "dropbyte"});
    Window w;
    ui::ProbeView* probe = w.probe;
    w.window->tabs()->setCurrentWidget(probe);
    w.window->resize(1280, 800);
    w.window->show();
    // The picker lists the server, found through /proc, off the GUI thread.
    REQUIRE(waitFor([&] { return probe->processBox()->findData(lossy.process.processId()) >= 0; }, 10000));
    probe->urlEdit()->setText(lossy.url() + "/upload");
    probe->sizeEdit()->setText("8M");
    probe->concurrencyEdit()->setText("1,2");
    untick(probe->shapeBoxes(), {"plain", "crlf-dense"});
    // The GUI thread's longest gap between timer ticks while the probe runs: reported, not asserted (shared
    // machines pause processes), and looked at by hand.
    qint64 longestGap = 0;
    QElapsedTimer tick;
    tick.start();
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, [&] { longestGap = std::max(longestGap, tick.restart()); });
    watch.start(10);
    probe->startButton()->click();
    CHECK_FALSE(probe->startButton()->isEnabled());
    CHECK(probe->cancelButton()->isEnabled());
    REQUIRE(waitFor([&] { return probe->startButton()->isEnabled(); }, 120000));
    watch.stop();
    WARN("the GUI thread's longest gap during the probe: " << longestGap << " ms");
    INFO(probe->stepLabel()->text().toStdString());
    CHECK(probe->stepLabel()->text().startsWith("Done in"));

    QStringList findings;
    for (int i = 0; i < probe->findingList()->count(); ++i)
        findings << probe->findingList()->item(i)->text();
    INFO(findings.join('\n').toStdString());
    CHECK(findings.filter("wrong_bytes").size() == 2); // both shapes, one byte short each
    CHECK(findings.filter("rejected_valid_body").isEmpty());
    REQUIRE(probe->charts().size() == 4);
    CHECK(probe->charts()[0]->pointCount() == 4); // two shapes beside their baselines
    CHECK(probe->charts()[1]->pointCount() >= 2); // 4M and 8M
    CHECK(probe->charts()[2]->pointCount() >= 4); // 1 and 2 clients: the server's and the baseline's rate
    CHECK(probe->charts()[3]->pointCount() > 2);  // RSS samples of the server found by its port
    CHECK(probe->report().pid == lossy.process.processId());

    QTemporaryDir out;
    probe->exportHtmlTo(out.filePath("probe.html"));
    probe->exportJsonTo(out.filePath("probe.json"));
    probe->exportPngTo(out.filePath("probe.png"));
    REQUIRE(waitFor(
        [&] {
            return QFile::exists(out.filePath("probe.png")) && QFile::exists(out.filePath("probe.json")) &&
                   QFile::exists(out.filePath("probe.html"));
        },
        10000));
    QFile json(out.filePath("probe.json"));
    REQUIRE(json.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(json.readAll()).object();
    CHECK(report["findings"].toArray().size() == findings.size());
    CHECK(report["shapes"].toArray().size() == 2);
    QFile html(out.filePath("probe.html"));
    REQUIRE(html.open(QIODevice::ReadOnly));
    CHECK(html.readAll().count("<svg") == 5);
    const QImage png(out.filePath("probe.png"));
    CHECK(png.width() > 600);
}

TEST_CASE("the Probe tab says what is wrong in its form before anything is sent, and starts with our own listener",
          "[ui][probe]")
{
    Window w;
    ui::ProbeView* probe = w.probe;
    CHECK(probe->urlEdit()->text().isEmpty()); // no listener started yet
    probe->urlEdit()->setText("ftp://example.com/x");
    probe->startButton()->click();
    CHECK(probe->stepLabel()->text().contains("URL: give an http:// or https:// URL"));
    CHECK(probe->startButton()->isEnabled());
    probe->urlEdit()->setText("http://127.0.0.1:9/upload");
    probe->concurrencyEdit()->setText("1,lots");
    probe->startButton()->click();
    CHECK(probe->stepLabel()->text().contains("Parallel: 'lots' is not a number"));
    probe->concurrencyEdit()->setText("1");
    untick(probe->shapeBoxes(), {});
    probe->startButton()->click();
    CHECK(probe->stepLabel()->text().contains("Shapes: choose at least one"));
    CHECK(probe->startButton()->isEnabled());
    for (QPushButton* b : probe->findChildren<QPushButton*>())
        if (b->text().startsWith("Export"))
            CHECK_FALSE(b->isEnabled()); // nothing to export before a probe
}

TEST_CASE("the Probe tab probes an https server: stopped with a hint while its certificate is not trusted, then run "
          "with its CA file",
          "[ui][probe][tls]")
{
    QTemporaryDir home;
    test::ListenerFixture server(
        test::tlsConfig(home.filePath("tls"))); // our own listener over TLS, its certificate made for localhost
    REQUIRE(server.listener.tlsIdentity().has_value());
    Window w;
    ui::ProbeView* probe = w.probe;
    probe->urlEdit()->setText(QStringLiteral("https://localhost:%1/part-event").arg(server.listener.tlsPort()));
    probe->sizeEdit()->setText("1M");
    probe->concurrencyEdit()->setText("0");
    untick(probe->shapeBoxes(), {"plain"});
    auto runProbe = [&] {
        probe->startButton()->click();
        REQUIRE(waitFor([&] { return probe->startButton()->isEnabled(); }, 60000));
        return probe->findingList()->item(0)->text();
    };
    const QString untrusted = runProbe();
    INFO(untrusted.toStdString());
    CHECK(untrusted.startsWith("✗ Stopped: https://localhost"));
    CHECK(untrusted.endsWith("(to trust it: a CA file, or Don't check https certificates, beside the URL)"));

    CHECK(probe->tlsTrust()->clearButton()->isHidden()); // nothing chosen: nothing to clear
    probe->tlsTrust()->setCaFile(server.listener.tlsIdentity()->certificatePath);
    CHECK_FALSE(probe->tlsTrust()->clearButton()->isHidden());
    QString error;
    CHECK(probe->settings(&error)->caCertificates == server.listener.tlsIdentity()->certificatePath);
    const QString trusted = runProbe();
    INFO(trusted.toStdString());
    INFO(probe->stepLabel()->text().toStdString());
    INFO(probe->report().toJson()["unreachable"].toString().toStdString());
    CHECK(trusted.startsWith("✓ No findings"));
    CHECK(probe->report().shapes.first().status == 200);
    // The listener is this process's own: its memory is watched, and said to hold the probe's too.
    CHECK(probe->report().watchedSelf);
    CHECK(probe->charts()[3]->toolTip().contains("RSS of this program, the probe included"));
}

TEST_CASE("Cancel stops a probe under way, the next probe runs whole, and the form is there in the next session",
          "[ui][probe]")
{
    test::PythonServer stream({UPIN_TESTS_DIR "/app/probe_servers.py", "stream"});
    Window w;
    ui::ProbeView* probe = w.probe;
    probe->urlEdit()->setText(stream.url() + "/upload");
    probe->urlEdit()->textEdited(probe->urlEdit()->text()); // as typed: remembered
    probe->sizeEdit()->setText("64M");                      // every shape at 64 MiB: far longer than the wait below
    QJsonObject form = probe->form();
    form["at_most"] = "1G"; // under the plan's 3.5 GiB: said while it runs
    probe->setForm(form);
    probe->startButton()->click();
    REQUIRE(waitFor([&] { return probe->stepLabel()->text().contains("run 1 of 2"); }, 30000));
    CHECK(probe->stepLabel()->text().contains("over At most's 1.00 GiB: the later steps will be left out"));
    probe->cancelButton()->click();
    REQUIRE(waitFor([&] { return probe->startButton()->isEnabled(); }, 15000));
    INFO(probe->stepLabel()->text().toStdString());
    CHECK(probe->stepLabel()->text().startsWith("Cancelled in"));
    CHECK(probe->report().cancelled);
    // The bar stays where it stopped, and a chart of a phase that never ran says so.
    const auto* bar = probe->findChild<QProgressBar*>();
    REQUIRE(bar);
    CHECK(bar->format().startsWith("Cancelled during body shapes"));
    CHECK(bar->value() < bar->maximum());
    CHECK(probe->charts()[1]->chart()->title().endsWith("(not run)"));
    form["at_most"] = "4G";
    probe->setForm(form);

    probe->sizeEdit()->setText("1M");
    probe->concurrencyEdit()->setText("1");
    untick(probe->shapeBoxes(), {"plain", "near-miss"});
    probe->startButton()->click();
    REQUIRE(waitFor([&] { return probe->startButton()->isEnabled(); }, 60000));
    INFO(probe->stepLabel()->text().toStdString());
    CHECK(probe->stepLabel()->text().startsWith("Done in"));
    CHECK_FALSE(probe->report().cancelled);
    CHECK(probe->report().shapes.size() == 2);
    // Scaling was asked for, and 1M gives it one size: the chart says why it is empty.
    CHECK(probe->charts()[1]->chart()->title().endsWith("(not run: Size ≤ 4M)"));
    CHECK(probe->report().concurrency.size() == 1);

    w.window->saveSettings();
    ui::MainWindow next; // the next session, with the same settings file
    next.restoreSettings();
    ui::ProbeView* again = next.probeView();
    CHECK(again->urlEdit()->text() == stream.url() + "/upload");
    CHECK(again->sizeEdit()->text() == "1M");
    CHECK(again->concurrencyEdit()->text() == "1");
    QStringList ticked;
    for (QCheckBox* box : again->shapeBoxes())
        if (box->isChecked())
            ticked << box->text();
    CHECK(ticked == QStringList{"plain", "near-miss"});
}

TEST_CASE("the probe's remembered CA file is offered again only while it is there to read", "[ui][probe]")
{
    Window w;
    ui::ProbeView* probe = w.probe;
    QTemporaryDir dir;
    QString error;
    const auto identity = app::localTlsIdentity(dir.filePath("tls"), &error); // a certificate, as a CA file holds
    REQUIRE(identity);
    const QString pem = identity->certificatePath;
    probe->urlEdit()->setText("https://localhost:1/upload");
    QJsonObject form = probe->form();
    form["ca_file"] = pem;
    probe->setForm(form); // as the next session restores it
    auto settings = probe->settings(&error);
    REQUIRE(settings);
    CHECK(settings->caCertificates == pem);
    CHECK_FALSE(probe->tlsTrust()->clearButton()->isHidden());
    REQUIRE(QFile::remove(pem));
    probe->setForm(form);
    settings = probe->settings(&error);
    REQUIRE(settings);
    CHECK(settings->caCertificates.isEmpty());
    CHECK(probe->tlsTrust()->clearButton()->isHidden());
}
