// The config verbs and `auth switch` run through main() with a private config folder (no service involved).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { Collect } from '../helpers/streams.js';

let tmp: string;
let dir: string;
let file: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cssctl-config-cmd-'));
  dir = join(tmp, 'cfg');
  file = join(dir, 'config.json');
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function run(argv: string[], env: Record<string, string> = {}) {
  const stdout = new Collect();
  const stderr = new Collect();
  const code = await main({
    argv,
    env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file', ...env },
    streams: { stdin: new PassThrough(), stdout, stderr },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function write(text: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, text);
}

describe('a config.json that is not JSON (issue 21)', () => {
  const broken = '{"profiles": {"default": {"workspace": "acme"},, oops\n';

  it.each([
    [['config', 'list']],
    [['config', 'list', '-o', 'csv']],
    [['config', 'get', 'workspace']],
    [['config', 'set', 'workspace', 'other']],
    [['config', 'unset', 'workspace']],
    [['auth', 'status']],
    [['connections', 'list', '--base-url', 'https://s.example.com', '-w', 'acme']],
  ])('%j: one error line naming the file, exit 1, nothing on stdout, the file untouched', async (argv) => {
    write(broken);
    const r = await run(argv, { CSSCTL_TOKEN: 'a.b.c' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: cannot read .*config\.json: not valid JSON/);
    expect(lines[0]).toContain(file);
    expect(r.stderr).not.toContain('(invalid)');
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('with -o json the one error is a JSON object', async () => {
    write(broken);
    const r = await run(['config', 'list', '-o', 'json']);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr) as { error: { detail: string; exit_code: number } };
    expect(err.error.exit_code).toBe(1);
    expect(err.error.detail).toContain(file);
  });

  it.each([['[1, 2]'], ['"text"'], ['{"profiles": []}']])(
    'JSON that is not a config (%s) is the same error',
    async (text) => {
      write(text);
      const r = await run(['config', 'list']);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(file);
    },
  );

  it('config path and logout still work', async () => {
    write(broken);
    const path = await run(['config', 'path']);
    expect([path.code, path.stdout]).toStrictEqual([0, `${file}\n`]);
    const out = await run(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/nothing to remove/);
    const json = await run(['logout', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({ profile: 'default', removed_from: [] });
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('a profile that is not an object: config list warns once and still lists', async () => {
    write(JSON.stringify({ profiles: { default: 'oops' } }));
    const r = await run(['config', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.trimEnd().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('profile "default" must be an object');
    expect(r.stdout).not.toContain('undefined');
    expect(readdirSync(dir)).toStrictEqual(['config.json']);
  });
});
