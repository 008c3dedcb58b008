// Uploads a file through a proxy with undici's ProxyAgent, as a Node program configured for a proxy does; trusts
// what NODE_EXTRA_CA_CERTS names. Prints the status, then the answer's body.
// node proxy_upload.js URL PROXY_URL FILE
const { ProxyAgent, fetch, FormData } = require('undici');
const { readFileSync } = require('fs');
const { basename } = require('path');

async function main() {
  const [url, proxy, file] = process.argv.slice(2);
  const form = new FormData();
  form.append('node', new Blob([readFileSync(file)]), basename(file));
  form.append('note', 'from node');
  const answer = await fetch(url, { method: 'POST', body: form, dispatcher: new ProxyAgent(proxy) });
  console.log(answer.status);
  console.log(await answer.text());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
