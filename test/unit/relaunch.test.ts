// Which commands bin/cssctl.cjs runs in a second process started with the export flags (wantsExportHeap):
// those that read every page or hold two whole sets. The relaunch itself is tested end to end
// (test/e2e/code-cache.test.ts, test/e2e/exe.test.ts).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const { wantsExportHeap } = createRequire(import.meta.url)('../../bin/cssctl.cjs') as {
  wantsExportHeap: (args: string[]) => boolean;
};

describe('wantsExportHeap', () => {
  it.each([
    [['findings', 'list', '--all', '-o', 'ndjson']],
    [['api', '--paginate', '/findings']],
    [['scans', 'wait', 'scn_1', '--baseline', 'latest']],
    [['scans', 'wait', 'scn_1', '--baseline=base.json']],
    [['findings', 'diff', 'a.json', 'b.json']],
    [['scans', 'wait', 'scn_1', '-o', 'sarif']],
    [['scans', 'wait', 'scn_1', '--output', 'junit']],
    [['scans', 'wait', 'scn_1', '--output=html']],
    [['scans', 'wait', 'scn_1', '-ogithub']],
    [['scans', 'create', '--connection', 'prod', '--wait', '--report', 'sarif=out.sarif']],
    [['scans', 'create', '--connection', 'prod', '--wait', '--report=junit=out.xml']],
    // A wait: its report may read every finding, and it takes seconds anyway.
    [['scans', 'wait', 'scn_1']],
    [['scans', 'wait', 'scn_1', '-o', 'json']],
    [['scans', 'create', '--connection', 'prod', '--wait']],
  ])('%j reads every finding or waits: relaunched', (args) => {
    expect(wantsExportHeap(args)).toBe(true);
  });

  it.each([
    [['connections', 'list', '--json']],
    [['findings', 'list', '-o', 'sarif']],
    [['scans', 'create', '--connection', 'prod']],
    [['scans', 'get', 'scn_1', '-o', 'json']],
    [['scans', 'list', '-o', 'csv']],
    [['api', '/findings', '--', '--all']],
  ])('%j reads one page or a summary: not relaunched', (args) => {
    expect(wantsExportHeap(args)).toBe(false);
  });
});
