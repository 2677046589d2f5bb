// The yardstick for cssctl's exports (scripts/bench.mjs): a bare Node script that pages a list endpoint
// with undici and writes the same bytes cssctl writes (`-o ndjson`, or the JSON array of `--json` and
// `api --paginate`), one write per page. With --respect-limits it is also the ideal client under a rate
// limit: it sends as fast as allowed and, when X-RateLimit-Remaining reaches 0, waits exactly until
// X-RateLimit-Reset. Reports `requests=N status429=N` on stderr.
// Usage: node bare-pager.mjs <base-url> <path> <format: ndjson|json> [--limit N] [--respect-limits]
//        (CSSCTL_TOKEN and CSSCTL_WORKSPACE from the environment)
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

const [base, path, format] = process.argv.slice(2);
const flag = (name) => process.argv.indexOf(name);
const limit = flag('--limit') > 0 ? Number(process.argv[flag('--limit') + 1]) : 1000;
const respectLimits = flag('--respect-limits') > 0;
const key = path.split('?')[0].split('/').filter(Boolean).pop();
const dispatcher = new Agent();
const headers = {
  authorization: `Bearer ${process.env.CSSCTL_TOKEN}`,
  'x-tenant-slug': process.env.CSSCTL_WORKSPACE,
  accept: 'application/json',
};

async function write(text) {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

let requests = 0;
let status429 = 0;
let pageSize = limit;
let offset = 0;
let first = true;
for (;;) {
  const url = `${base}/api/v1${path}${path.includes('?') ? '&' : '?'}limit=${pageSize}&offset=${offset}`;
  const res = await request(url, { headers, dispatcher });
  requests++;
  const remaining = Number(res.headers['x-ratelimit-remaining']);
  const reset = Number(res.headers['x-ratelimit-reset']);
  if (res.statusCode === 429) {
    status429++;
    await res.body.dump();
    await sleep(Math.max(reset * 1000 - Date.now(), 1000));
    continue;
  }
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${await res.body.text()}`);
  const page = await res.body.json();
  const items = page[key];
  if (typeof page.limit === 'number' && page.limit < pageSize) pageSize = page.limit;
  let out = '';
  for (const item of items) {
    if (format === 'ndjson') out += `${JSON.stringify(item)}\n`;
    else {
      out += `${first ? '[\n  ' : ',\n  '}${JSON.stringify([item], null, 2).slice(4, -2)}`;
      first = false;
    }
  }
  await write(out);
  offset += items.length;
  if (items.length === 0 || offset >= page.total) break;
  if (respectLimits && remaining === 0) await sleep(Math.max(reset * 1000 - Date.now(), 0));
}
if (format === 'json') await write(first ? '[]\n' : '\n]\n');
process.stderr.write(`requests=${requests} status429=${status429}\n`);
await dispatcher.close();
