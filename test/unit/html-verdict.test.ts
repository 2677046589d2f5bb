// -o html's verdict is the command's gate (src/report/gate.ts), as the exit code has it — never a count of the
// rows the page shows, which --severity may have narrowed and which, in a comparison, hold unchanged findings.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { writeList } from '../../src/core/output/index.js';
import type { ReportAbout } from '../../src/core/format.js';
import { html } from '../../src/report/html.js';
import type { Finding } from '../../src/api/findings-types.js';
import { Collect } from '../helpers/streams.js';

const rows: Finding[] = [
  { id: 'f1', severity: 'critical', title: 'open bucket', resource: 'arn:1' },
  { id: 'f2', severity: 'low', title: 'old tls', resource: 'arn:2' },
];

async function page(verdict: ReportAbout['verdict'], failOn?: string): Promise<string> {
  const stdout = new Collect();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr: new Collect() }, { env: {} });
  await writeList(io, rows, {
    format: 'html',
    formats: { html },
    columns: [],
    noun: 'findings',
    failOn,
    about: { workspace: 'acme', subject: 'scan scn_1', verdict },
  });
  await io.finishOutput();
  return stdout.text;
}

describe('-o html: the verdict', () => {
  it('shows the gate as decided: failed, with its own count, whatever the rows hold', async () => {
    const text = await page(() => ({ met: true, count: 7, threshold: 'high' }), 'high');
    expect(text).toMatch(/verdict fail">failed<\/span> 7 findings at or above high/);
  });

  it('passed when the gate passed, though a critical row is on the page (an unchanged one, say)', async () => {
    const text = await page(() => ({ met: false, count: 0, threshold: 'high' }), 'high');
    expect(text).toMatch(/verdict pass">passed<\/span> nothing at or above high/);
    expect(text).not.toContain('verdict fail');
  });

  it('no gate: no verdict of its own, even with a threshold and rows that would meet it', async () => {
    const none = await page(undefined, 'high');
    expect(none).toContain('verdict none">no --fail-on gate');
    const undecided = await page(() => undefined, 'high');
    expect(undecided).toContain('verdict none">no --fail-on gate');
  });
});
