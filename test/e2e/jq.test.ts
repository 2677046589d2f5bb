import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, World, lines, received } from './harness.js';
import { interruptWhen } from './interrupt.js';

let w: World;
let total: number;

beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, findingsPerWorkspace: 230 });
  await w.login('acme');
  const all = await w.run(['findings', 'list', '--all', '-o', 'ndjson']);
  total = lines(all.stdout).length;
});
afterAll(() => w.close());

describe('--jq through the binary', () => {
  it('-o json: the filter sees the whole list of --all, not one page at a time', async () => {
    const res = await w.run(['findings', 'list', '--all', '--limit', '50', '--jq', 'length']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${total}\n`);
    expect(total).toBeGreaterThan(50);
    const grouped = await w.run([
      'findings',
      'list',
      '--all',
      '--limit',
      '50',
      '--jq',
      'group_by(.severity) | map({key: .[0].severity, value: length}) | from_entries',
    ]);
    const counts = JSON.parse(grouped.stdout) as Record<string, number>;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(total);
    expect(lines(grouped.stdout)).toHaveLength(1); // compact, one line
  });

  it('-o ndjson: per item as it streams; strings raw', async () => {
    const res = await w.run(['findings', 'list', '--all', '-o', 'ndjson', '--jq', '.id']);
    expect(res.code, res.stderr).toBe(0);
    const ids = lines(res.stdout);
    expect(ids).toHaveLength(total);
    expect(ids[0]).toMatch(/^fnd_/);
  });

  it('--arg and --argjson bind variables; api and connections take --jq too', async () => {
    const res = await w.run([
      'connections',
      'list',
      '--jq',
      '[$p, $n] | tostring',
      '--arg',
      'p',
      'x',
      '--argjson',
      'n',
      '2',
    ]);
    expect(res.stdout).toBe('["x",2]\n');
    const api = await w.run(['api', '/connections', '--jq', '.connections | map(.alias) | join(",")']);
    expect(api.code, api.stderr).toBe(0);
    expect(api.stdout).toMatch(/^[\w,-]+\n$/);
  });

  it('a filter that does not compile is exit 2 with jq message, before any request', async () => {
    const before = received(w.sandbox, '/findings').length;
    const res = await w.run(['findings', 'list', '--jq', '.[] | ascii(']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const err = JSON.parse(res.stderr) as { error: { detail: string; exit_code: number } };
    expect(err.error.detail).toMatch(/^--jq: syntax error/);
    expect(received(w.sandbox, '/findings').length).toBe(before);
  });

  it('a run-time error is exit 1 naming the item; -o csv with --jq is exit 2', async () => {
    const res = await w.run(['findings', 'list', '--limit', '5', '-o', 'ndjson', '--jq', '.severity | keys']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/has no keys.*at item 1, id \\"fnd_/);
    for (const args of [
      ['completion', 'bash'],
      ['auth', 'token'],
      ['config', 'path'],
    ]) {
      const text = await w.run([...args, '--jq', '.']);
      expect(text.code, args.join(' ')).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain('not JSON');
    }
    const csv = await w.run(['findings', 'list', '-o', 'csv', '--jq', '.']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--jq works with -o json, ndjson or ocsf, not -o csv');
  });

  it('--jq with --output-file is exit 2 before any request, never an unfiltered file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-jq-file-'));
    try {
      const file = join(dir, 'out.json');
      const before = received(w.sandbox, '/findings').length;
      const res = await w.run(['findings', 'list', '--limit', '3', '--jq', 'length', '--output-file', file]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('cannot be used with --output-file');
      expect(() => readFileSync(file)).toThrow();
      expect(received(w.sandbox, '/findings').length).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--jq-exit-status gates on any jq test', async () => {
    const crit = await w.run([
      'findings',
      'list',
      '--all',
      '--jq',
      'all(.[]; .severity != "critical")',
      '--jq-exit-status',
    ]);
    expect(crit.stdout).toBe('false\n');
    expect(crit.code).toBe(1);
    // As jq -e: the exit code is the answer, nothing is said on stderr.
    expect(crit.stderr).toBe('');
    const ok = await w.run(['findings', 'list', '--all', '--jq', 'length > 0', '--jq-exit-status']);
    expect(ok.code).toBe(0);
  });

  it('Ctrl-C: ndjson keeps the results written, json prints no half-list answer; both give the resume command', async () => {
    const interrupt = (mode: string[]) => {
      w.sandbox.clearRequests();
      w.sandbox.injectFaults(
        { kind: 'slow', ms: 1, count: 2, path: '/findings' },
        { kind: 'slow', ms: 8_000, path: '/findings' },
      );
      return interruptWhen(
        ['findings', 'list', '--all', '--limit', '40', ...mode],
        w.env,
        () => received(w.sandbox, '/findings').length > 2,
      );
    };
    const nd = await interrupt(['-o', 'ndjson', '--jq', '.id']);
    expect(nd.code).toBe(130);
    const ids = lines(nd.stdout);
    expect(ids.length).toBeGreaterThanOrEqual(40);
    expect(ids.every((id) => /^fnd_\w+$/.test(id))).toBe(true);
    expect(nd.stderr).toMatch(
      /resume with: cssctl findings list --all --limit 40 -o ndjson --jq \.id --offset \d+/,
    );
    const json = await interrupt(['--jq', 'length']);
    expect(json.code).toBe(130);
    expect(json.stdout).toBe('');
    expect(json.stderr).toMatch(/resume with: cssctl findings list/);
  });

  it('a command that sets its own exit code after its output (scans wait --fail-on) still prints the results', async () => {
    const scans = JSON.parse((await w.run(['scans', 'list', '--json'])).stdout) as {
      scan_id: string;
      status: string;
      critical_count?: number;
    }[];
    const scan = scans.find((s) => s.status === 'completed' && (s.critical_count ?? 0) > 0)!;
    const res = await w.run(['scans', 'wait', scan.scan_id, '--fail-on', 'critical', '--jq', '.status']);
    expect(res.stdout).toBe('completed\n');
    expect(res.code).toBe(10);
    // --jq-exit-status does not override the gate's code.
    const gated = await w.run([
      'scans',
      'wait',
      scan.scan_id,
      '--fail-on',
      'critical',
      '--jq',
      'false',
      '--jq-exit-status',
    ]);
    expect(gated.stdout).toBe('false\n');
    expect(gated.code).toBe(10);
  });

  // A Node-loaded cssctl only: the single executable has no require.cache of files to report.
  it.skipIf(!!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN))(
    'jq-wasm is loaded only when --jq is given',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-jq-'));
      try {
        const report = join(dir, 'modules.txt');
        const preload = join(dir, 'preload.cjs');
        writeFileSync(
          preload,
          `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, Object.keys(require.cache).join('\\n')));`,
        );
        const env = { NODE_OPTIONS: `--require ${preload}` };
        const plain = await w.run(['connections', 'list', '--json'], { env });
        expect(plain.code).toBe(0);
        expect(readFileSync(report, 'utf8')).not.toMatch(/jq-wasm/);
        const jq = await w.run(['connections', 'list', '--jq', '.'], { env });
        expect(jq.code).toBe(0);
        expect(readFileSync(report, 'utf8')).toMatch(/dist[\\/]jq\.cjs/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
