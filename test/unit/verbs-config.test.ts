// The config verbs (list, get, set, unset, profiles, path) through their run functions, with a fake context
// whose config folder is its own. None of them talks to the service: every test checks nothing was sent.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { get, list, path, profiles, set, unset } from '../../src/commands/config/config.js';
import { memoryKeychain, type FakeContext } from '../helpers/fake-context.js';
import { failureOf, verbWorld, type VerbWorld } from '../helpers/verb.js';

const worlds: VerbWorld[] = [];
afterEach(() => {
  // No config verb sends anything, whatever it does.
  for (const w of worlds.splice(0)) expect(w.sent).toStrictEqual([]);
});

/** A world with no CSSCTL_TOKEN, CSSCTL_BASE_URL or CSSCTL_WORKSPACE: what config.json says shows. */
function world(opts: Parameters<typeof verbWorld>[1] = {}): VerbWorld {
  const w = verbWorld([], {
    ...opts,
    env: { CSSCTL_TOKEN: undefined, CSSCTL_BASE_URL: undefined, CSSCTL_WORKSPACE: undefined, ...opts.env },
  });
  worlds.push(w);
  return w;
}

const file = (ctx: FakeContext) => join(ctx.configDir, 'config.json');

function writeConfig(ctx: FakeContext, value: unknown): void {
  writeFileSync(file(ctx), typeof value === 'string' ? value : JSON.stringify(value));
}

function saved(ctx: FakeContext): { profiles?: Record<string, Record<string, unknown>> } {
  return JSON.parse(readFileSync(file(ctx), 'utf8')) as object;
}

const PROFILES = {
  profiles: {
    default: { base_url: 'https://d.example.com', workspace: 'dw', email: 'd@acme.test' },
    work: { base_url: 'https://w.example.com', workspace: 'ww', output: 'json' },
  },
};

describe('config list', () => {
  it('table: every key, its value and where it comes from (flag, env, profile, default)', async () => {
    const w = world({ env: { CSSCTL_WORKSPACE: 'from-env' } });
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(list, {})).toBe(0);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'KEY        VALUE                  SOURCE',
      'base_url   https://d.example.com  profile',
      'workspace  from-env               env',
      'email      d@acme.test            profile',
      'output     table                  default',
    ]);
    expect(w.stderr.text).toBe('');
  });

  it('-o json: one object of the values; csv: a header and a row per key, the flag as the source of output', async () => {
    const json = world({ output: 'json', globals: { profile: 'work' } });
    writeConfig(json.ctx, PROFILES);
    expect(await json.run(list, {})).toBe(0);
    expect(JSON.parse(json.stdout.text)).toStrictEqual({
      base_url: 'https://w.example.com',
      workspace: 'ww',
      email: null,
      output: 'json',
    });
    const csv = world({ output: 'csv' });
    writeConfig(csv.ctx, PROFILES);
    expect(await csv.run(list, {})).toBe(0);
    expect(csv.stdout.text).toBe(
      'key,value,source\nbase_url,https://d.example.com,profile\nworkspace,dw,profile\nemail,d@acme.test,profile\noutput,csv,flag\n',
    );
  });

  it('an invalid saved value is shown marked invalid, with a warning naming it — never an error', async () => {
    const w = world();
    writeConfig(w.ctx, { profiles: { default: { workspace: 'bad slug!', output: 'xml' } } });
    expect(await w.run(list, {})).toBe(0);
    expect(w.stdout.text).toMatch(/^workspace +bad slug! \(invalid\) +profile$/m);
    expect(w.stdout.text).toMatch(/^output +xml \(invalid\) +profile$/m);
    const warnings = w.stderr.text.trimEnd().split('\n');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^warning: .*config\.json.*workspace/);
    expect(warnings[1]).toMatch(/^warning: .*config\.json.*output/);
    const json = world({ output: 'json' });
    writeConfig(json.ctx, { profiles: { default: { workspace: 'bad slug!' } } });
    expect(await json.run(list, {})).toBe(0);
    expect(JSON.parse(json.stdout.text)).toStrictEqual({
      base_url: null,
      workspace: 'bad slug!',
      email: null,
      output: 'json',
      invalid: ['workspace'],
    });
  });

  it('a profile that is not an object is one warning, not one per key', async () => {
    const w = world();
    writeConfig(w.ctx, { profiles: { default: 'oops' } });
    expect(await w.run(list, {})).toBe(0);
    const warnings = w.stderr.text.trimEnd().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('profile "default" must be an object');
    expect(w.stdout.text).not.toContain('undefined');
  });

  it('a config.json that is not JSON: exit 1 naming it, nothing on stdout, the file untouched', async () => {
    const w = world();
    writeConfig(w.ctx, '{"profiles": {,, oops');
    const err = await failureOf(w.ctx, list, {});
    expect(err?.exit).toBe(1);
    expect(err?.message).toMatch(/^cannot read .*config\.json: not valid JSON/);
    expect(err?.message).toContain(file(w.ctx));
    expect(w.ctx.stdout.text).toBe('');
    expect(readFileSync(file(w.ctx), 'utf8')).toBe('{"profiles": {,, oops');
  });

  it('reads only: no config.json is created', async () => {
    const w = world();
    expect(await w.run(list, {})).toBe(0);
    expect(readdirSync(w.ctx.configDir)).toStrictEqual([]);
  });
});

describe('config get', () => {
  it('prints the effective value alone; a key may be written Base-URL', async () => {
    const w = world();
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(get, {}, ['workspace'])).toBe(0);
    expect(await w.run(get, {}, ['Base-URL'])).toBe(0);
    expect(w.stdout.text).toBe('dw\nhttps://d.example.com\n');
  });

  it('the environment wins over the profile; a key with no value prints nothing', async () => {
    const w = world({ env: { CSSCTL_WORKSPACE: 'from-env' } });
    writeConfig(w.ctx, { profiles: { default: { workspace: 'dw' } } });
    expect(await w.run(get, {}, ['workspace'])).toBe(0);
    expect(await w.run(get, {}, ['email'])).toBe(0);
    expect(w.stdout.text).toBe('from-env\n');
  });

  it('an unknown key: exit 2 naming the valid ones', async () => {
    const w = world();
    expect(await w.run(get, {}, ['token'])).toBe(2);
    expect(w.stderr.text).toBe(
      'error: unknown config key "token": use one of base_url, workspace, email, output\n',
    );
  });

  it('an invalid saved value: exit 2 naming config.json and the key', async () => {
    const w = world();
    writeConfig(w.ctx, { profiles: { default: { workspace: 'bad slug!' } } });
    const err = await failureOf(w.ctx, get, {}, ['workspace']);
    expect(err?.exit).toBe(2);
    expect(err?.message).toContain('config.json');
    expect(err?.message).toContain('workspace');
    expect(w.ctx.stdout.text).toBe('');
  });
});

describe('config set', () => {
  it('saves the value in the profile and says so on stderr; stdout stays empty', async () => {
    const w = world();
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(set, {}, ['workspace', 'new-ws'])).toBe(0);
    expect(saved(w.ctx).profiles?.default).toStrictEqual({
      ...PROFILES.profiles.default,
      workspace: 'new-ws',
    });
    expect(saved(w.ctx).profiles?.work).toStrictEqual(PROFILES.profiles.work);
    expect(w.stderr.text).toBe('Set workspace to new-ws (profile default)\n');
    expect(w.stdout.text).toBe('');
  });

  it('the default profile is created with the first value; an email is trimmed', async () => {
    const w = world();
    expect(await w.run(set, {}, ['email', '  me@acme.test '])).toBe(0);
    expect(saved(w.ctx).profiles).toStrictEqual({ default: { email: 'me@acme.test' } });
  });

  it('a base URL is normalised as the flag would be', async () => {
    const w = world();
    expect(await w.run(set, {}, ['base_url', 'https://s.example.com/api/v1/'])).toBe(0);
    expect(saved(w.ctx).profiles?.default?.base_url).toBe('https://s.example.com');
  });

  it.each([
    [['workspace', 'bad slug!'], /invalid workspace slug "bad slug!"/],
    [['base_url', 'http://10.0.0.1'], /refusing plain http:\/\/ for 10\.0\.0\.1/],
    [['output', 'sarif'], /^sarif is a report format for findings only; it cannot be the default output$/],
    [['output', 'xml'], /xml/],
    [['colour', 'red'], /^unknown config key "colour"/],
  ])('%j: exit 2, nothing written', async (args, message) => {
    const w = world();
    writeConfig(w.ctx, PROFILES);
    const before = readFileSync(file(w.ctx), 'utf8');
    const err = await failureOf(w.ctx, set, {}, args);
    expect(err?.exit).toBe(2);
    expect(err?.message).toMatch(message);
    expect(readFileSync(file(w.ctx), 'utf8')).toBe(before);
  });

  it('does not create the profile --profile names (only login does): exit 2 naming it', async () => {
    const w = world({ globals: { profile: 'wrok' } });
    writeConfig(w.ctx, PROFILES);
    const err = await failureOf(w.ctx, set, {}, ['workspace', 'x']);
    expect(err?.exit).toBe(2);
    expect(err?.message).toBe('no profile named "wrok" (--profile)');
    expect(Object.keys(saved(w.ctx).profiles ?? {})).toStrictEqual(['default', 'work']);
  });
});

describe('config unset', () => {
  it('removes the key from the profile and says so', async () => {
    const w = world({ globals: { profile: 'work' } });
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(unset, {}, ['output'])).toBe(0);
    expect(saved(w.ctx).profiles?.work).toStrictEqual({ base_url: 'https://w.example.com', workspace: 'ww' });
    expect(saved(w.ctx).profiles?.default).toStrictEqual(PROFILES.profiles.default);
    expect(w.stderr.text).toBe('Unset output (profile work)\n');
    expect(w.stdout.text).toBe('');
  });

  it('an unknown key or a profile that does not exist: exit 2, nothing written', async () => {
    const w = world({ globals: { profile: 'nope' } });
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(unset, {}, ['workspace'])).toBe(2);
    expect(w.stderr.text).toBe('error: no profile named "nope" (--profile)\n');
    const k = world();
    writeConfig(k.ctx, PROFILES);
    expect(await k.run(unset, {}, ['nope'])).toBe(2);
    expect(saved(w.ctx)).toStrictEqual(PROFILES);
    expect(saved(k.ctx)).toStrictEqual(PROFILES);
  });
});

describe('config profiles', () => {
  async function withSessions(w: VerbWorld): Promise<void> {
    writeConfig(w.ctx, PROFILES);
    await w.ctx.seedLogin(
      { access_token: 'secret-access-9999', refresh_token: 'secret-refresh-8888', expires_at: 1 },
      { base_url: 'https://d.example.com', workspace: 'dw', email: 'd@acme.test' },
    );
  }

  it('table: every profile, the active one marked, where its token is kept — no secret', async () => {
    // -o table: the flag wins over the json that profile work saved.
    const w = world({ globals: { profile: 'work' }, output: 'table' });
    await withSessions(w);
    expect(await w.run(profiles, {})).toBe(0);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'ACTIVE  NAME     BASE URL               WORKSPACE  EMAIL        TOKEN',
      '        default  https://d.example.com  dw         d@acme.test  file',
      '*       work     https://w.example.com  ww                      none',
    ]);
    for (const s of ['secret-access-9999', 'secret-refresh-8888']) {
      expect(w.stdout.text).not.toContain(s);
      expect(w.stderr.text).not.toContain(s);
    }
  });

  it('a session in the OS keychain is named as such', async () => {
    const keychain = memoryKeychain();
    const w = world({
      output: 'json',
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    await withSessions(w);
    expect(keychain.entries.has('default')).toBe(true);
    expect(await w.run(profiles, {})).toBe(0);
    expect((JSON.parse(w.stdout.text) as { token_store: string }[]).map((p) => p.token_store)).toStrictEqual([
      'keychain',
      'none',
    ]);
    expect(w.stdout.text).not.toContain('secret-access-9999');
  });

  it('-o json: one object per profile', async () => {
    const w = world({ output: 'json' });
    await withSessions(w);
    expect(await w.run(profiles, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual([
      {
        name: 'default',
        active: true,
        base_url: 'https://d.example.com',
        workspace: 'dw',
        email: 'd@acme.test',
        token_store: 'file',
      },
      {
        name: 'work',
        active: false,
        base_url: 'https://w.example.com',
        workspace: 'ww',
        email: null,
        token_store: 'none',
      },
    ]);
  });

  it('works with a --profile that names no profile (so a typo can be looked up): none is active', async () => {
    const w = world({ globals: { profile: 'wrok' }, output: 'json' });
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(profiles, {})).toBe(0);
    expect((JSON.parse(w.stdout.text) as { active: boolean }[]).map((p) => p.active)).toStrictEqual([
      false,
      false,
    ]);
  });

  it('a default_profile that names no profile: none is active; one that cannot be a name: a warning too', async () => {
    const gone = world({ output: 'json' });
    writeConfig(gone.ctx, { ...PROFILES, default_profile: 'gone' });
    expect(await gone.run(profiles, {})).toBe(0);
    expect((JSON.parse(gone.stdout.text) as { active: boolean }[]).some((p) => p.active)).toBe(false);
    expect(gone.stderr.text).toBe('');
    const bad = world({ output: 'json' });
    writeConfig(bad.ctx, { ...PROFILES, default_profile: '../x' });
    expect(await bad.run(profiles, {})).toBe(0);
    expect(bad.stderr.text).toMatch(/^warning: .*"\.\.\/x"/);
    expect(bad.stderr.text.trimEnd().split('\n')).toHaveLength(1);
    expect((JSON.parse(bad.stdout.text) as { active: boolean }[]).some((p) => p.active)).toBe(false);
  });

  it("the active profile's saved output is the default format", async () => {
    const w = world({ globals: { profile: 'work' } });
    writeConfig(w.ctx, PROFILES);
    expect(await w.run(profiles, {})).toBe(0);
    expect((JSON.parse(w.stdout.text) as { name: string }[]).map((p) => p.name)).toStrictEqual([
      'default',
      'work',
    ]);
  });

  it('no config.json: no profiles, and nothing created', async () => {
    const w = world({ output: 'json' });
    expect(await w.run(profiles, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual([]);
    expect(existsSync(file(w.ctx))).toBe(false);
  });
});

describe('config path', () => {
  it('prints the path of config.json, even when the file is not JSON', async () => {
    const w = world();
    writeConfig(w.ctx, '{oops');
    expect(await w.run(path, {})).toBe(0);
    expect(w.stdout.text).toBe(`${file(w.ctx)}\n`);
    expect(w.stderr.text).toBe('');
  });

  it('in the folder CSSCTL_CONFIG_DIR names, whether the file exists or not; nothing is created', async () => {
    const w = world();
    expect(await w.run(path, {})).toBe(0);
    expect(w.stdout.text).toBe(`${join(w.ctx.env.CSSCTL_CONFIG_DIR!, 'config.json')}\n`);
    expect(readdirSync(w.ctx.configDir)).toStrictEqual([]);
  });
});
