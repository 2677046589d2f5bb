// The auth verbs (login, logout, auth status/token/switch/refresh) through their run functions, with a fake
// context: a scripted service, a fake clock, and the file credential store in the fake's own config folder.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli.js';
import { login } from '../../src/commands/auth/login.js';
import { logout } from '../../src/commands/auth/logout.js';
import { refresh } from '../../src/commands/auth/refresh.js';
import { status } from '../../src/commands/auth/status.js';
import { authSwitch } from '../../src/commands/auth/switch.js';
import { token } from '../../src/commands/auth/token.js';
import { FAKE_BASE_URL, memoryKeychain, type FakeContext } from '../helpers/fake-context.js';
import { bodyOf, failureOf, json, verbWorld, type VerbWorld } from '../helpers/verb.js';

const PASSWORD = 'pw-Secret-123';
const ACCESS = 'ACCESS.token.1111';
const REFRESH = 'REFRESH-token-2222';
const HOUR = 3600_000;

/** stdin as a pipe holding `text`, then its end. */
function pipe(text: string): PassThrough {
  const stdin = new PassThrough();
  stdin.end(text);
  return stdin;
}

const tokenAnswer = (over: Record<string, unknown> = {}) =>
  json({ access_token: ACCESS, refresh_token: REFRESH, token_type: 'bearer', expires_in: 3600, ...over });

/** A world with no CSSCTL_TOKEN: the session comes from the credential store. */
function loggedOut(
  replies: Parameters<typeof verbWorld>[0] = [],
  opts: Parameters<typeof verbWorld>[1] = {},
) {
  return verbWorld(replies, { ...opts, env: { CSSCTL_TOKEN: undefined, ...opts.env } });
}

/** A world whose profile `default` is logged in, its access token expiring in `expiresIn` ms. */
async function loggedIn(
  replies: Parameters<typeof verbWorld>[0] = [],
  opts: Parameters<typeof verbWorld>[1] & { expiresIn?: number } = {},
): Promise<VerbWorld> {
  const { expiresIn = HOUR, ...rest } = opts;
  const w = loggedOut(replies, rest);
  await w.ctx.seedLogin({
    access_token: 'stored-access-3333',
    refresh_token: 'stored-refresh-4444',
    token_type: 'bearer',
    expires_at: w.clock.now() + expiresIn,
  });
  return w;
}

function storedTokens(ctx: FakeContext): Record<string, Record<string, unknown>> {
  const file = join(ctx.configDir, 'credentials.json');
  if (!existsSync(file)) return {};
  return (JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Record<string, unknown>> })
    .profiles;
}

function configJson(ctx: FakeContext): { profiles?: Record<string, unknown>; default_profile?: string } {
  const file = join(ctx.configDir, 'config.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : {};
}

/** Neither stream shows a secret. */
function expectNoSecret(w: VerbWorld, ...secrets: string[]): void {
  for (const s of secrets) {
    expect(w.stdout.text).not.toContain(s);
    expect(w.stderr.text).not.toContain(s);
  }
}

describe('login', () => {
  it('the password on a pipe: POST /auth/login {email, password} without a bearer token; tokens in the file store, never on stdout or stderr', async () => {
    const w = loggedOut([tokenAnswer()], { stdin: pipe(`${PASSWORD}\n`) });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true }), w.stderr.text).toBe(0);

    expect(w.requests()).toStrictEqual(['POST /auth/login']);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ email: 'dev@acme.test', password: PASSWORD });
    const headers = w.sent[0]!.req.headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-tenant-slug']).toBe('acme');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);

    const file = join(w.ctx.configDir, 'credentials.json');
    expect(w.stdout.text).toBe(
      `✓ Logged in to ${FAKE_BASE_URL} as dev@acme.test, workspace acme (profile default); token stored in ${file}\n`,
    );
    expect(w.stderr.text).toBe('');
    expectNoSecret(w, PASSWORD, ACCESS, REFRESH);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(storedTokens(w.ctx)).toStrictEqual({
      default: {
        access_token: ACCESS,
        refresh_token: REFRESH,
        token_type: 'bearer',
        expires_at: w.clock.now() + HOUR,
        base_url: FAKE_BASE_URL,
      },
    });
    // The profile keeps where and who; config.json never holds a secret.
    expect(configJson(w.ctx).profiles).toStrictEqual({
      default: { base_url: FAKE_BASE_URL, workspace: 'acme', email: 'dev@acme.test' },
    });
    const config = readFileSync(join(w.ctx.configDir, 'config.json'), 'utf8');
    for (const s of [PASSWORD, ACCESS, REFRESH]) expect(config).not.toContain(s);
  });

  it('with an OS keychain (CSSCTL_CREDENTIAL_STORE=auto) the session goes there, and no file is written', async () => {
    const keychain = memoryKeychain();
    const w = loggedOut([tokenAnswer()], {
      stdin: pipe(`${PASSWORD}\n`),
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(0);
    expect(w.stdout.text).toMatch(/; token stored in the OS keychain\n$/);
    expect(JSON.parse(keychain.entries.get('default')!)).toMatchObject({ access_token: ACCESS });
    expect(existsSync(join(w.ctx.configDir, 'credentials.json'))).toBe(false);
    expect(w.stderr.text).toBe('');
  });

  it('auto with no keychain: the file, with a warning saying so', async () => {
    const w = loggedOut([tokenAnswer()], {
      stdin: pipe(`${PASSWORD}\n`),
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(0);
    const file = join(w.ctx.configDir, 'credentials.json');
    expect(w.stderr.text).toBe(
      `warning: no OS keychain could be reached; the session is stored in ${file} (mode 0600)\n`,
    );
    expect(storedTokens(w.ctx).default).toMatchObject({ access_token: ACCESS });
  });

  it('-o json: profile, base URL, workspace, email, store and expiry — no token', async () => {
    const w = loggedOut([tokenAnswer()], { stdin: pipe(`${PASSWORD}\n`), output: 'json' });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      profile: 'default',
      base_url: FAKE_BASE_URL,
      workspace: 'acme',
      email: 'dev@acme.test',
      token_store: 'file',
      expires_at: new Date(w.clock.now() + HOUR).toISOString(),
    });
    expectNoSecret(w, PASSWORD, ACCESS, REFRESH);
    // Without a workspace, the hint to set one is for a table only: nothing else on stderr.
    const bare = loggedOut([tokenAnswer()], {
      stdin: pipe(`${PASSWORD}\n`),
      output: 'json',
      env: { CSSCTL_WORKSPACE: undefined },
    });
    expect(await bare.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(0);
    expect(JSON.parse(bare.stdout.text)).toMatchObject({ workspace: null });
    expect(bare.stderr.text).toBe('');
  });

  it('--email wins over the email saved in the profile', async () => {
    const w = await loggedIn([tokenAnswer()], { stdin: pipe(`${PASSWORD}\n`) });
    expect(await w.run(login, { email: 'new@acme.test', passwordStdin: true })).toBe(0);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ email: 'new@acme.test', password: PASSWORD });
    expect(configJson(w.ctx).profiles).toMatchObject({ default: { email: 'new@acme.test' } });
  });

  it('CSSCTL_EMAIL and CSSCTL_PASSWORD log in without a terminal; a CSSCTL_TOKEN still set is a warning', async () => {
    const w = verbWorld([tokenAnswer()], {
      env: { CSSCTL_EMAIL: 'ops@acme.test', CSSCTL_PASSWORD: PASSWORD, CSSCTL_TOKEN: 'env-token-5555' },
    });
    expect(await w.run(login, {})).toBe(0);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ email: 'ops@acme.test', password: PASSWORD });
    expect(w.sent[0]!.req.headers.authorization).toBeUndefined();
    expect(w.stderr.text).toBe(
      'warning: CSSCTL_TOKEN is set: it takes precedence over this login until you unset it\n',
    );
    expectNoSecret(w, PASSWORD, ACCESS, REFRESH, 'env-token-5555');
  });

  it('--profile work creates that profile; without a workspace a hint says how to set one', async () => {
    const w = loggedOut([tokenAnswer()], {
      globals: { profile: 'work' },
      env: { CSSCTL_WORKSPACE: undefined, CSSCTL_PASSWORD: PASSWORD },
    });
    expect(await w.run(login, { email: 'dev@acme.test' })).toBe(0);
    // No workspace: no X-Tenant-Slug is sent with the login.
    expect(w.sent[0]!.req.headers['x-tenant-slug']).toBeUndefined();
    expect(w.stdout.text).toMatch(/^✓ Logged in to \S+ as dev@acme\.test \(profile work\); token stored in /);
    expect(w.stderr.text).toBe('No workspace set yet: run cssctl config set workspace <slug>\n');
    expect(Object.keys(storedTokens(w.ctx))).toStrictEqual(['work']);
    expect(configJson(w.ctx).profiles).toStrictEqual({
      work: { base_url: FAKE_BASE_URL, email: 'dev@acme.test' },
    });
  });

  it.each([
    [
      'no password source and no terminal',
      { email: 'dev@acme.test' },
      {},
      'no password given and no terminal to ask on',
      'use --password-stdin or set CSSCTL_PASSWORD',
    ],
    [
      'no email and no terminal',
      { passwordStdin: true },
      {},
      'an email address is required and there is no terminal to ask on',
      'pass --email <address> or set CSSCTL_EMAIL',
    ],
    [
      'no service address and no terminal',
      { email: 'dev@acme.test', passwordStdin: true },
      { CSSCTL_BASE_URL: undefined },
      'a service address is required and there is no terminal to ask on',
      'pass --base-url <url> or set CSSCTL_BASE_URL',
    ],
    ['an email that is not one', { email: 'not-an-email', passwordStdin: true }, {}, /email/, undefined],
  ])('%s: exit 2 before any request, saying what to do', async (_, opts, env, message, hint) => {
    const w = loggedOut([], { stdin: pipe(`${PASSWORD}\n`), env });
    const err = await failureOf(w.ctx, login, opts);
    expect(err?.exit).toBe(2);
    if (typeof message === 'string') expect(err?.message).toBe(message);
    else expect(err?.message).toMatch(message);
    if (hint) expect(err?.hint).toBe(hint);
    expect(w.sent).toHaveLength(0);
    expect(storedTokens(w.ctx)).toStrictEqual({});
  });

  it('an empty pipe is no password: exit 2 before any request', async () => {
    const w = loggedOut([], { stdin: pipe('') });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(2);
    expect(w.sent).toHaveLength(0);
  });

  it('refused (401): exit 3, nothing stored, no profile written', async () => {
    const w = loggedOut([json({ detail: 'invalid email or password', code: 'invalid_credentials' }, 401)], {
      stdin: pipe(`${PASSWORD}\n`),
    });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(3);
    expect(w.stderr.text).toContain('invalid email or password');
    expect(w.stdout.text).toBe('');
    expect(storedTokens(w.ctx)).toStrictEqual({});
    expect(configJson(w.ctx)).toStrictEqual({});
    expectNoSecret(w, PASSWORD);
  });

  it('a service that echoes the password in its error: the error line (as the CLI prints it) never shows it', async () => {
    const w = loggedOut([json({ detail: `password ${PASSWORD} is wrong` }, 401)], {
      stdin: pipe(`${PASSWORD}\n`),
    });
    const err = await failureOf(w.ctx, login, { email: 'dev@acme.test', passwordStdin: true });
    expect(err?.exit).toBe(3);
    reportError(w.ctx.io, err, false);
    expect(w.ctx.stderr.text).toMatch(/^error: password \[REDACTED\] is wrong/);
    expectNoSecret(w, PASSWORD);
  });

  it('an answer without an access token is an error, never a stored session', async () => {
    const w = loggedOut([json({ token_type: 'bearer' })], { stdin: pipe(`${PASSWORD}\n`) });
    expect(await w.run(login, { email: 'dev@acme.test', passwordStdin: true })).toBe(1);
    expect(storedTokens(w.ctx)).toStrictEqual({});
  });
});

describe('logout', () => {
  it("removes the profile's tokens from the file store and says so; no request", async () => {
    const w = await loggedIn();
    expect(await w.run(logout, {})).toBe(0);
    expect(w.stdout.text).toBe('✓ Logged out of profile default (removed from file)\n');
    expect(storedTokens(w.ctx)).toStrictEqual({});
    // The profile's settings stay: only the session goes.
    expect(configJson(w.ctx).profiles).toHaveProperty('default');
    expect(w.sent).toHaveLength(0);
  });

  it('removes the tokens from the keychain and from the file', async () => {
    const keychain = memoryKeychain();
    const w = await loggedIn([], {
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    // A copy left in the file by an earlier login without a keychain goes too.
    await w.ctx.credentials().file.set('default', { access_token: 'old-file-token', expires_at: 1 });
    expect(keychain.entries.has('default')).toBe(true);
    expect(await w.run(logout, {})).toBe(0);
    expect(w.stdout.text).toBe('✓ Logged out of profile default (removed from keychain and file)\n');
    expect(keychain.entries.size).toBe(0);
    expect(storedTokens(w.ctx)).toStrictEqual({});
  });

  it('a keychain that is locked: exit 1 saying what could not be removed, and that the file copy went', async () => {
    const w = loggedOut([], {
      connectKeychain: memoryKeychain({ failWith: 'the keyring is locked' }).connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    await w.ctx.credentials().file.set('default', { access_token: 'old-file-token', expires_at: 1 });
    const err = await failureOf(w.ctx, logout, {});
    expect(err?.exit).toBe(1);
    expect(err?.message).toBe(
      'could not remove the tokens of profile default from the OS keychain: keychain delete failed: the keyring is locked; removed the copy in file',
    );
    expect(storedTokens(w.ctx)).toStrictEqual({});
    expect(w.ctx.stdout.text).toBe('');
  });

  it('-o json: the profile and the stores it was removed from', async () => {
    const w = await loggedIn([], { output: 'json' });
    expect(await w.run(logout, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({ profile: 'default', removed_from: ['file'] });
  });

  it('idempotent: not logged in is exit 0, nothing to remove', async () => {
    const w = loggedOut();
    expect(await w.run(logout, {})).toBe(0);
    expect(await w.run(logout, {})).toBe(0);
    expect(w.stdout.text).toBe('Not logged in (profile default); nothing to remove\n'.repeat(2));
  });

  it('a --profile that names nothing anywhere is a typo: exit 2 naming it', async () => {
    const w = loggedOut([], { globals: { profile: 'wrok' } });
    const err = await failureOf(w.ctx, logout, {});
    expect(err?.exit).toBe(2);
    expect(err?.message).toBe('no profile named "wrok" (--profile)');
  });

  it('CSSCTL_TOKEN still set: a warning that it will still be used', async () => {
    const w = await loggedIn([], { env: { CSSCTL_TOKEN: 'env-token-5555' } });
    expect(await w.run(logout, {})).toBe(0);
    expect(w.stderr.text).toBe(
      'warning: CSSCTL_TOKEN is still set in the environment and will still be used\n',
    );
    expectNoSecret(w, 'env-token-5555');
  });
});

describe('auth status', () => {
  it('table: profile, base URL, workspace, email, token source and expiry; offline', async () => {
    const w = await loggedIn([], { expiresIn: 3 * HOUR });
    expect(await w.run(status, {})).toBe(0);
    expect(w.stdout.text.trimEnd().split('\n')).toStrictEqual([
      'PROFILE        default',
      `BASE URL       ${FAKE_BASE_URL}`,
      'WORKSPACE      acme',
      'EMAIL          dev@acme.test',
      'TOKEN SOURCE   file',
      'TOKEN EXPIRES  in 3h (2026-11-22 15:00)',
    ]);
    expect(w.sent).toHaveLength(0);
    expectNoSecret(w, 'stored-access-3333', 'stored-refresh-4444');
  });

  it('-o json: the facts, no token', async () => {
    const w = await loggedIn([], { output: 'json', expiresIn: -5 * 60_000 });
    expect(await w.run(status, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      profile: 'default',
      base_url: FAKE_BASE_URL,
      workspace: 'acme',
      email: 'dev@acme.test',
      token_source: 'file',
      expires_at: '2026-11-22T11:55:00.000Z',
      expired: true,
      refreshable: true,
    });
    expectNoSecret(w, 'stored-access-3333', 'stored-refresh-4444');
  });

  it('a session in the OS keychain: the source says keychain', async () => {
    const keychain = memoryKeychain();
    const w = await loggedIn([], {
      output: 'json',
      connectKeychain: keychain.connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await w.run(status, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toMatchObject({ token_source: 'keychain', refreshable: true });
  });

  it('a keychain that is locked is said to be, never "not logged in"', async () => {
    const w = loggedOut([], {
      connectKeychain: memoryKeychain({ failWith: 'the keyring is locked' }).connect,
      env: { CSSCTL_CREDENTIAL_STORE: 'auto' },
    });
    expect(await w.run(status, {})).toBe(1);
    expect(w.stderr.text).toBe('error: keychain read failed: the keyring is locked\n');
  });

  it('an expired token that can be refreshed: said so, and that it is renewed on the next command', async () => {
    const w = await loggedIn([], { expiresIn: -5 * 60_000 });
    expect(await w.run(status, {})).toBe(0);
    expect(w.stdout.text).toContain(
      'TOKEN EXPIRES  expired 5m ago (2026-11-22 11:55); renewed on the next command',
    );
  });

  it("CSSCTL_TOKEN: the source is env, no email (the profile's is not who the token is), not refreshable", async () => {
    const w = verbWorld([], { output: 'json' });
    await w.ctx.seedLogin({ access_token: 'stored-access-3333', expires_at: w.clock.now() + HOUR });
    expect(await w.run(status, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toMatchObject({
      token_source: 'env',
      email: null,
      refreshable: false,
      expires_at: null,
    });
    const t = verbWorld([]);
    expect(await t.run(status, {})).toBe(0);
    expect(t.stdout.text).toContain('TOKEN SOURCE   env (CSSCTL_TOKEN)');
    expectNoSecret(t, 'test-token');
  });

  it('not logged in: exit 3 with a hint to log in, no request', async () => {
    const w = loggedOut();
    const err = await failureOf(w.ctx, status, {});
    expect(err?.exit).toBe(3);
    expect(err?.message).toBe('not logged in (profile default)');
    expect(err?.hint).toBe('run cssctl login');
    expect(w.ctx.stdout.text).toBe('');
    expect(w.sent).toHaveLength(0);
  });

  it('a session of another service than the base URL given: exit 3 naming both', async () => {
    const w = await loggedIn([], { env: { CSSCTL_BASE_URL: 'http://127.0.0.2:1' } });
    const err = await failureOf(w.ctx, status, {});
    expect(err?.exit).toBe(3);
    expect(err?.message).toBe(
      `not logged in to http://127.0.0.2:1 (profile "default" is logged in to ${FAKE_BASE_URL})`,
    );
  });
});

describe('auth token', () => {
  it('a stored token that is still good: printed alone on stdout, nothing sent', async () => {
    const w = await loggedIn();
    expect(await w.run(token, {})).toBe(0);
    expect(w.stdout.text).toBe('stored-access-3333\n');
    expect(w.stderr.text).toBe('');
    expect(w.sent).toHaveLength(0);
  });

  it('CSSCTL_TOKEN is printed as it is', async () => {
    const w = verbWorld([]);
    expect(await w.run(token, {})).toBe(0);
    expect(w.stdout.text).toBe('test-token\n');
  });

  it('a token that expires within 60 s is refreshed first: POST /auth/refresh, the new one printed and stored', async () => {
    const w = await loggedIn([tokenAnswer({ refresh_token: undefined })], { expiresIn: 30_000 });
    expect(await w.run(token, {})).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /auth/refresh']);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ refresh_token: 'stored-refresh-4444' });
    expect(w.sent[0]!.req.headers.authorization).toBeUndefined();
    expect(w.stdout.text).toBe(`${ACCESS}\n`);
    // An answer without refresh_token keeps the old one.
    expect(storedTokens(w.ctx).default).toMatchObject({
      access_token: ACCESS,
      refresh_token: 'stored-refresh-4444',
      expires_at: w.clock.now() + HOUR,
    });
  });

  it('a refresh the service refuses: exit 3 "session expired", nothing on stdout', async () => {
    const w = await loggedIn([json({ detail: 'refresh token revoked' }, 401)], { expiresIn: 30_000 });
    const err = await failureOf(w.ctx, token, {});
    expect(err?.exit).toBe(3);
    expect(err?.message).toBe('session expired, run cssctl login');
    expect(w.ctx.stdout.text).toBe('');
  });

  it('not logged in: exit 3, no request', async () => {
    const w = loggedOut();
    expect(await w.run(token, {})).toBe(3);
    expect(w.stderr.text).toBe('error: not logged in (profile "default")\n');
    expect(w.sent).toHaveLength(0);
  });
});

describe('auth refresh', () => {
  it('refreshes a token that is still good, stores the new one and says when it expires', async () => {
    const w = await loggedIn([tokenAnswer({ expires_in: 7200 })]);
    expect(await w.run(refresh, {})).toBe(0);
    expect(w.requests()).toStrictEqual(['POST /auth/refresh']);
    expect(bodyOf(w.sent[0]!)).toStrictEqual({ refresh_token: 'stored-refresh-4444' });
    expect(w.stdout.text).toBe(
      '✓ Refreshed the session of profile default; the access token expires at 2026-11-22T14:00:00.000Z\n',
    );
    expect(storedTokens(w.ctx).default).toMatchObject({ access_token: ACCESS, refresh_token: REFRESH });
    expectNoSecret(w, ACCESS, REFRESH, 'stored-refresh-4444');
  });

  it('-o json: profile, token source, expiry', async () => {
    const w = await loggedIn([tokenAnswer()], { output: 'json' });
    expect(await w.run(refresh, {})).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({
      profile: 'default',
      token_source: 'file',
      expires_at: '2026-11-22T13:00:00.000Z',
    });
  });

  it('CSSCTL_TOKEN cannot be refreshed: exit 1 before any request', async () => {
    const w = verbWorld([]);
    expect(await w.run(refresh, {})).toBe(1);
    expect(w.stderr.text).toBe('error: CSSCTL_TOKEN is set: it is used as it is and cannot be refreshed\n');
    expect(w.sent).toHaveLength(0);
  });

  it('refused: exit 3, the stored tokens left as they were', async () => {
    const w = await loggedIn([json({ detail: 'expired' }, 401)]);
    const before = storedTokens(w.ctx);
    expect(await w.run(refresh, {})).toBe(3);
    expect(storedTokens(w.ctx)).toStrictEqual(before);
  });

  it('not logged in: exit 3', async () => {
    const w = loggedOut();
    expect(await w.run(refresh, {})).toBe(3);
    expect(w.sent).toHaveLength(0);
  });
});

describe('auth switch', () => {
  async function withProfiles(opts: Parameters<typeof verbWorld>[1] = {}): Promise<VerbWorld> {
    const w = loggedOut([], opts);
    const store = await w.ctx.config();
    await store.update('default', { workspace: 'dw' });
    await store.update('work', { workspace: 'ww' });
    return w;
  }

  it('makes a profile the default of config.json', async () => {
    const w = await withProfiles();
    expect(await w.run(authSwitch, {}, ['work'])).toBe(0);
    expect(configJson(w.ctx).default_profile).toBe('work');
    expect(w.stdout.text).toBe('✓ Profile work is now the default\n');
    expect(w.stderr.text).toBe('');
  });

  it('-o json: the new default', async () => {
    const w = await withProfiles({ output: 'json' });
    expect(await w.run(authSwitch, {}, ['work'])).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual({ default_profile: 'work' });
  });

  it('a profile that does not exist: exit 2 naming config.json, nothing written', async () => {
    const w = await withProfiles();
    const before = readFileSync(join(w.ctx.configDir, 'config.json'), 'utf8');
    const err = await failureOf(w.ctx, authSwitch, {}, ['nope']);
    expect(err?.exit).toBe(2);
    expect(err?.message).toBe(`no profile named "nope" in ${join(w.ctx.configDir, 'config.json')}`);
    expect(err?.hint).toContain('cssctl login --profile nope creates it');
    expect(readFileSync(join(w.ctx.configDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a name that cannot be a profile: exit 2 saying what a name may hold', async () => {
    const w = await withProfiles();
    expect(await w.run(authSwitch, {}, ['../etc'])).toBe(2);
    expect(w.stderr.text).toBe(
      `error: invalid profile name "../etc": use letters, digits, '.', '_' or '-'\n`,
    );
    expect(configJson(w.ctx).default_profile).toBeUndefined();
  });

  it('`default` always exists: switching back to it works', async () => {
    const w = loggedOut();
    expect(await w.run(authSwitch, {}, ['default'])).toBe(0);
    expect(configJson(w.ctx).default_profile).toBe('default');
  });

  it('--profile or CSSCTL_PROFILE still win: a warning says so', async () => {
    const flag = await withProfiles({ globals: { profile: 'default' } });
    expect(await flag.run(authSwitch, {}, ['work'])).toBe(0);
    expect(flag.stderr.text).toBe('warning: --profile default is given: this command line still uses it\n');
    const env = await withProfiles({ env: { CSSCTL_PROFILE: 'default' } });
    expect(await env.run(authSwitch, {}, ['work'])).toBe(0);
    expect(env.stderr.text).toBe(
      'warning: CSSCTL_PROFILE=default is set: it still wins until you unset it\n',
    );
  });
});
