// Which commands bin/cssctl.cjs runs in a second process started with the export flags (wantsExportHeap):
// those that read every page or hold two whole sets. What the launcher knows is what the command tree declares
// (readsEveryFinding, src/commands/shared/streams.ts), written by the build to dist/launch.json. The relaunch
// itself is tested end to end (test/e2e/code-cache.test.ts, test/e2e/exe.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, launchManifest } from '../../src/cli.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';

type Manifest = Record<string, true | string[]>;
type Files = { path: (name: string) => string; text: (name: string) => string };
const { wantsExportHeap } = createRequire(import.meta.url)('../../bin/cssctl.cjs') as {
  wantsExportHeap: (args: string[], options?: { manifest?: Manifest; files?: Files }) => boolean;
};

const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
const program = buildProgram(io, () => {
  throw new Error('no command runs here');
});
/** What the source tree declares: the manifest the build writes. */
const manifest = launchManifest(program);

const commands: [path: string, cmd: Command][] = [];
(function walk(cmd: Command, path: string[]) {
  if (path.length > 0) commands.push([path.join(' '), cmd]);
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
})(program, []);

describe('wantsExportHeap', () => {
  it.each([
    [['findings', 'list', '--all', '-o', 'ndjson']],
    [['connections', 'list', '--all']],
    [['scans', 'list', '--all', '-o', 'csv']],
    [['webhooks', 'list', '--all']],
    [['api', '--paginate', '/findings']],
    [['--profile', 'ci', 'api', '/findings', '--paginate']],
    [['scans', 'wait', 'scn_1', '--baseline', 'latest']],
    [['scans', 'wait', 'scn_1', '--baseline=base.json']],
    [['scans', 'create', '--connection', 'prod', '--baseline', 'latest']],
    [['findings', 'diff', 'a.json', 'b.json']],
    [['findings', 'diff', '--base', 'latest', '--head', 'scn_1']],
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
    expect(wantsExportHeap(args, { manifest })).toBe(true);
  });

  it.each([
    [['connections', 'list', '--json']],
    [['findings', 'list', '-o', 'sarif']],
    [['findings', 'summary']],
    [['scans', 'create', '--connection', 'prod']],
    [['scans', 'get', 'scn_1', '-o', 'json']],
    [['scans', 'list', '-o', 'csv']],
    [['api', '/findings', '--', '--all']],
    [['api', '/findings']],
    [['config', 'list', '--all']],
    [['--all']],
    [[]],
    // Words that name a property of every object, not a command: never taken as a manifest entry.
    [['constructor', '--all']],
    [['__proto__']],
    [['toString', 'valueOf']],
  ])('%j reads one page or a summary: not relaunched', (args) => {
    expect(wantsExportHeap(args, { manifest })).toBe(false);
  });

  it('without launch.json (a partial build) runs in this process, and does not fail', () => {
    const files: Files = {
      path: (name) => `/nonexistent/${name}`,
      text: (name) => readFileSync(`/nonexistent/${name}`, 'utf8'),
    };
    expect(wantsExportHeap(['findings', 'list', '--all'], { files })).toBe(false);
    const garbled: Files = { path: (n) => n, text: () => '{not json' };
    expect(wantsExportHeap(['findings', 'diff'], { files: garbled })).toBe(false);
  });
});

describe('which commands read every finding: declared in the tree', () => {
  // Every flag that reads every page or a second whole set, wherever a command has it.
  const STREAMING_FLAGS = ['--all', '--paginate', '--baseline'];

  it.each(commands.filter(([, cmd]) => cmd.options.some((o) => STREAMING_FLAGS.includes(o.long!))))(
    '%s: each of its flags that reads every finding is declared',
    (path, cmd) => {
      const flags = cmd.options.map((o) => o.long!).filter((f) => STREAMING_FLAGS.includes(f));
      const rule = manifest[path];
      expect(rule, path).toBeDefined();
      if (rule !== true) expect(rule).toEqual(expect.arrayContaining(flags.map((f) => f.slice(2))));
    },
  );

  it('the verbs that read every finding whatever their flags, and a wait', () => {
    expect(manifest['findings diff']).toBe(true);
    expect(manifest['scans wait']).toBe(true);
    expect(manifest['scans create']).toEqual(expect.arrayContaining(['wait', 'baseline']));
  });

  it('declares nothing else: every command it names is in the tree, every flag it names is the command’s', () => {
    const byPath = new Map(commands);
    for (const [path, rule] of Object.entries(manifest)) {
      const cmd = byPath.get(path);
      expect(cmd, path).toBeDefined();
      if (rule !== true)
        for (const flag of rule) expect(cmd!.options.map((o) => o.long)).toContain(`--${flag}`);
    }
    expect(Object.keys(manifest).sort()).toEqual([
      'api',
      'connections list',
      'findings diff',
      'findings list',
      'scans create',
      'scans list',
      'scans wait',
      'webhooks list',
    ]);
  });

  // Built before the tests by their global set-up (scripts/build.mjs --if-changed).
  it.runIf(existsSync(new URL('../../dist/launch.json', import.meta.url)))(
    'dist/launch.json, which the launcher reads, is what the tree declares',
    () => {
      const built = JSON.parse(readFileSync(new URL('../../dist/launch.json', import.meta.url), 'utf8'));
      expect(built).toEqual(manifest);
    },
  );
});
