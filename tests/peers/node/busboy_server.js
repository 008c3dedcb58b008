// An upload server on Node's http module and busboy (the parser under multer and many Express apps), for the
// probe's tests: a real streaming parser that no one here wrote. Each part is counted as it streams, nothing kept.
// Answers {"parts": [{"name", "size"}]} in the order the parts came. Prints its port, serves until killed.
'use strict';
const http = require('http');
const busboy = require('busboy');

const server = http.createServer((req, res) => {
  let bb;
  try {
    // latin1: one character per byte, so a field's size is its bytes whatever they are (utf8 would replace some).
    bb = busboy({ headers: req.headers, defCharset: 'latin1', limits: { fieldSize: 16 << 20 } });
  } catch (err) {
    res.writeHead(400).end(String(err));
    return;
  }
  const parts = [];
  bb.on('file', (name, stream) => {
    const entry = { name, size: 0 };
    parts.push(entry);
    stream.on('data', (data) => { entry.size += data.length; });
  });
  // Field values come as strings: their size in bytes is taken in the encoding busboy decoded them from.
  bb.on('field', (name, value) => parts.push({ name, size: Buffer.byteLength(value, 'latin1') }));
  bb.on('error', (err) => res.writeHead(400).end(String(err)));
  bb.on('close', () => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ parts }));
  });
  req.pipe(bb);
});

server.listen(0, '127.0.0.1', () => console.log(server.address().port));
