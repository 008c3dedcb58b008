// Loads a HAR file into Chromium's own DevTools, as its Network panel's "Import HAR file" does: headless Chromium
// opens its bundled DevTools front end (devtools://devtools/bundled/devtools_app.html), and in that page the front
// end's HAR module parses the file (HARFormat.HARRoot, which throws on what it cannot read) and makes a network
// request of each entry (Importer.requestsFromHARLog). Prints those requests as DevTools holds them, one JSON array.
// node devtools_har.js FILE.har
const { WebSocket } = require('undici');
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// The port Chromium chose, from the file it writes in its profile once it listens (--remote-debugging-port=0).
async function debuggingPort(profile, chromium) {
  const file = path.join(profile, 'DevToolsActivePort');
  for (;;) {
    if (chromium.exitCode !== null) throw new Error(`chromium exited (${chromium.exitCode})`);
    if (fs.existsSync(file)) {
      const port = fs.readFileSync(file, 'utf8').split('\n')[0];
      if (port) return port;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function session(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const page = targets.find((t) => t.type === 'page');
  const ws = new WebSocket(page.webSocketDebuggerUrl);
  const pending = new Map();
  const loaded = [];
  ws.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (pending.has(data.id)) {
      pending.get(data.id)(data);
      pending.delete(data.id);
    } else if (data.method === 'Page.loadEventFired') {
      loaded.forEach((resolve) => resolve());
    }
  };
  await new Promise((resolve) => (ws.onopen = resolve));
  let id = 0;
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, call, loaded };
}

async function main() {
  const har = fs.readFileSync(process.argv[2], 'utf8');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'devtools-har-'));
  // In a process group of its own: its helpers (zygote, renderers) go with it when the group is killed.
  const chromium = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-breakpad', '--disable-crash-reporter',
    `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--remote-allow-origins=*', 'about:blank'],
  { stdio: 'ignore', detached: true });
  try {
    const { ws, call, loaded } = await session(await debuggingPort(profile, chromium));
    await call('Page.enable');
    const load = new Promise((resolve) => loaded.push(resolve));
    await call('Page.navigate', { url: 'devtools://devtools/bundled/devtools_app.html' });
    await load;
    const expression = `(async () => {
      const {HARFormat, Importer} = await import('./models/har/har.js');
      const root = new HARFormat.HARRoot(JSON.parse(${JSON.stringify(har)}));
      const out = [];
      for (const r of Importer.Importer.requestsFromHARLog(root.log))
        out.push({method: r.requestMethod, url: r.url(), status: r.statusCode,
                  headers: r.requestHeaders().map((h) => [h.name, h.value]),
                  postData: await r.requestFormData(), mimeType: r.mimeType});
      return JSON.stringify(out);
    })()`;
    const result = await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    ws.close();
    if (result.result.exceptionDetails) throw new Error(JSON.stringify(result.result.exceptionDetails));
    console.log(result.result.result.value);
  } finally {
    if (chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      process.kill(-chromium.pid, 'SIGTERM');
      await exited; // its profile is written to until it has gone
    }
    // A helper may still be writing a moment after the browser has gone (ENOTEMPTY under load): the check has
    // passed or failed by now, so a profile that will not go is said, not made the check's failure.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
    } catch (error) {
      console.error(`left ${profile}: ${error.message}`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
