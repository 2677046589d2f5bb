// One GET as cssctl sends it, without cssctl: what a request costs with the undici parts cssctl's build
// loads (`core`, run `npm run build` first), with the whole undici package (`full`), or with node:http.
// scripts/bench.mjs times it against `node -e 0` to show what stands between cssctl and its start-up target.
// Usage: node bare-request.mjs <core|full|http> <url>   (CSSCTL_TOKEN and CSSCTL_WORKSPACE from the environment)
import { createRequire } from 'node:module';

const [kind, url] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const headers = {
  authorization: `Bearer ${process.env.CSSCTL_TOKEN}`,
  'x-tenant-slug': process.env.CSSCTL_WORKSPACE,
  accept: 'application/json',
};
let body;
if (kind === 'http') {
  const http = process.getBuiltinModule('node:http');
  body = await new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
} else if (kind === 'full') {
  const undici = require('undici');
  const res = await undici.request(url, { headers, dispatcher: new undici.Agent() });
  body = await res.body.text();
} else {
  // The same undici parts as cssctl's transport loads (src/core/http/undici.ts, built apart by npm run build).
  const { loadUndici } = await import(new URL('../../dist/bench/undici-parts.js', import.meta.url).href);
  const u = await loadUndici();
  const res = await u.request(url, { method: 'GET', headers, dispatcher: u.createDispatcher() });
  body = await res.body.text();
}
process.stdout.write(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
process.exit(0);
