import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitError, UsageError } from '../../src/core/errors.js';
import { IO } from '../../src/core/io.js';
import { JqProgram } from '../../src/jq/engine.js';
import { jqOptions } from '../../src/jq/flags.js';
import { joinPairs } from '../../bin/argv.cjs';
import { JqRunError, installJq, jqMode, type JqMode } from '../../src/jq/stage.js';
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
      ['empty', 1],
      ['"x"', 0],
    ] as const) {
      const r = await run(filter, 'json', ['[]\n'], { exitStatus: true });
      if (code === 0) expect(r.error, filter).toBeUndefined();
      else expect((r.error as ExitError).exitCode, filter).toBe(1);
    }
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
    const r = compiled.program.run('1');
    expect(r.error?.message).toMatch(/^jq stopped/);
    await compiled.program.ready();
    const again = await JqProgram.compile('.a + 1', []);
    if (!('program' in again)) throw new Error(again.error);
    expect(again.program.run('{"a":41}').results).toEqual(['42']);
    // The program that aborted runs again on its new instance.
    expect(compiled.program.run('0').results).toEqual(['0']);
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

  it('halt_error stops with its message, after the results before it', async () => {
    const r = await run('if .v == 2 then "stop\\n" | halt_error else .v end', 'ndjson', [
      '{"v":1}\n{"v":2}\n{"v":3}\n',
    ]);
    expect(r.out).toBe('1\n');
    expect((r.error as Error).message).toBe('jq: stop');
  });
});
