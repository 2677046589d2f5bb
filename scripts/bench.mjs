// Benchmarks, reported as ratios measured in this one run (the machines are noisy; absolute numbers are not
// compared across runs). Talks only to a sandbox on 127.0.0.1.
//   1. start-up: cssctl commands that need no network, against a bare `node -e 0` on the same machine.
//   2. memory: peak RSS of `cssctl api --paginate /findings` at N and 10×N findings — streaming keeps it flat.
//   3. CI reports: peak RSS of a 10,000 and a 100,000-finding `-o sarif` / `-o junit` export against `-o ndjson`
//      (through `cssctl findings list --all` when the built binary has it, else through a small driver that
//      feeds the report formatters directly) — see reportsMemory() below.
// Usage: npm run build && npm run bench [-- --runs 15 --findings 2000] [-- --reports-only]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/cssctl.js');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('runs', 15);
const FINDINGS = arg('findings', 2000);
const work = mkdtempSync(join(tmpdir(), 'cssctl-bench-'));
const env = {
  PATH: process.env.PATH,
  HOME: work,
  CSSCTL_CONFIG_DIR: join(work, 'config'),
  CSSCTL_CREDENTIAL_STORE: 'file',
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function timeRun(args, extraEnv = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env: { ...env, ...extraEnv }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && !args.includes('status')) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}
/** Interleaves the candidates run by run so drift in machine load hits them all alike. */
function startup(cases) {
  const times = Object.fromEntries(cases.map(([name]) => [name, []]));
  for (let i = 0; i < RUNS; i++) for (const [name, args] of cases) times[name].push(timeRun(args));
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}
function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
async function withSandbox(findings, fn) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/sandbox.js')], {
    env: { ...env, PORT: String(port), SANDBOX_FINDINGS: String(findings), SANDBOX_RATE_LIMIT: '1000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => d.toString().includes('listening') && resolve());
    child.on('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
  });
  try {
    return await fn(`http://127.0.0.1:${port}`);
  } finally {
    child.kill();
  }
}
function paginateRss(url) {
  const configDir = join(work, `cfg-${url.split(':').pop()}`);
  const e = { ...env, CSSCTL_CONFIG_DIR: configDir };
  const login = spawnSync(
    process.execPath,
    [bin, 'login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
    { env: e, input: 'demo-owner-acme\n', encoding: 'utf8' },
  );
  if (login.status !== 0) throw new Error(login.stderr);
  const rssFile = join(work, 'rss');
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['--import', join(root, 'scripts/bench-rss.mjs'), bin, 'api', '--paginate', '/findings?limit=100'],
    { env: { ...e, BENCH_RSS_FILE: rssFile }, encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(r.stderr);
  const items = JSON.parse(r.stdout).length;
  return { items, ms, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
}

/**
 * Peak RSS of the CI report formats (src/commands/findings/formats/) at 10,000 and 100,000 findings, beside
 * ndjson (the streaming baseline of the issue). Through `cssctl findings list --all -o <fmt>` against the
 * sandbox when the built binary has that command; otherwise through a driver bundled here with esbuild that
 * feeds the formatters the same synthetic findings and writes to /dev/null.
 */
async function reportsMemory() {
  const SIZES = [10_000, 100_000];
  const FORMATS = ['ndjson', 'sarif', 'junit'];
  const help = spawnSync(process.execPath, [bin, 'findings', 'list', '--help'], { env, encoding: 'utf8' });
  // `--help` prints the top-level help with exit 0 for an unknown command: look for the command's own flag.
  const hasFindings = help.status === 0 && help.stdout.includes('--severity');
  const rssOf = (args, extraEnv) => {
    const rssFile = join(work, 'rss-reports');
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--import', join(root, 'scripts/bench-rss.mjs'), ...args], {
      env: { ...env, ...extraEnv, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
    return { ms, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
  };
  const rows = [];
  if (hasFindings) {
    for (const n of SIZES) {
      await withSandbox(n, async (url) => {
        const e = { CSSCTL_CONFIG_DIR: join(work, `cfg-reports-${n}`) };
        const login = spawnSync(
          process.execPath,
          [bin, 'login', '--base-url', url, '-w', 'acme', '--email', 'owner@acme.test', '--password-stdin'],
          { env: { ...env, ...e }, input: 'demo-owner-acme\n', encoding: 'utf8' },
        );
        if (login.status !== 0) throw new Error(login.stderr);
        for (const fmt of FORMATS)
          rows.push({ n, fmt, ...rssOf([bin, 'findings', 'list', '--all', '-o', fmt, '-q'], e) });
      });
    }
  } else {
    const { build } = await import('esbuild');
    const driver = join(work, 'reports-driver.mjs');
    await build({
      stdin: {
        resolveDir: root,
        loader: 'ts',
        contents: `
          import { writeSync } from 'node:fs';
          import { IO } from './src/core/io.ts';
          import { sarif } from './src/commands/findings/formats/sarif.ts';
          import { junit } from './src/commands/findings/formats/junit.ts';
          const ndjson = (ctx) => ({ item: (f) => ctx.write(JSON.stringify(f) + '\\n'), end() {} });
          const [fmt, n] = [process.argv[2], Number(process.argv[3])];
          const io = new IO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, { env: {}, quiet: true });
          const write = (s) => { writeSync(1, s); };
          const f = { ndjson, sarif, junit }[fmt]({ io, write, columns: [], noun: 'findings' }, { failOn: 'high' });
          const sev = ['low', 'critical', 'medium', 'info', 'high', 'medium', 'low'];
          for (let i = 0; i < n; i++) {
            await f.item({
              id: 'fnd_' + String(i).padStart(8, '0'), severity: sev[i % 7], title: 'Check number ' + (i % 40),
              resource: 'arn:aws:s3:::acme-data-' + i, connection_alias: 'prod', scan_id: 'scn_1', status: 'open',
              created_at: '2026-01-01T00:00:00Z',
            });
          }
          await f.end({ complete: true, count: n });`,
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: driver,
      logLevel: 'warning',
    });
    for (const n of SIZES)
      for (const fmt of FORMATS) rows.push({ n, fmt, ...rssOf([driver, fmt, String(n)], {}) });
  }
  console.log(
    `\nMemory of CI report exports, peak RSS (${hasFindings ? '`cssctl findings list --all -o <fmt>`' : 'formatter driver: no `findings list` in dist/ yet'}):`,
  );
  for (const r of rows)
    console.log(
      `  ${r.fmt.padEnd(7)} ${String(r.n).padStart(7)} findings  ${(r.rssKiB / 1024).toFixed(1).padStart(7)} MiB  ${(r.ms / 1000).toFixed(2)} s`,
    );
  for (const fmt of FORMATS) {
    const [small, large] = SIZES.map((n) => rows.find((r) => r.n === n && r.fmt === fmt));
    const nd = rows.find((r) => r.n === SIZES[1] && r.fmt === 'ndjson');
    console.log(
      `  ${fmt.padEnd(7)} 10× the findings → ${(large.rssKiB / small.rssKiB).toFixed(2)}× the peak RSS; at ${SIZES[1].toLocaleString('en-US')}: ${(large.rssKiB / nd.rssKiB).toFixed(2)}× ndjson's (target ≤ 1.5× both: flat memory)`,
    );
  }
}

try {
  // `--reports-only` runs section 3 alone.
  if (process.argv.includes('--reports-only')) {
    await reportsMemory();
    process.exit(0);
  }
  const s = startup([
    ['node -e 0 (baseline)', ['-e', '0']],
    ['cssctl --version', [bin, '--version']],
    ['cssctl --help', [bin, '--help']],
    ['cssctl config path', [bin, 'config', 'path']],
    ['cssctl auth status (logged out)', [bin, 'auth', 'status']],
  ]);
  const base = s['node -e 0 (baseline)'];
  console.log(`Start-up, median of ${RUNS} runs each (interleaved), as a multiple of a bare node start:`);
  for (const [k, v] of Object.entries(s))
    console.log(`  ${k.padEnd(34)} ${v.toFixed(1).padStart(7)} ms  ${(v / base).toFixed(2)}×`);

  const small = await withSandbox(FINDINGS, paginateRss);
  const large = await withSandbox(FINDINGS * 10, paginateRss);
  console.log(`\nMemory of \`cssctl api --paginate /findings\` (streamed JSON array), peak RSS:`);
  for (const r of [small, large]) {
    console.log(
      `  ${String(r.items).padStart(7)} items  ${(r.rssKiB / 1024).toFixed(1).padStart(7)} MiB  ${(r.ms / 1000).toFixed(2)} s  ${Math.round(r.items / (r.ms / 1000))} items/s`,
    );
  }
  const ratio = large.rssKiB / small.rssKiB;
  console.log(
    `  ${(large.items / small.items).toFixed(1)}× the items → ${ratio.toFixed(2)}× the peak RSS (target ≤ 1.5×: memory stays flat)`,
  );
  if (large.items !== FINDINGS * 10 || small.items !== FINDINGS)
    console.log('  WARNING: item counts differ from the seeded totals');

  await reportsMemory();
} finally {
  rmSync(work, { recursive: true, force: true });
}
