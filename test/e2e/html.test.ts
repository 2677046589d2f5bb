import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { writeList } from '../../src/core/output/index.js';
import { html } from '../../src/report/html.js';
import type { Finding } from '../../src/api/findings-types.js';
import { GateTally, countsForGate, verdictOf } from '../../src/report/gate.js';
import { asSeverity } from '../../src/report/severity.js';
import { Collect } from '../helpers/streams.js';
import { createServer } from 'node:http';
import { World, hasCommand } from './harness.js';
import { Browser, CHROMIUM_FLAGS } from './cdp.js';

/** -o html in a real browser: Debian's chromium, headless (installed by .ci/run; missing there is a failure). */
const describeChromium = hasCommand('chromium') || process.env.CI === 'true' ? describe : describe.skip;

const HOSTILE = [
  {
    id: 'f1',
    severity: 'critical',
    title: '<script>window.pwned=1</script>',
    resource: 'r1',
    connection_alias: 'prod',
  },
  {
    id: 'f2',
    severity: 'low',
    title: '"><img src=x onerror=alert(1)>',
    resource: '</script><b>x</b>',
    connection_alias: 'dev',
  },
  {
    id: 'f3',
    severity: 'high',
    title: 'Bucket is public',
    resource: 'arn:aws:s3:::b',
    connection_alias: 'prod',
    state: 'new',
  },
  {
    id: 'f4',
    severity: 'medium',
    title: 'Another',
    resource: 'r4',
    connection_alias: 'prod',
    state: 'unchanged',
    ignored: { reason: 'accepted <risk>', expires: '2027-01-01' },
  },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cssctl-html-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The gate over these items, as a command decides it (src/report/gate.ts), for the page's verdict. */
function gateOf(items: unknown[], failOn: string | undefined) {
  const threshold = asSeverity(failOn);
  if (threshold === undefined) return undefined;
  const tally = new GateTally();
  for (const i of items)
    if (i !== null && typeof i === 'object' && countsForGate(i as Finding, threshold))
      tally.add(i as Finding);
  return tally.gate(threshold);
}

async function render(items: unknown[], failOn?: string): Promise<string> {
  const stdout = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr: new Collect() }, { env: {} });
  await writeList(io, items, {
    format: 'html',
    formats: { html },
    columns: [],
    noun: 'findings',
    failOn,
    about: { workspace: 'acme', subject: 'findings list', verdict: () => verdictOf(gateOf(items, failOn)) },
  });
  await io.finishOutput();
  return stdout.text;
}

function chromium(args: string[]): string {
  const profile = mkdtempSync(join(dir, 'profile-'));
  return execFileSync('chromium', [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('-o html, as text', () => {
  it('one HTML5 document with a CSP that forbids everything external, the script allowed by its hash', async () => {
    const page = await render(HOSTILE, 'high');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/,
    );
    expect(page).not.toMatch(/\b(src|href)=["']?(https?:|\/\/)/i);
    // Service text is escaped: the only <script> is cssctl's own.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).toContain('&#60;script&#62;window.pwned=1&#60;/script&#62;');
    expect(page).not.toContain('<img');
    expect(page).toContain('accepted &#60;risk&#62; (until 2027-01-01)');
    expect(page).toMatch(/verdict fail">failed<\/span> 2 findings at or above high/);
  });
});

describe('-o html through the binary', () => {
  it('scans create --wait -o html: the scan report, its verdict, then exit 10 for the gate', async () => {
    const w = await World.start({ rateLimit: 100_000, scanStepMs: 50 });
    try {
      await w.login('acme');
      const res = await w.run(
        ['scans', 'create', '--connection', 'prod', '--wait', '--fail-on', 'medium', '-o', 'html'],
        {
          env: { CSSCTL_POLL_BASE_MS: '20' },
        },
      );
      const scan = /scan (scn_\w+)/.exec(res.stdout)?.[1];
      expect(scan, res.stderr).toBeDefined();
      expect(res.stdout).toContain(`<title>cssctl report — scan ${scan}</title>`);
      expect(res.stdout).toContain('workspace <b>acme</b>');
      const rows = res.stdout.match(/<tr class="s/g)?.length ?? 0;
      expect(res.stdout).toContain(`${rows.toLocaleString('en-US')} findings</p>`);
      if (/class="s[012]/.test(res.stdout)) {
        expect(res.stdout).toMatch(/verdict fail">failed<\/span> \d+ findings? at or above medium/);
        expect(res.code).toBe(10);
      } else expect(res.code).toBe(0);
      expect(res.stdout.trimEnd().endsWith('</html>')).toBe(true);
    } finally {
      await w.close();
    }
  }, 60_000);
});

describeChromium('-o html in chromium', () => {
  it('renders; sorts and filters in the page; injected markup never becomes an element', async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, await render(HOSTILE, 'high'));
    const dom = chromium(['--dump-dom', `file://${file}#severity=critical`]);
    expect(dom).toContain('data-ready="1"'); // the script ran (its hash matched the CSP)
    expect(dom).toContain('1 of 4 shown');
    // Filtered: only the critical row is visible.
    const visible = [...dom.matchAll(/<tr class="s(\d)[^"]*"[^>]*?( hidden="")?>/g)].filter((m) => !m[2]);
    expect(visible.map((m) => m[1])).toEqual(['0']);
    expect(dom).not.toMatch(/<img/);
    expect(dom.match(/<script/g)).toHaveLength(1);
    expect(dom).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
    // Sorted by title, descending, on a #sort in the address.
    const sorted = chromium(['--dump-dom', `file://${file}#sort=title&desc=1`]);
    const ids = [...sorted.matchAll(/<td class="id">(f\d)<\/td>/g)].map((m) => m[1]);
    expect(ids).toEqual(
      ['f1', 'f2', 'f3', 'f4'].sort((a, b) => {
        const t = (id: string) => HOSTILE.find((f) => f.id === id)!.title.toLowerCase();
        return t(b) < t(a) ? -1 : t(b) > t(a) ? 1 : 0;
      }),
    );
    // The state filter reads the ignored findings.
    const ignored = chromium(['--dump-dom', `file://${file}#state=ignored`]);
    expect(ignored).toContain('1 of 4 shown');
  }, 120_000);

  it('nothing is fetched: the page asks the network for nothing; markup slipped in is blocked by the CSP', async () => {
    // A loopback server that counts what reaches it, named by markup a bug might let into the page.
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      res.end(req.url?.endsWith('.js') ? 'document.title="pwned"' : '');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const browser = await Browser.launch(dir);
    try {
      const clean = join(dir, 'clean.html');
      writeFileSync(clean, await render(HOSTILE, 'high'));
      const page = await browser.open(`file://${clean}`);
      expect(page.requested()).toEqual([`file://${clean}`]);
      expect(await browser.evaluate(page.session, 'document.documentElement.dataset.ready')).toBe('1');
      expect(await browser.evaluate(page.session, 'document.querySelectorAll("img").length')).toBe(0);
      expect(await browser.evaluate(page.session, 'typeof window.pwned')).toBe('undefined');
      // Typing into the filter (real key input) and clicking a heading.
      await browser.evaluate(page.session, 'document.getElementById("q").focus()');
      await browser.send('Input.insertText', { text: 'PUBLIC' }, page.session);
      await new Promise((r) => setTimeout(r, 300));
      expect(await browser.evaluate(page.session, 'document.getElementById("shown").textContent')).toBe(
        '1 of 4 shown',
      );
      await browser.evaluate(
        page.session,
        'document.getElementById("q").value = ""; document.getElementById("q").dispatchEvent(new Event("input"))',
      );
      await browser.evaluate(page.session, 'document.querySelector("th[data-key=id]").click()');
      expect(
        await browser.evaluate(
          page.session,
          '[...document.querySelectorAll("td.id")].map((c) => c.textContent).join()',
        ),
      ).toBe('f1,f2,f3,f4');
      await browser.evaluate(page.session, 'document.querySelector("th[data-key=id]").click()');
      expect(
        await browser.evaluate(
          page.session,
          '[...document.querySelectorAll("td.id")].map((c) => c.textContent).join()',
        ),
      ).toBe('f4,f3,f2,f1');
      // The same page with markup that is not cssctl's: an image, a stylesheet, a script from the network and an
      // inline script. The policy lets none of them run or load.
      const tampered = join(dir, 'tampered.html');
      const base = `http://127.0.0.1:${port}`;
      writeFileSync(
        tampered,
        (await render(HOSTILE)).replace(
          '<header>',
          `<img src="${base}/x.png"><link rel="stylesheet" href="${base}/s.css"><script src="${base}/s.js"></script>` +
            `<script>window.inline=1</script><header>`,
        ),
      );
      const bad = await browser.open(`file://${tampered}`);
      await new Promise((r) => setTimeout(r, 500));
      expect(hits).toBe(0);
      expect(await browser.evaluate(bad.session, 'typeof window.inline')).toBe('undefined');
      expect(await browser.evaluate(bad.session, 'document.title')).not.toBe('pwned');
      expect(await browser.evaluate(bad.session, 'document.documentElement.dataset.ready')).toBe('1');
    } finally {
      browser.close();
      server.close();
    }
  }, 120_000);

  it('a report of the sandbox through the binary, and a screenshot', async () => {
    const w = await World.start({ rateLimit: 100_000, findingsPerWorkspace: 120 });
    try {
      await w.login('acme');
      const res = await w.run(['findings', 'list', '--all', '-o', 'html']);
      expect(res.code, res.stderr).toBe(0);
      const file = join(dir, 'sandbox.html');
      writeFileSync(file, res.stdout);
      const dom = chromium(['--dump-dom', `file://${file}`]);
      expect(dom).toContain('120 of 120 shown');
      expect(dom).toContain('workspace <b>acme</b>');
      // Most severe first once the script ran (the rows were written in the service's order).
      const ranks = [...dom.matchAll(/<tr class="s(\d)/g)].map((m) => Number(m[1]));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      expect(ranks[0]).toBe(0);
      const png = join(dir, 'shot.png');
      chromium(['--window-size=1280,900', `--screenshot=${png}`, `file://${file}`]);
      expect(execFileSync('sh', ['-c', `wc -c < '${png}'`], { encoding: 'utf8' }).trim()).not.toBe('0');
    } finally {
      await w.close();
    }
  }, 120_000);
});
