import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, World, cliSpawn, lines, received } from './harness.js';
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

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

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
    // --jq implies -o json for what the filter reads, not for errors: the error line every error gets.
    expect(res.stderr).toMatch(/^error: --jq: syntax error, .*\n$/);
    // Asked for with -o json: the error as JSON.
    const json = await w.run(['findings', 'list', '-o', 'json', '--jq', '.[] | ascii(']);
    expect(json.code).toBe(2);
    const err = JSON.parse(json.stderr) as { error: { detail: string; exit_code: number } };
    expect(err.error.detail).toMatch(/^--jq: syntax error/);
    expect(received(w.sandbox, '/findings').length).toBe(before);
    // A run-time error without -o: a line too.
    const run = await w.run(['findings', 'list', '--limit', '2', '--jq', '.[] | .severity | keys']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: jq: string \("\w+"\) has no keys \(in the JSON document\)\n$/);
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

  it("as jq: $ENV is the shell's environment, halt_error exits 5 or its code, -e with no result exits 4", async () => {
    const env = await w.run(
      ['connections', 'list', '--jq', '[$ENV.CSSCTL_JQ_E2E, env.CSSCTL_JQ_E2E] | join(" ")'],
      {
        env: { CSSCTL_JQ_E2E: 'from-the-shell' },
      },
    );
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toBe('from-the-shell from-the-shell\n');
    const halted = await w.run([
      'findings',
      'list',
      '--limit',
      '3',
      '-o',
      'ndjson',
      '--jq',
      '"stop here\\n" | halt_error',
    ]);
    expect([halted.code, halted.stdout, halted.stderr]).toStrictEqual([5, '', 'stop here\n']);
    const three = await w.run(['connections', 'list', '--jq', '{n: length} | halt_error(3)']);
    expect(three.code).toBe(3);
    expect(three.stderr).toMatch(/^\{"n":\d+\}\n$/);
    const none = await w.run([
      'connections',
      'list',
      '--jq',
      '.[] | select(.alias == "nope")',
      '--jq-exit-status',
    ]);
    expect([none.code, none.stdout, none.stderr]).toStrictEqual([4, '', '']);
    const nul = await w.run(['findings', 'list', '--limit', '2', '-o', 'ndjson', '--jq', 'error(null)']);
    expect(nul.code).toBe(1);
    // -o ndjson asked for: the error is JSON.
    const detail = (JSON.parse(nul.stderr) as { error: { detail: string } }).error.detail;
    expect(detail).toMatch(/^jq: null \(not a string\) \(at item 1, id "fnd_\w+"\)$/);
  });

  it('a program that never ends stops at once on Ctrl-C or SIGTERM, exit 130, whatever it does', async () => {
    for (const [signal, args] of [
      ['SIGINT', ['findings', 'list', '--limit', '1', '--jq', 'last(range(1e12))']],
      ['SIGTERM', ['findings', 'list', '--limit', '1', '--jq', 'def f: f; f']],
      ['SIGTERM', ['findings', 'list', '--limit', '3', '-o', 'ndjson', '--jq', 'repeat(1)']],
      ['SIGINT', ['api', '/connections', '--jq', '[limit(1e12; repeat(.))] | length']],
    ] as const) {
      w.sandbox.clearRequests();
      const [cmd, argv] = cliSpawn([...args]);
      const child = spawn(cmd, argv, { env: cleanEnv(w.env), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      // Read as a reader of a pipe does: results are written as jq yields them (repeat(1) never stops).
      child.stdout.resume();
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      try {
        // The answer is in and jq has been running on it for a while.
        while (w.sandbox.requests.length === 0) await sleep(20);
        await sleep(700);
        expect(child.exitCode, stderr).toBeNull();
        const at = Date.now();
        child.kill(signal);
        const code = await Promise.race([exited, sleep(5_000).then(() => 'still running')]);
        expect(code, `${args.join(' ')} after ${signal}`).toBe(130);
        // At once: jq's thread is ended (-o ndjson first gives the rows already read 0.3 s to be printed).
        expect(Date.now() - at, args.join(' ')).toBeLessThan(2_500);
        expect(stderr).toMatch(/interrupted/);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
  }, 60_000);

  /** cssctl with `args`, stdout read as it comes; `until` is awaited on the text read so far. */
  function streaming(args: string[]) {
    const [cmd, argv] = cliSpawn(args);
    const child = spawn(cmd, argv, { env: cleanEnv(w.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const firstLine = async () => {
      const deadline = Date.now() + 15_000;
      while (!stdout.includes('\n') && child.exitCode === null && Date.now() < deadline) await sleep(10);
      return stdout.slice(0, stdout.indexOf('\n') + 1);
    };
    const ended = (ms: number) => Promise.race([exited, sleep(ms).then(() => 'still running' as const)]);
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    return { child, firstLine, ended, kill, out: () => stdout, err: () => stderr };
  }

  it("results print as jq yields them: a long filter's first result is out before it ends", async () => {
    const run = streaming(['connections', 'list', '--jq', '.[0].id, (last(range(1e12)) | tostring)']);
    try {
      expect(await run.firstLine()).toMatch(/^con_\w+\n$/);
      // Still running: the result came before the filter's end.
      expect(run.child.exitCode).toBeNull();
      run.child.kill('SIGINT');
      expect(await run.ended(5_000)).toBe(130);
    } finally {
      run.kill();
    }
  }, 30_000);

  it("--jq 'range(1e9)' | head -1 ends within 1 s of the reader leaving", async () => {
    const run = streaming(['connections', 'list', '--jq', 'range(1e9)']);
    try {
      expect(await run.firstLine()).toBe('0\n');
      // As `head -1` does once it has its line: the pipe's reading end closes.
      const at = Date.now();
      run.child.stdout.destroy();
      expect(await run.ended(5_000)).toBe(0);
      expect(Date.now() - at).toBeLessThan(1_000);
      expect(run.err()).toBe('');
    } finally {
      run.kill();
    }
  }, 30_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    "%s during --jq 'repeat(1)' (results pouring out) ends with 130 within 1 s",
    async (signal) => {
      const run = streaming(['connections', 'list', '--jq', 'repeat(1)']);
      try {
        expect(await run.firstLine()).toBe('1\n');
        await sleep(300);
        const at = Date.now();
        run.child.kill(signal);
        expect(await run.ended(5_000)).toBe(130);
        expect(Date.now() - at).toBeLessThan(1_000);
        expect(run.err()).toMatch(/interrupted/);
        // Whole results only, each as jq wrote it.
        expect(run.out()).toMatch(/^(1\n)+$/);
      } finally {
        run.kill();
      }
    },
    30_000,
  );

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

  // A Node-loaded cssctl only: node's own flags are given to it. (The single executable runs the same code.)
  it.skipIf(!!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN))(
    "a short filter runs on V8's baseline code: no TurboFan compile of jq for node to wait for at exit",
    async () => {
      const node = process.env.CSSCTL_TEST_NODE ?? process.execPath;
      const traced = (...flags: string[]) =>
        w.run(
          [...flags, '--trace-wasm-compilation-times', BIN, 'connections', 'list', '--jq', 'map(.alias)'],
          { command: node },
        );
      // V8 prints a line per WebAssembly function it compiles, naming the compiler.
      const turbofan = (stdout: string) => stdout.split('\n').filter((l) => / using TurboFan/.test(l));
      const res = await traced();
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('["prod","staging","dev","legacy-fail"]');
      expect(res.stdout).toMatch(/ using Liftoff/); // the trace is there
      expect(turbofan(res.stdout)).toEqual([]);
      // A budget the user gives node is kept: with a small one, jq's functions are tiered up as V8 does.
      const own = await traced('--wasm-tiering-budget=1000');
      expect(own.code, own.stderr).toBe(0);
      expect(turbofan(own.stdout).length).toBeGreaterThan(0);
    },
  );

  // A Node-loaded cssctl only: the single executable has no require.cache of files to report.
  it.skipIf(!!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN))(
    'jq-wasm is loaded only when --jq is given',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-jq-'));
      try {
        const report = join(dir, 'modules.txt');
        const preload = join(dir, 'preload.cjs');
        // The modules the main thread loaded and the files it read (jq-wasm's JavaScript and WebAssembly are read
        // and compiled by src/jq/here.ts, and by jq's thread when a run outlasts the main thread's slice).
        writeFileSync(
          preload,
          `const fs = require('fs');
          const read = [];
          const readFileSync = fs.readFileSync;
          fs.readFileSync = function (file, ...rest) {
            if (typeof file === 'string') read.push(file);
            return readFileSync.call(this, file, ...rest);
          };
          process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)},
            [...Object.keys(require.cache), ...read].join('\\n')));`,
        );
        const env = { NODE_OPTIONS: `--require ${preload}` };
        const plain = await w.run(['connections', 'list', '--json'], { env });
        expect(plain.code).toBe(0);
        expect(readFileSync(report, 'utf8')).not.toMatch(/jq-wasm|jq\.cjs|jq\.wasm/);
        const jq = await w.run(['connections', 'list', '--jq', '.'], { env });
        expect(jq.code).toBe(0);
        expect(readFileSync(report, 'utf8')).toMatch(/dist[\\/]jq\.cjs/);
        expect(readFileSync(report, 'utf8')).toMatch(/dist[\\/]jq\.wasm/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
