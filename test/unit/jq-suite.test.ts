// jq's own test suite (tests/jq.test of jq 1.8.2, test/fixtures/jq) through cssctl's --jq output path: the
// cases whose input is an object or an array, each written to stdout as a command writes a JSON document
// and filtered by the same stage (src/jq/stage.ts) the CLI installs. The compile failures (%%FAIL) go through
// the same compile check (exit 2). The pass count may not drop below the one measured.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { UsageError } from '../../src/core/errors.js';
import { installJq } from '../../src/jq/stage.js';
import { Collect } from '../helpers/streams.js';
import { matches, objectOrArray, suite } from '../helpers/jq-suite.js';

function makeIO() {
  const stdout = new Collect();
  const stderr = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr }, { env: {} });
  return { io, stdout, stderr };
}

/** cssctl's stdout for `program` over `input`, through the --jq stage (or the error it ended with). */
async function throughCli(program: string, input: string): Promise<{ out: string; error?: unknown }> {
  const { io, stdout } = makeIO();
  try {
    const stage = await installJq(io, { filter: program, varFlags: [], exitStatus: false }, 'json');
    io.out(`${input}\n`);
    await stage.end();
  } catch (error) {
    return { out: stdout.text, error };
  }
  await io.finishOutput();
  return { out: stdout.text };
}

// Measured with jq-wasm 3.0.0-jq-1.8.2; all 270 and all 19 passed.
const PASS_FLOOR = 270;
const FAIL_FLOOR = 19;

describe("jq's own test suite through --jq", () => {
  it('runs the cases whose input is an object or an array', async () => {
    const failed: string[] = [];
    let passed = 0;
    for (const c of objectOrArray) {
      const r = await throughCli(c.program, c.input);
      // As jq's own harness: the outputs are compared; a run-time error after them (some cases end in one on
      // purpose) is what makes the CLI exit 1, and is not a failure of the case.
      if (matches(r.out, c.expected) && (!r.error || !(r.error instanceof UsageError))) passed++;
      else failed.push(`jq.test:${c.line}: ${c.program}`);
    }
    console.log(`jq.test: ${passed} of ${objectOrArray.length} object/array cases pass through --jq`);
    if (failed.length > 0) console.log(`not passing:\n${failed.join('\n')}`);
    expect(objectOrArray.length).toBeGreaterThan(200);
    expect(passed).toBeGreaterThanOrEqual(PASS_FLOOR);
  }, 120_000);

  it('the programs that must not compile are exit 2 with jq message', async () => {
    let passed = 0;
    for (const f of suite.failures) {
      const r = await throughCli(f.program, '[]');
      const msg = f.message?.replace(/^jq: error: /, '').replace(/:$/, '');
      if (r.error instanceof UsageError && (!msg || (r.error.message.includes(msg) ?? false))) passed++;
    }
    console.log(
      `jq.test: ${passed} of ${suite.failures.length} compile failures are usage errors with jq's message`,
    );
    expect(passed).toBeGreaterThanOrEqual(FAIL_FLOOR);
  }, 60_000);
});
