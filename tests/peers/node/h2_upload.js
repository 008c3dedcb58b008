// An HTTP/2 upload by Node's http2 module over TLS: a multipart body with one file, streamed from the file as
// Node streams it (DATA frames as its flow control allows). Prints the answer's status, then its body.
// node h2_upload.js URL CA_PEM FILE
const http2 = require('http2');
const fs = require('fs');
const path = require('path');

const [url, caFile, file] = process.argv.slice(2);
const target = new URL(url);
const session = http2.connect(target.origin, { ca: fs.readFileSync(caFile) });
session.on('error', (error) => { console.error(error); process.exit(1); });
const boundary = 'node-h2-' + Date.now();
const head = `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${path.basename(file)}"\r\n` +
  'Content-Type: application/octet-stream\r\n\r\n';
const tail = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfrom node\r\n--${boundary}--\r\n`;
const request = session.request({
  ':method': 'POST', ':path': target.pathname + target.search,
  'content-type': `multipart/form-data; boundary=${boundary}`,
  'content-length': Buffer.byteLength(head) + fs.statSync(file).size + Buffer.byteLength(tail),
});
let status = 0;
let answer = '';
request.on('response', (headers) => { status = headers[':status']; });
request.setEncoding('utf8');
request.on('data', (chunk) => { answer += chunk; });
request.on('end', () => { console.log(`${status}\n${answer}`); session.close(); });
request.write(head);
const stream = fs.createReadStream(file);
stream.on('end', () => request.end(tail));
stream.pipe(request, { end: false });
