// Tokens belong to the base URL that issued them (issue 9 #7; cli-contract.md §5).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server.js';
import { World, errorLine } from './harness.js';

let w: World;
let other: Sandbox;
const credFile = () => join(w.configDir, 'credentials.json');

beforeAll(async () => {
  w = await World.start();
  other = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await other?.close();
  await w?.close();
});
beforeEach(async () => {
  await w.login();
  w.sandbox.clearRequests();
  other.clearRequests();
});

describe('a base URL other than the one the profile logged in to', () => {
  it.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: {} })],
    ['CSSCTL_BASE_URL', (url: string) => ({ args: [], env: { CSSCTL_BASE_URL: url } })],
  ] as const)('%s: no token is sent, nothing refreshed or saved; exit 3 naming the URL', async (_n, how) => {
    const { args, env } = how(other.url);
    // Expired, so a refresh would be attempted if the check were missing.
    const data = JSON.parse(readFileSync(credFile(), 'utf8'));
    data.profiles.default.expires_at = Date.now() - 1000;
    writeFileSync(credFile(), JSON.stringify(data), { mode: 0o600 });
    const before = readFileSync(credFile(), 'utf8');
    for (const cmd of [
      ['connections', 'list'],
      ['auth', 'token'],
      ['auth', 'refresh'],
    ]) {
      const res = await w.run([...cmd, ...args], { env });
      expect(res.code, res.stderr).toBe(3);
      expect(errorLine(res)).toContain(`not logged in to ${other.url}`);
      expect(res.stderr).toMatch(/cssctl login --base-url/);
    }
    expect(other.requests).toHaveLength(0);
    expect(w.sandbox.requests).toHaveLength(0);
    expect(readFileSync(credFile(), 'utf8')).toBe(before);
  });

  it('config set base_url elsewhere: the same refusal; setting it back works again', async () => {
    expect((await w.run(['config', 'set', 'base_url', other.url])).code).toBe(0);
    const res = await w.run(['connections', 'list']);
    expect(res.code).toBe(3);
    expect(errorLine(res)).toContain(`not logged in to ${other.url}`);
    expect(other.requests).toHaveLength(0);
    expect((await w.run(['config', 'set', 'base_url', w.url])).code).toBe(0);
    expect((await w.run(['connections', 'list'])).code).toBe(0);
  });

  it('tokens stored before they recorded their base URL belong to the profile base_url', async () => {
    const data = JSON.parse(readFileSync(credFile(), 'utf8'));
    delete data.profiles.default.base_url;
    writeFileSync(credFile(), JSON.stringify(data), { mode: 0o600 });
    expect((await w.run(['connections', 'list', '--base-url', other.url])).code).toBe(3);
    expect(other.requests).toHaveLength(0);
    expect((await w.run(['connections', 'list'])).code).toBe(0);
  });

  it('the same URL spelled with a trailing /api/v1 is the same service', async () => {
    const res = await w.run(['connections', 'list', '--base-url', `${w.url}/api/v1/`]);
    expect(res.code, res.stderr).toBe(0);
  });

  it('CSSCTL_TOKEN is sent wherever the user points it', async () => {
    const token = await other.issueAccessToken(other.credentials[0]!.email, 600);
    const res = await w.run(
      ['connections', 'list', '--base-url', other.url, '-w', other.credentials[0]!.workspace],
      {
        env: { CSSCTL_TOKEN: token },
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(other.requests.length).toBeGreaterThan(0);
  });
});
