#include "help_pages.h"

#include <QObject>

namespace upin::ui {

QString keyboardShortcutsPage()
{
    return QObject::tr(
        "<h3>Keyboard shortcuts</h3><table cellpadding='3'>"
        "<tr><td><b>Alt+S, Alt+L, Alt+I, Alt+C, Alt+B, Alt+M</b></td><td>Send, Listen, Inspect, Compare, Probe, "
        "Matcher bench</td></tr>"
        "<tr><td><b>Ctrl+O</b></td><td>Open a body, request or HAR file in Inspect</td></tr>"
        "<tr><td><b>Ctrl+Shift+O</b></td><td>Open a capture folder in Inspect</td></tr>"
        "<tr><td><b>Ctrl+Q</b></td><td>Quit</td></tr>"
        "<tr><td><b>F1</b></td><td>Getting started</td></tr>"
        "<tr><th colspan='2' align='left'>Send</th></tr>"
        "<tr><td><b>Ctrl+Enter</b>, <b>Esc</b></td><td>Send, Cancel</td></tr>"
        "<tr><td><b>Ctrl+Shift+A</b> or <b>Alt+A</b></td><td>Add files</td></tr>"
        "<tr><td><b>Alt+D</b>, <b>Alt+Y</b></td><td>Add a field, add a synthetic part</td></tr>"
        "<tr><td><b>Delete</b></td><td>Remove the selected part</td></tr>"
        "<tr><td><b>Alt+U</b>, <b>Alt+X</b>, <b>Alt+R</b></td><td>Copy as curl, Export the runs, Clear the runs</td>"
        "</tr>"
        "<tr><th colspan='2' align='left'>Listen</th></tr>"
        "<tr><td><b>Alt+T</b></td><td>Start or stop the listener</td></tr>"
        "<tr><td><b>Alt+N</b>, <b>Alt+O</b></td><td>Settings, the captures folder</td></tr>"
        "<tr><td><b>Alt+Y</b>, <b>Alt+R</b></td><td>Copy the curl examples, clear the list</td></tr>"
        "<tr><td><b>Enter</b> or double-click</td><td>Inspect the selected capture</td></tr>"
        "<tr><th colspan='2' align='left'>Inspect</th></tr>"
        "<tr><td><b>Alt+O</b></td><td>Open…</td></tr>"
        "<tr><td><b>Alt+P</b>, <b>Alt+A</b>, <b>Alt+U</b></td><td>Save part, Save all parts, Copy as curl</td></tr>"
        "<tr><th colspan='2' align='left'>Compare and the bench</th></tr>"
        "<tr><td><b>Alt+X</b>, <b>Alt+P</b>, <b>Alt+R</b></td><td>Export CSV, Export PNG, Clear</td></tr>"
        "<tr><td><b>Ctrl+R</b></td><td>Run the bench</td></tr>"
        "<tr><th colspan='2' align='left'>Probe</th></tr>"
        "<tr><td><b>Alt+T</b>, <b>Alt+N</b></td><td>Start the probe, Cancel it</td></tr>"
        "<tr><td><b>Alt+U</b>, <b>Alt+A</b>, <b>Alt+R</b></td><td>The URL, the shapes, the parallel uploads</td></tr>"
        "</table>");
}

QString gettingStartedPage(const QString& listenerBase)
{
    return QObject::tr(
               "<h3>Getting started</h3>"
               "<p>Upload Inspector receives uploads, sends them, and shows every part and byte of them.</p>"
               "<p><b>Listen</b> receives uploads on %1. Try it from a terminal:</p>"
               "<pre>curl -F file=@/etc/os-release -F note=hello '%1/file-part'</pre>"
               "<p>The upload appears in the list; double-click it (or select it and press Enter) to inspect it. "
               "<b>Forward</b>, in the same tab, puts the tool between a client and your own server.</p>"
               "<p><b>Inspect</b> shows a capture, a body, a whole HTTP request or a HAR file from the browser: each "
               "part's headers, its text or image, its bytes in hex, and every irregularity with its byte offset. "
               "Save part copies a part out exactly.</p>"
               "<p><b>Send</b> uploads files, fields and generated parts to any URL (drop files on the window), "
               "checks each part's hash against what our listener received, and keeps the session's runs with "
               "each answer.</p>"
               "<p><b>Compare</b> puts runs to several targets side by side; the <b>Matcher bench</b> times the "
               "parser's delimiter matchers on the same bytes.</p>"
               "<p><b>Probe</b> finds what is slow or broken in <i>your</i> server's upload path: give its upload URL "
               "and start; bodies shaped to slow parsers, larger and parallel uploads, and the server's memory, "
               "each figure against a baseline measured in the same run, with findings and charts to export.</p>"
               "<p>Everything here has a command-line twin: <code>upload-inspector-cli --help</code>.</p>")
        .arg(listenerBase.toHtmlEscaped());
}

} // namespace upin::ui
