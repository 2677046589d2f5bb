import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { ExitError, InterruptedError, UsageError } from '../../src/core/errors.js';
import { IO } from '../../src/core/io.js';
import { JqProgram } from '../../src/jq/engine.js';
import { MAIN_SLICE_MS, V8_WASM_TIERING_BUDGET, slice } from '../../src/jq/here.js';
import { jqOptions } from '../../src/jq/flags.js';
import { joinPairs } from '../../bin/argv.cjs';
import { INTERRUPT_GRACE_MS, JqRunError, installJq, jqMode, type JqMode } from '../../src/jq/stage.js';
import { Collect } from '../helpers/streams.js';

function makeIO(tty = false) {
  const stdout = new Collect(tty);
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} });
  return { io, stdout, stderr };
}

async function run(
  filter: string,
  mode: JqMode,
  writes: string[],
  extra: Partial<{ varFlags: string[]; exitStatus: boolean; tty: boolean }> = {},
) {
  const { io, stdout, stderr } = makeIO(extra.tty);
  const stage = await installJq(
    io,
    { filter, varFlags: extra.varFlags ?? [], exitStatus: extra.exitStatus ?? false },
    mode,
  );
  let error: unknown;
  try {
    for (const w of writes) io.outBatched(w);
    io.flushOut();
    await stage.end();
  } catch (err) {
    error = err;
  }
  const unwritten = await io.finishOutput();
  return { out: stdout.text, err: stderr.text, error: error ?? unwritten };
}

describe('--jq flags', () => {
  it('--arg and --argjson take two values each, joined for commander; -- ends them', () => {
    const { argv = [] } = joinPairs([
      'findings',
      'list',
      '--arg',
      'x',
      '1',
      '--argjson',
      'y',
      '{"a":1}',
      '--',
      '--arg',
      'a',
    ]);
    expect(argv.slice(0, 2)).toEqual(['findings', 'list']);
    expect(argv.slice(-3)).toEqual(['--', '--arg', 'a']);
    const opts = jqOptions({ jq: '.', arg: [argv[3]!], argjson: [argv[5]!] });
    expect(opts?.varFlags).toEqual(['--arg', 'x', '1', '--argjson', 'y', '{"a":1}']);
    expect(joinPairs(['--arg', 'x']).missing).toBe('--arg');
  });

  it('--jq is refused on the commands that print text', () => {
    expect(() => jqOptions({ jq: '.' }, 'auth token')).toThrow(/"auth token" prints text, not JSON/);
    expect(jqOptions({ jq: '.' }, 'auth status')?.filter).toBe('.');
  });

  it('output that is not JSON is an error saying so', async () => {
    const r = await run('.', 'json', ['/home/x/.config/cssctl\n']);
    expect((r.error as Error).message).toMatch(/^jq: the output is not JSON \(parse error: /);
  });

  it('the companions need --jq; --jq takes json or ndjson only', () => {
    expect(() => jqOptions({ jqExitStatus: true })).toThrow(/--jq-exit-status needs --jq/);
    expect(jqOptions({})).toBeUndefined();
    expect(jqMode(undefined, undefined)).toBe('json');
    expect(jqMode('ndjson', undefined)).toBe('ndjson');
    expect(jqMode('ocsf', undefined)).toBe('ndjson');
    expect(() => jqMode('csv', undefined)).toThrow(/--jq works with -o json, ndjson or ocsf, not -o csv/);
  });
});

describe('--jq stage', () => {
  it('json: one run over the whole document, strings raw, the rest compact, one per line', async () => {
    const r = await run('.[] | .name, {n: .n}', 'json', [
      '[\n  {"name": "a b", "n": 1}',
      ',\n  {"name": "c", "n": 2}\n]\n',
    ]);
    expect(r.error).toBeUndefined();
    expect(r.out).toBe('a b\n{"n":1}\nc\n{"n":2}\n');
    const len = await run('length', 'json', ['[1,', '2,', '3]\n']);
    expect(len.out).toBe('3\n');
  });

  it('ndjson: per item as lines arrive, across chunks cut mid-line', async () => {
    const r = await run('.id', 'ndjson', ['{"id":"a"}\n{"i', 'd":"b"}\n', '{"id":"c"}\n']);
    expect(r.out).toBe('a\nb\nc\n');
  });

  it('a filter that does not compile is a usage error with jq message', async () => {
    await expect(run('.a |', 'json', [])).rejects.toThrow(
      /--jq: syntax error, unexpected end of file.*line 1, column 4/,
    );
    await expect(run('$nope', 'json', [])).rejects.toThrow(UsageError);
    await expect(run('$y', 'json', [], { varFlags: ['--argjson', 'y', '{bad'] })).rejects.toThrow(
      /invalid JSON text passed to --argjson/,
    );
  });

  it('--arg binds a string, --argjson a value', async () => {
    const r = await run('[$x, $y.a]', 'json', ['null\n'], {
      varFlags: ['--arg', 'x', '1', '--argjson', 'y', '{"a":2}'],
    });
    expect(r.out).toBe('["1",2]\n');
  });

  it('ndjson: a run-time error stops at the item, names it, and what came before is written', async () => {
    const items = ['{"id":"f1","t":{"a":1}}', '{"id":"f2","t":"x"}', '{"id":"f3","t":{"a":3}}'];
    const r = await run('.t.a', 'ndjson', [`${items.join('\n')}\n`]);
    expect(r.out).toBe('1\n');
    expect(r.error).toBeInstanceOf(JqRunError);
    expect((r.error as Error).message).toBe('jq: Cannot index string with string ("a") (at item 2, id "f2")');
    expect(r.err).not.toContain('jq: error');
    // The item count runs on across chunks.
    const later = await run('.t.a', 'ndjson', [`${items[0]}\n`, `${items[2]}\n`, `${items[1]}\n`]);
    expect((later.error as Error).message).toContain('at item 3, id "f2"');
  });

  it('json: a run-time error is exit 1 naming the document, after the results before it', async () => {
    const r = await run('.[] | .a', 'json', ['[{"a":1},"s"]\n']);
    expect(r.out).toBe('1\n');
    expect(r.error).toBeInstanceOf(JqRunError);
    expect((r.error as Error).message).toMatch(/Cannot index string.*in the JSON document/);
  });

  it('--jq-exit-status: the last result decides, as jq -e', async () => {
    for (const [filter, code] of [
      ['false', 1],
      ['null', 1],
      ['1, false', 1],
      ['false, 0', 0],
      ['empty', 4],
      ['"x"', 0],
    ] as const) {
      const r = await run(filter, 'json', ['[]\n'], { exitStatus: true });
      if (code === 0) expect(r.error, filter).toBeUndefined();
      else expect((r.error as ExitError).exitCode, filter).toBe(code);
    }
    // No result at all is exit 4, as jq -e (ndjson too).
    const none = await run('select(.x)', 'ndjson', ['{"a":1}\n{"a":2}\n'], { exitStatus: true });
    expect((none.error as ExitError).exitCode).toBe(4);
    // Without the flag, false is just a result.
    expect((await run('false', 'json', ['[]\n'])).error).toBeUndefined();
  });

  it('raw strings lose terminal controls on a terminal only, and keep their lines', async () => {
    const filter = '.[0]';
    const input = ['["a\\u001b[31mred\\nb"]\n'];
    expect((await run(filter, 'json', input, { tty: true })).out).toBe('a[31mred\nb\n'.replace('[31m', ''));
    expect((await run(filter, 'json', input)).out).toBe('a\u001b[31mred\nb\n');
  });

  it('a WebAssembly abort does not poison later runs', async () => {
    // Folded as jq compiles: an abort in the compile check is a usage error, and the next compile works.
    const folded = await JqProgram.compile('"x" * 1e9 | length', []);
    expect('error' in folded && folded.error).toMatch(/^jq stopped/);
    const compiled = await JqProgram.compile('. as $n | "x" * ($n * 1e9) | length', []);
    if (!('program' in compiled)) throw new Error(compiled.error);
    const r = await compiled.program.run('1');
    expect(r.error?.message).toMatch(/^jq stopped/);
    const again = await JqProgram.compile('.a + 1', []);
    if (!('program' in again)) throw new Error(again.error);
    expect((await again.program.run('{"a":41}')).results).toEqual(['42']);
    // The program that aborted runs again on its new instance.
    expect((await compiled.program.run('0')).results).toEqual(['0']);
  }, 60_000);
});

describe('--jq stage: naming the item', () => {
  it('whatever line jq reports, the first item that fails is named, and the results before it written', async () => {
    const items = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ id: `f${i + 1}`, v: i === 6 || i === 9 ? 'x' : i }),
    );
    const r = await run('.v + 1', 'ndjson', [`${items.join('\n')}\n`]);
    expect(r.out).toBe('1\n2\n3\n4\n5\n6\n');
    expect((r.error as Error).message).toBe(
      'jq: string ("x") and number (1) cannot be added (at item 7, id "f7")',
    );
    // The last item of a chunk.
    const multi = await run('.v + 1', 'ndjson', ['{"id":"a","v":1}\n{"id":"b","v":"x"}\n']);
    expect((multi.error as Error).message).toContain('at item 2, id "b"');
  });

  it('halt_error stops with its message on stderr as it is, after the results before it, with exit 5 or its code', async () => {
    const r = await run('if .v == 2 then "stop\\n" | halt_error else .v end', 'ndjson', [
      '{"v":1}\n{"v":2}\n{"v":3}\n',
    ]);
    expect(r.out).toBe('1\n');
    expect(r.err).toBe('stop\n');
    expect((r.error as ExitError).exitCode).toBe(5);
    const json = await run('.[] | if . == 3 then {at: .} | halt_error(7) else . end', 'json', [
      '[1,2,3,4]\n',
    ]);
    expect(json.out).toBe('1\n2\n');
    expect(json.err).toBe('{"at":3}\n');
    expect((json.error as ExitError).exitCode).toBe(7);
    // halt_error(0): its message, and exit 0.
    const zero = await run('"bye" | halt_error(0)', 'json', ['[]\n']);
    expect([zero.err, zero.error]).toStrictEqual(['bye\n', undefined]);
  });

  it("error(null) and error({…}) name the item, never jq's own location", async () => {
    const r = await run('if .v == 2 then error(null) else .v end', 'ndjson', [
      '{"id":"a","v":1}\n{"id":"b","v":2}\n',
    ]);
    expect(r.out).toBe('1\n');
    expect((r.error as Error).message).toBe('jq: null (not a string) (at item 2, id "b")');
    const obj = await run('.[] | error({why: .})', 'json', ['["x"]\n']);
    expect((obj.error as Error).message).toBe('jq: {"why":"x"} (not a string) (in the JSON document)');
    for (const e of [r.error, obj.error]) expect((e as Error).message).not.toMatch(/stdin|\(at \//);
  });
});

describe('--jq is jq: compared with the jq binary', () => {
  async function ours(filter: string, input: string, env?: NodeJS.ProcessEnv) {
    const { io, stdout, stderr } = makeIO();
    let code = 0;
    try {
      const stage = await installJq(io, { filter, varFlags: [], exitStatus: false }, 'json', undefined, env);
      io.out(input);
      await stage.end();
    } catch (err) {
      code = err instanceof ExitError ? err.exitCode : err instanceof UsageError ? 2 : 1;
    }
    await io.finishOutput();
    return { code, out: stdout.text, err: stderr.text };
  }

  it("$ENV and env are the environment cssctl was given; a program's own $ENV or env still wins", async () => {
    const env = { CSSCTL_JQ_TEST: 'from the shell', HOME: '/home/someone' };
    expect((await ours('[$ENV.CSSCTL_JQ_TEST, env.HOME, ($ENV | length)]', 'null\n', env)).out).toBe(
      '["from the shell","/home/someone",2]\n',
    );
    expect((await ours('{"HOME": 1} as $ENV | $ENV.HOME', 'null\n', env)).out).toBe('1\n');
    expect((await ours('def env: "mine"; env', 'null\n', env)).out).toBe('mine\n');
    // Lines are the program's own: $__loc__, and a compile error's line and column.
    expect((await ours('$__loc__', 'null\n', env)).out).toBe('{"file":"<top-level>","line":1}\n');
  });

  // Debian's jq (1.6 on this machine's distribution) as the reference, where installed.
  const jqBinary = (() => {
    try {
      return execFileSync('jq', ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  })();
  it.skipIf(!jqBinary)('exit codes and stderr of halt_error, as the jq binary gives them', async () => {
    const cases: [string, string][] = [
      ['halt_error', '"x\\n"'],
      ['halt_error', '{"id":"x"}'],
      ['"bye" | halt_error(3)', '1'],
      ['"gone\\n" | halt_error(1)', '1'],
      ['halt_error(0)', '"fine"'],
      ['.[] | if . > 1 then halt_error(9) else . end', '[1,2,3]'],
    ];
    for (const [filter, input] of cases) {
      const real = spawnSync('jq', ['-c', filter], { input: `${input}\n`, encoding: 'utf8' });
      const r = await ours(filter, `${input}\n`, {});
      expect(r.code, filter).toBe(real.status);
      expect(r.out, filter).toBe(real.stdout);
      // jq prints a string as it is and a value as JSON; cssctl ends the message's line.
      expect(r.err, filter).toBe(real.stderr.endsWith('\n') ? real.stderr : `${real.stderr}\n`);
    }
    const env = { CSSCTL_JQ_TEST: 'same' };
    const real = spawnSync('jq', ['-c', '[$ENV.CSSCTL_JQ_TEST, env.CSSCTL_JQ_TEST]'], {
      input: 'null\n',
      encoding: 'utf8',
      env,
    });
    expect((await ours('[$ENV.CSSCTL_JQ_TEST, env.CSSCTL_JQ_TEST]', 'null\n', env)).out).toBe(real.stdout);
    // jq -e with no result at all.
    const none = spawnSync('jq', ['-e', 'empty'], { input: '1\n' });
    expect(none.status).toBe(4);
  });
});

describe('--jq: a program that never ends', () => {
  // jq runs in a thread of its own: the command's signal (Ctrl-C, SIGTERM) ends it whatever the program does.
  it.each([
    ['last(range(1e12))', 'json'],
    ['def f: f; f', 'json'],
    ['repeat(1)', 'ndjson'],
    ['.id as $x | last(range(1e12)) | $x', 'ndjson'],
  ] as const)(
    '%s (-o %s) is ended by the signal, with an interruption (exit 130)',
    async (filter, mode) => {
      const { io, stdout } = makeIO();
      const controller = new AbortController();
      const stage = await installJq(io, { filter, varFlags: [], exitStatus: false }, mode, controller.signal);
      io.outBatched(mode === 'json' ? '[{"id":"a"}]\n' : '{"id":"a"}\n{"id":"b"}\n');
      io.flushOut();
      const ended = stage.end();
      const caught = ended.then(
        () => undefined,
        (err: unknown) => err,
      );
      await new Promise((r) => setTimeout(r, 300));
      const at = performance.now();
      controller.abort();
      const err = await caught;
      expect(err).toBeInstanceOf(InterruptedError);
      expect(performance.now() - at).toBeLessThan(INTERRUPT_GRACE_MS + 1_000);
      // What jq yielded before the signal is out, whole results only (repeat(1): ones as they came).
      expect(stdout.text).toMatch(filter === 'repeat(1)' ? /^(1\n)+$/ : /^$/);
      // The next command in this process gets a fresh jq.
      const next = await run('.[0].id', 'json', ['[{"id":"z"}]\n']);
      expect(next.out).toBe('z\n');
    },
    20_000,
  );

  it.each(['json', 'ndjson'] as const)(
    '-o %s: each result is written as jq yields it, before the program ends',
    async (mode) => {
      const { io, stdout } = makeIO();
      const controller = new AbortController();
      const filter = '.id, (last(range(1e12)) | tostring)';
      const stage = await installJq(io, { filter, varFlags: [], exitStatus: false }, mode, controller.signal);
      io.outBatched(mode === 'json' ? '{"id":"a"}\n' : '{"id":"a"}\n{"id":"b"}\n');
      io.flushOut();
      const caught = stage.end().then(
        () => undefined,
        (err: unknown) => err,
      );
      const deadline = performance.now() + 10_000;
      while (stdout.text === '' && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stdout.text).toBe('a\n');
      controller.abort();
      expect(await caught).toBeInstanceOf(InterruptedError);
    },
    20_000,
  );

  it("a run that outlasts its slice on the main thread goes on in jq's thread, without repeating a result", async () => {
    slice.ms = 100;
    try {
      const r = await run('range(5), (last(range(3e6)) | tostring), "done"', 'json', ['null\n']);
      expect(r.error).toBeUndefined();
      expect(r.out).toBe('0\n1\n2\n3\n4\n2999999\ndone\n');
    } finally {
      slice.ms = MAIN_SLICE_MS;
    }
  }, 60_000);

  // jq's thread from here on (the run above was handed over).
  it('results larger than the ring between the threads, and many small ones, arrive whole and in order', async () => {
    // The ring holds 1 MiB (RING_BYTES): a result of 1.5 MB goes through it in parts.
    const big = await run('"é" * 750000, range(30000), "end"', 'json', ['null\n']);
    expect(big.error).toBeUndefined();
    const lines = big.out.split('\n');
    expect(lines[0]).toBe('é'.repeat(750_000));
    expect(lines.slice(1, -2)).toEqual(Array.from({ length: 30_000 }, (_, i) => String(i)));
    expect(lines.slice(-2)).toEqual(['end', '']);
  }, 30_000);

  it('-o ndjson: after the signal, the rows already handed to jq are still filtered and printed', async () => {
    const { io, stdout } = makeIO();
    const controller = new AbortController();
    const stage = await installJq(
      io,
      { filter: '.id', varFlags: [], exitStatus: false },
      'ndjson',
      controller.signal,
    );
    io.outBatched('{"id":"a"}\n{"id":"b"}\n');
    io.flushOut();
    controller.abort();
    stage.abandon();
    expect(await io.finishOutput()).toBeUndefined();
    expect(stdout.text).toBe('a\nb\n');
  });

  it('the compile check is ended by the signal too', async () => {
    const { io } = makeIO();
    const controller = new AbortController();
    controller.abort();
    await expect(
      installJq(io, { filter: '.', varFlags: [], exitStatus: false }, 'json', controller.signal),
    ).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('--jq: how errors are printed', () => {
  // --jq implies -o json for what the filter reads; errors follow what the user asked for.
  async function cli(argv: string[], saved?: object) {
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-jq-errors-'));
    try {
      if (saved) writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: saved } }));
      const stdout = new Collect();
      const stderr = new Collect();
      const code = await main({
        argv,
        env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file' },
        streams: { stdin: new PassThrough(), stdout, stderr },
      });
      return { code, out: stdout.text, err: stderr.text };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('a filter that does not compile: an error line without -o json; JSON with -o json, --json or a saved json output', async () => {
    for (const argv of [
      ['connections', 'list', '--jq', '.a |'],
      ['--jq', '.[] | ascii(', 'findings', 'list'],
      ['api', '/connections', '--jq', '$nope'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^error: --jq: .+\n$/);
      expect(r.out).toBe('');
    }
    for (const [argv, saved] of [
      [['connections', 'list', '--jq', '.a |', '-o', 'json'], undefined],
      [['connections', 'list', '--jq', '.a |', '--json'], undefined],
      [['connections', 'list', '--jq', '.a |', '-o', 'ndjson'], undefined],
      [['connections', 'list', '--jq', '.a |'], { output: 'json' }],
    ] as const) {
      const r = await cli([...argv], saved);
      expect(r.code, argv.join(' ')).toBe(2);
      const e = JSON.parse(r.err) as { error: { detail: string; exit_code: number } };
      expect(e.error.detail).toMatch(/^--jq: syntax error/);
      expect(e.error.exit_code).toBe(2);
    }
    // A usage error of the companions too.
    const stray = await cli(['connections', 'list', '--jq-exit-status']);
    expect(stray.err).toBe('error: --jq-exit-status needs --jq <filter>\n');
  });
});

describe("jq's WebAssembly compile (src/jq/here.ts compileJqWasm)", () => {
  it("puts back V8's own wasm tiering budget: the constant is this Node's default", () => {
    // compileJqWasm raises the budget for one compile and sets it back to V8_WASM_TIERING_BUDGET; another default
    // would leave V8's flags changed (and every code cache written at exit refused by the next process).
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const m = /--wasm-tiering-budget[^\n]*\n\s*type: int\s+default: --wasm-tiering-budget=(\d+)/.exec(
      options,
    );
    expect(m, 'node --v8-options names --wasm-tiering-budget').not.toBeNull();
    expect(Number(m![1])).toBe(V8_WASM_TIERING_BUDGET);
  });
});
