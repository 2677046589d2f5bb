// `cssctl help <topic>` as the built cssctl answers it: the pages bundled apart (dist/help-topics.cjs) print
// what docs/ says, and no other command loads them (start-up is not slower for them).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTopic, topicSource } from '../../src/help/pages.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { BIN, runCli } from './harness.js';

const env = { PATH: process.env.PATH, LANG: 'C.UTF-8' };

describe('cssctl help <topic>', () => {
  it.each(HELP_TOPICS.map((t) => t.name))(
    '%s prints the docs/ page, as the sources render it',
    async (name) => {
      const res = await runCli(['help', name], env);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toBe(renderTopic(name, { width: 80 }));
    },
  );

  it('an unknown topic is exit 2, naming the topics', async () => {
    const res = await runCli(['help', 'enviroment'], env);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^error: no help topic or command "enviroment" — did you mean "environment"\? \(topics: exit-codes, environment, formats, ignore-file, ocsf, csv;/,
    );
    // Without a guess, the line names `cssctl help` once.
    const foo = await runCli(['help', 'foo'], env);
    expect(foo.code).toBe(2);
    expect(foo.stderr).toBe(
      'error: no help topic or command "foo" (topics: exit-codes, environment, formats, ignore-file, ocsf, csv; cssctl help lists the commands)\n',
    );
  });

  // Of the checkout's build.
  it.skipIf(!!process.env.CSSCTL_TEST_BIN)(
    'the CLI bundle holds none of the pages: they are in dist/help-topics.cjs only',
    () => {
      const cli = readFileSync(new URL('../../dist/cli.cjs', import.meta.url), 'utf8');
      const require = createRequire(import.meta.url);
      const apart = require('../../dist/help-topics.cjs') as { topicSource(name: string): string };
      for (const t of HELP_TOPICS) {
        // The page as docs/ has it, byte for byte.
        expect(apart.topicSource(t.name)).toBe(
          readFileSync(new URL(`../../${t.page}`, import.meta.url), 'utf8'),
        );
        // The CLI's bundle holds no line of it (its longest line of plain ASCII, as esbuild would write it).
        const line = topicSource(t.name)
          .split('\n')
          .filter((l) => /^[\x20-\x7e]+$/.test(l))
          .sort((a, b) => b.length - a.length)[0]!;
        expect(line.length).toBeGreaterThan(60);
        expect(cli).not.toContain(line);
      }
    },
  );

  // A Node-loaded cssctl only: the single executable has no require.cache of files to report.
  it.skipIf(!!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(BIN))(
    'only help <topic> loads the pages',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cssctl-help-'));
      try {
        const report = join(dir, 'modules.txt');
        const preload = join(dir, 'preload.cjs');
        writeFileSync(
          preload,
          `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, Object.keys(require.cache).join('\\n')));`,
        );
        const withPreload = {
          ...env,
          NODE_OPTIONS: `--require ${preload}`,
          CSSCTL_CONFIG_DIR: join(dir, 'config'),
        };
        for (const argv of [['config', 'path'], ['help', 'scans'], ['help'], ['scans', 'wait', '--help']]) {
          const res = await runCli(argv, withPreload);
          expect(res.code, argv.join(' ')).toBe(0);
          expect(readFileSync(report, 'utf8'), argv.join(' ')).not.toMatch(/help-topics/);
        }
        const topic = await runCli(['help', 'formats'], withPreload);
        expect(topic.code).toBe(0);
        expect(readFileSync(report, 'utf8')).toMatch(/dist[\\/]help-topics\.cjs/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
