#include "listener/form_page.h"

namespace upin::app {

QByteArray formPage(quint16 port)
{
    QByteArray page = R"(<!doctype html>
<html><head><meta charset="utf-8"><title>Upload Inspector listener</title>
<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:44em}fieldset{margin:1em 0}code{background:#eee;padding:0 .3em}</style>
</head><body>
<h1>Upload Inspector listener</h1>
<p>Post files here from a browser, or from a shell: <code>curl -F file=@/etc/os-release 'http://127.0.0.1:PORT/file-part'</code> (any file works)</p>
<form method="post" enctype="multipart/form-data" id="f" action="/file-part">
<fieldset><legend>Endpoint</legend>
<label><input type="radio" name="e" value="/part-event" onclick="f.action=value"> /part-event (parse, hash, discard)</label><br>
<label><input type="radio" name="e" value="/file-part" checked onclick="f.action=value"> /file-part (save file parts)</label><br>
<label><input type="radio" name="e" value="/capture" onclick="f.action=value"> /capture (save parts and raw body)</label><br>
<label><input type="radio" name="e" value="/discard" onclick="f.action=value"> /discard (read and drop)</label>
</fieldset>
<p><label>Text field <input name="note" value="hello"></label></p>
<p><input type="file" name="files" multiple></p>
<p><button>Upload</button></p>
</form>
<p>Recent captures: <a href="/captures">/captures</a></p>
</body></html>
)";
    return page.replace("PORT", QByteArray::number(port));
}

} // namespace upin::app
