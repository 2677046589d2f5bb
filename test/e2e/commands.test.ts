import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World, errorLine, lines, received, type CliResult } from './harness.js';

let w: World;
/** An owner token for each workspace, for talking to the sandbox directly (setup and look-ups). */
let acmeToken: string;
let globexToken: string;

const BULK = 120;
const ESC = '\u001b[';

/** A request straight to the sandbox, bypassing cssctl. */
async function direct(
  method: string,
  path: string,
  opts: { token: string; workspace: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${w.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${opts.token}`,
      'x-tenant-slug': opts.workspace,
      accept: 'application/json',
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The number of connections acme has right now, as the service counts them. */
async function acmeConnectionTotal(): Promise<number> {
  const res = await direct('GET', '/connections?limit=1', { token: acmeToken, workspace: 'acme' });
  return res.body.total as number;
}

function noStack(res: CliResult): void {
  expect(res.stderr).not.toMatch(/^\s+at /m);
}

beforeAll(async () => {
  // The bulk set-up and the paging tests make a few hundred requests: lift the per-minute limit.
  w = await World.start({ rateLimit: 100_000 });
  await w.login('acme');
  acmeToken = await w.sandbox.issueAccessToken(w.cred('acme').email, 3600);
  globexToken = await w.sandbox.issueAccessToken(w.cred('globex').email, 3600);
  for (let start = 0; start < BULK; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, BULK - start) }, (_, i) =>
        direct('POST', '/connections', {
          token: acmeToken,
          workspace: 'acme',
          body: { alias: `bulk-${String(start + i).padStart(3, '0')}`, provider: 'aws' },
        }).then((r) => {
          if (r.status !== 201)
            throw new Error(`set-up create failed: ${r.status} ${JSON.stringify(r.body)}`);
        }),
      ),
    );
  }
});
afterAll(() => w.close());

describe('connections list', () => {
  it('prints a table with an ALIAS / PROVIDER header and one row per connection', async () => {
    const res = await w.run(['connections', 'list', '--limit', '4']);
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out[0]).toMatch(/^ALIAS\s+PROVIDER\b/);
    expect(out).toHaveLength(5);
    expect(out[1]).toMatch(/^prod\s+aws\b/);
    expect(out[2]).toMatch(/^staging\s+gcp\b/);
    expect(res.stdout).not.toContain(ESC);
  });

  it('--json is an array of items, the same shape with or without --all', async () => {
    const total = await acmeConnectionTotal();
    const page = await w.run(['connections', 'list', '--json']);
    expect(page.code).toBe(0);
    const items = JSON.parse(page.stdout) as Record<string, unknown>[];
    expect(Array.isArray(items)).toBe(true);
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ alias: 'prod', provider: 'aws' });

    const all = await w.run(['connections', 'list', '--json', '--all']);
    expect(all.code).toBe(0);
    const allItems = JSON.parse(all.stdout) as Record<string, unknown>[];
    expect(Array.isArray(allItems)).toBe(true);
    expect(allItems).toHaveLength(total);
    expect(Object.keys(allItems[0]!).sort()).toEqual(Object.keys(items[0]!).sort());
    expect(allItems[0]).toEqual(items[0]);
  });

  it('-o ndjson prints one JSON object per line', async () => {
    const res = await w.run(['connections', 'list', '-o', 'ndjson', '--limit', '5']);
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out).toHaveLength(5);
    for (const line of out) {
      const obj = JSON.parse(line) as unknown;
      expect(obj).toBeTypeOf('object');
      expect(Array.isArray(obj)).toBe(false);
      expect(obj).toHaveProperty('alias');
    }
    expect(JSON.parse(out[0]!)).toMatchObject({ alias: 'prod', provider: 'aws' });
  });

  it('-o csv prints a header row and one parseable row per item', async () => {
    const res = await w.run(['connections', 'list', '-o', 'csv', '--limit', '3']);
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out).toHaveLength(4);
    const header = out[0]!.split(',');
    expect(header.slice(0, 2)).toEqual(['alias', 'provider']);
    const rows = out.slice(1).map((l) => l.split(','));
    for (const row of rows) expect(row).toHaveLength(header.length);
    const byHeader = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(byHeader.map((r) => r.alias)).toEqual(['prod', 'staging', 'dev']);
    expect(byHeader.map((r) => r.provider)).toEqual(['aws', 'gcp', 'azure']);
  });

  it('--limit 2 shows two rows and a stderr hint (table only, not with --json, not with -q)', async () => {
    const total = await acmeConnectionTotal();
    const res = await w.run(['connections', 'list', '--limit', '2']);
    expect(res.code).toBe(0);
    expect(lines(res.stdout)).toHaveLength(3); // header + 2
    expect(res.stderr).toContain(`Showing 1–2 of ${total} — use --all or --offset 2`);
    expect(res.stdout).not.toContain('Showing');

    const json = await w.run(['connections', 'list', '--limit', '2', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(2);
    expect(json.stderr).not.toContain('Showing');

    const csv = await w.run(['connections', 'list', '--limit', '2', '-o', 'csv']);
    expect(lines(csv.stdout)).toHaveLength(3);
    expect(csv.stderr).not.toContain('Showing');

    const quiet = await w.run(['connections', 'list', '--limit', '2', '-q']);
    expect(quiet.code).toBe(0);
    expect(lines(quiet.stdout)).toHaveLength(3);
    expect(quiet.stderr).toBe('');
  });

  it('--offset starts further on, and the hint counts from there', async () => {
    const total = await acmeConnectionTotal();
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list', '--offset', '2', '--limit', '2', '--json']);
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { alias: string }[]).map((c) => c.alias)).toEqual([
      'dev',
      'legacy-fail',
    ]);
    const [req] = received(w.sandbox, '/connections', 'GET');
    expect(req?.query).toMatchObject({ offset: '2', limit: '2' });

    const table = await w.run(['connections', 'list', '--offset', '2', '--limit', '2']);
    expect(table.stderr).toContain(`Showing 3–4 of ${total} — use --all or --offset 4`);
  });

  it('--all returns every connection, each once', async () => {
    const total = await acmeConnectionTotal();
    expect(total).toBeGreaterThanOrEqual(BULK + 4);
    const res = await w.run(['connections', 'list', '--all', '-o', 'ndjson']);
    expect(res.code).toBe(0);
    const aliases = lines(res.stdout).map((l) => (JSON.parse(l) as { alias: string }).alias);
    expect(aliases).toHaveLength(total);
    expect(new Set(aliases).size).toBe(total);
    for (let i = 0; i < BULK; i++) expect(aliases).toContain(`bulk-${String(i).padStart(3, '0')}`);
    // --all prints no "use --all" hint.
    expect(res.stderr).not.toContain('Showing');
  });

  it('--all --limit 7 pages by 7', async () => {
    const total = await acmeConnectionTotal();
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list', '--all', '--limit', '7', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(total);
    const reqs = received(w.sandbox, '/connections', 'GET');
    expect(reqs).toHaveLength(Math.ceil(total / 7));
    reqs.forEach((r, i) => {
      expect(r.query.limit).toBe('7');
      expect(Number(r.query.offset ?? '0')).toBe(i * 7);
    });
  });

  it('-o sarif on connections is a usage error (exit 2) found before any request', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list', '-o', 'sarif']);
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(/sarif/);
    expect(res.stdout).toBe('');
    // Exit 2 is "found before any request" (cli-contract.md §4).
    expect(received(w.sandbox, '/connections')).toHaveLength(0);
  });
});

describe('connections create', () => {
  it('prints the created object (json)', async () => {
    const res = await w.run([
      'connections',
      'create',
      '--alias',
      'made-by-cli',
      '--provider',
      'gcp',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const created = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(created).toMatchObject({ alias: 'made-by-cli', provider: 'gcp' });
    expect(created.id).toEqual(expect.any(String));
    const list = JSON.parse((await w.run(['connections', 'list', '--all', '--json'])).stdout) as {
      alias: string;
    }[];
    expect(list.map((c) => c.alias)).toContain('made-by-cli');
  });

  it('--set key=value sends strings (leading zeros kept) and key:=json sends typed values', async () => {
    w.sandbox.clearRequests();
    const ok = await w.run([
      'connections',
      'create',
      '--alias',
      'with-region',
      '--provider',
      'aws',
      '--set',
      'region=eu-west-1',
      '--set',
      'account=012345',
      '--json',
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      alias: 'with-region',
      region: 'eu-west-1',
      account: '012345',
    });
    const [post] = received(w.sandbox, '/connections', 'POST');
    expect(JSON.parse(post!.body)).toEqual({
      alias: 'with-region',
      provider: 'aws',
      region: 'eu-west-1',
      account: '012345',
    });

    w.sandbox.clearRequests();
    await w.run([
      'connections',
      'create',
      '--alias',
      'with-tags',
      '--provider',
      'aws',
      '--set',
      'region=eu-west-1',
      '--set',
      'tags:=["a"]',
      '--set',
      'weight:=3',
    ]);
    const [typed] = received(w.sandbox, '/connections', 'POST');
    expect(typed).toBeDefined();
    const body = JSON.parse(typed!.body) as Record<string, unknown>;
    expect(body).toEqual({
      alias: 'with-tags',
      provider: 'aws',
      region: 'eu-west-1',
      tags: ['a'],
      weight: 3,
    });
  });

  it('a duplicate alias is exit 6 with the service detail on one stderr line naming HTTP 409', async () => {
    const res = await w.run(['connections', 'create', '--alias', 'prod', '--provider', 'aws']);
    expect(res.code).toBe(6);
    const line = errorLine(res);
    expect(line).toContain('connection alias "prod" already exists');
    expect(line).toContain('HTTP 409');
    expect(res.stdout).toBe('');
  });

  it('-o sarif on create is exit 2 and creates nothing', async () => {
    w.sandbox.clearRequests();
    const res = await w.run([
      'connections',
      'create',
      '--alias',
      'sarif-made',
      '--provider',
      'aws',
      '-o',
      'sarif',
    ]);
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(/sarif/);
    // A usage error must not leave a connection behind.
    expect(received(w.sandbox, '/connections', 'POST')).toHaveLength(0);
    const list = JSON.parse((await w.run(['connections', 'list', '--all', '--json'])).stdout) as {
      alias: string;
    }[];
    expect(list.map((c) => c.alias)).not.toContain('sarif-made');
  });

  it('a missing --alias is exit 2 with no request', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'create', '--provider', 'aws']);
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(/--alias/);
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it.each([['novalue'], ['=x'], ['tags:=[not json'], ['alias=sneaky']])(
    'a bad --set %s is exit 2 with no request',
    async (set) => {
      w.sandbox.clearRequests();
      const res = await w.run([
        'connections',
        'create',
        '--alias',
        'bad-set',
        '--provider',
        'aws',
        '--set',
        set,
      ]);
      expect(res.code).toBe(2);
      expect(errorLine(res)).toMatch(/--set|--alias/);
      noStack(res);
      expect(w.sandbox.requests).toHaveLength(0);
    },
  );

  it('a read-only member is exit 4', async () => {
    const env = { CSSCTL_PROFILE: 'reader' };
    await w.login('acme', 'read_only', [], { env });
    const res = await w.run(['connections', 'create', '--alias', 'reader-made', '--provider', 'aws'], {
      env,
    });
    expect(res.code).toBe(4);
    expect(errorLine(res)).toContain('HTTP 403');
    // Reading is still allowed.
    expect((await w.run(['connections', 'list', '--json'], { env })).code).toBe(0);
  });

  it('a 422 from the service (invalid alias) is exit 7 naming the field', async () => {
    const res = await w.run(['connections', 'create', '--alias', 'bad alias!', '--provider', 'aws']);
    expect(res.code).toBe(7);
    const line = errorLine(res);
    expect(line).toContain('HTTP 422');
    expect(line).toMatch(/field alias|alias:/);
    expect(line).toContain('alias must be');
  });
});

describe('global options and precedence', () => {
  it('global options work before or after the command', async () => {
    const before = await w.run(['--json', 'connections', 'list', '--limit', '3']);
    const after = await w.run(['connections', 'list', '--limit', '3', '--json']);
    expect(before.code).toBe(0);
    expect(after.code).toBe(0);
    expect(JSON.parse(before.stdout)).toHaveLength(3);
    expect(before.stdout).toBe(after.stdout);

    // globex through CSSCTL_TOKEN, chosen with -w before and after the command.
    const env = { CSSCTL_TOKEN: globexToken };
    const wBefore = await w.run(['-w', 'globex', 'connections', 'list', '--json'], { env });
    const wAfter = await w.run(['connections', 'list', '--json', '-w', 'globex'], { env });
    for (const res of [wBefore, wAfter]) {
      expect(res.code, res.stderr).toBe(0);
      const aliases = (JSON.parse(res.stdout) as { alias: string }[]).map((c) => c.alias);
      expect(aliases).toContain('analytics');
      expect(aliases).not.toContain('bulk-000');
    }
  });

  it('workspace: flag > CSSCTL_WORKSPACE > profile, seen in X-Tenant-Slug', async () => {
    const slugSent = async (args: string[], env: Record<string, string> = {}) => {
      w.sandbox.clearRequests();
      await w.run(['connections', 'list', '--limit', '1', ...args], { env });
      const reqs = received(w.sandbox, '/connections', 'GET');
      expect(reqs).toHaveLength(1);
      return reqs[0]!.headers['x-tenant-slug'];
    };
    expect(await slugSent([])).toBe('acme');
    expect(await slugSent([], { CSSCTL_WORKSPACE: 'globex' })).toBe('globex');
    expect(await slugSent(['-w', 'initech'], { CSSCTL_WORKSPACE: 'globex' })).toBe('initech');
    expect(await slugSent(['--workspace', 'initech'])).toBe('initech');
  });

  it('base URL: flag > CSSCTL_BASE_URL > profile', async () => {
    const closed = 'http://127.0.0.1:9';
    const envOnly = await w.run(['connections', 'list', '--limit', '1'], {
      env: { CSSCTL_BASE_URL: closed },
    });
    // The env beats the profile: the profile's tokens belong to w.url, so there is no session at :9.
    expect(envOnly.code).toBe(3);
    expect(envOnly.stderr).toMatch(/not logged in to http:\/\/127\.0\.0\.1:9/);
    const flag = await w.run(['connections', 'list', '--limit', '1', '--base-url', w.url], {
      env: { CSSCTL_BASE_URL: closed },
    });
    expect(flag.code, flag.stderr).toBe(0);
  });

  it("another workspace's resource is exit 5", async () => {
    const scans = await direct('GET', '/scans', { token: globexToken, workspace: 'globex' });
    const globexScan = (scans.body.scans as { scan_id: string }[])[0]!.scan_id;
    expect(globexScan).toBeTruthy();
    // The same scan is readable from globex…
    const mine = await w.run(['api', `/scans/${globexScan}`], {
      env: { CSSCTL_TOKEN: globexToken, CSSCTL_WORKSPACE: 'globex' },
    });
    expect(mine.code, mine.stderr).toBe(0);
    // …and not found from acme.
    const res = await w.run(['api', `/scans/${globexScan}`]);
    expect(res.code).toBe(5);
    expect(errorLine(res)).toContain('HTTP 404');
  });

  it('no workspace at all is exit 2 before any request', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['connections', 'list'], {
      env: { CSSCTL_PROFILE: 'no-workspace', CSSCTL_BASE_URL: w.url, CSSCTL_TOKEN: acmeToken },
    });
    expect(res.code).toBe(2);
    expect(errorLine(res)).toMatch(/workspace/);
    expect(w.sandbox.requests).toHaveLength(0);
  });
});

describe('api', () => {
  it('GET prints the JSON answer', async () => {
    const res = await w.run(['api', '/connections?limit=2']);
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout) as { total: number; connections: { alias: string }[] };
    expect(body.total).toBe(await acmeConnectionTotal());
    expect(body.connections.map((c) => c.alias)).toEqual(['prod', 'staging']);
  });

  it('-X POST -f alias=x -f provider=aws /connections creates', async () => {
    w.sandbox.clearRequests();
    const res = await w.run([
      'api',
      '-X',
      'POST',
      '-f',
      'alias=api-made',
      '-f',
      'provider=aws',
      '/connections',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ alias: 'api-made', provider: 'aws' });
    const [post] = received(w.sandbox, '/connections', 'POST');
    expect(JSON.parse(post!.body)).toEqual({ alias: 'api-made', provider: 'aws' });
    expect(post!.headers['content-type']).toBe('application/json');
  });

  it('--input file.json and --input - (stdin) send the body', async () => {
    const file = join(w.dir, 'conn.json');
    writeFileSync(file, JSON.stringify({ alias: 'from-file', provider: 'azure' }));
    const fromFile = await w.run(['api', '-X', 'POST', '/connections', '--input', file]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ alias: 'from-file', provider: 'azure' });

    w.sandbox.clearRequests();
    const fromStdin = await w.run(['api', '-X', 'POST', '/connections', '--input', '-'], {
      input: '{"alias": "from-stdin", "provider": "gcp"}',
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ alias: 'from-stdin', provider: 'gcp' });
    const [post] = received(w.sandbox, '/connections', 'POST');
    expect(JSON.parse(post!.body)).toEqual({ alias: 'from-stdin', provider: 'gcp' });
  });

  it('invalid JSON input is exit 2 with no request', async () => {
    const file = join(w.dir, 'broken.json');
    writeFileSync(file, '{"alias": "x",');
    w.sandbox.clearRequests();
    const fromFile = await w.run(['api', '-X', 'POST', '/connections', '--input', file]);
    expect(fromFile.code).toBe(2);
    expect(errorLine(fromFile)).toMatch(/JSON/);
    const fromStdin = await w.run(['api', '-X', 'POST', '/connections', '--input', '-'], {
      input: 'not json',
    });
    expect(fromStdin.code).toBe(2);
    expect(errorLine(fromStdin)).toMatch(/JSON/);
    const missing = await w.run(['api', '-X', 'POST', '/connections', '--input', join(w.dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(w.sandbox.requests).toHaveLength(0);
  });

  it('--paginate returns one array whose length is the total', async () => {
    const first = await direct('GET', '/findings?severity=high&limit=1', {
      token: acmeToken,
      workspace: 'acme',
    });
    const total = first.body.total as number;
    expect(total).toBeGreaterThan(100); // more than one page
    w.sandbox.clearRequests();
    const res = await w.run(['api', '--paginate', '/findings?severity=high']);
    expect(res.code, res.stderr).toBe(0);
    const items = JSON.parse(res.stdout) as { id: string; severity: string }[];
    expect(Array.isArray(items)).toBe(true);
    expect(items).toHaveLength(total);
    expect(new Set(items.map((f) => f.id)).size).toBe(total);
    expect(items.every((f) => f.severity === 'high')).toBe(true);
    const reqs = received(w.sandbox, '/findings', 'GET');
    expect(reqs.length).toBeGreaterThan(1);
    expect(reqs.every((r) => r.query.severity === 'high')).toBe(true);
  });

  it('a path starting /api/v1 is accepted and not doubled', async () => {
    w.sandbox.clearRequests();
    const res = await w.run(['api', '/api/v1/connections?limit=1']);
    expect(res.code, res.stderr).toBe(0);
    expect((JSON.parse(res.stdout) as { connections: unknown[] }).connections).toHaveLength(1);
    expect(w.sandbox.requests.map((r) => r.path)).toEqual(['/api/v1/connections']);
  });

  it('an unknown path is exit 5', async () => {
    const res = await w.run(['api', '/no-such-thing']);
    expect(res.code).toBe(5);
    expect(errorLine(res)).toContain('HTTP 404');
    expect(res.stdout).toBe('');
  });
});

describe('config', () => {
  const cfg = { CSSCTL_PROFILE: 'cfg' };
  const configFile = () => join(w.configDir, 'config.json');

  it.each(['sarif', 'junit', 'github'])('refuses the report format %s as the saved default', async (fmt) => {
    const res = await w.run(['config', 'set', 'output', fmt], { env: { CSSCTL_PROFILE: 'reportfmt' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${fmt} is a report format for findings only`);
    expect(existsSync(configFile()) ? readFileSync(configFile(), 'utf8') : '').not.toContain('reportfmt');
  });

  it('set, get, unset and list the active profile', async () => {
    // Only login creates a profile (cli-contract.md §2).
    const unknown = await w.run(['config', 'set', 'workspace', 'globex'], { env: cfg });
    expect(unknown.code).toBe(2);
    expect(errorLine(unknown)).toContain('no profile named "cfg" (CSSCTL_PROFILE)');
    await w.login('acme', 'owner', ['--profile', 'cfg']);
    expect((await w.run(['config', 'set', 'workspace', 'globex'], { env: cfg })).code).toBe(0);
    expect((await w.run(['config', 'set', 'base_url', `${w.url}/api/v1/`], { env: cfg })).code).toBe(0);
    expect((await w.run(['config', 'set', 'email', 'someone@globex.test'], { env: cfg })).code).toBe(0);
    expect((await w.run(['config', 'set', 'output', 'ndjson'], { env: cfg })).code).toBe(0);

    const get = await w.run(['config', 'get', 'workspace'], { env: cfg });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe('globex\n');
    // A trailing /api/v1 is stripped when saved.
    expect((await w.run(['config', 'get', 'base_url'], { env: cfg })).stdout).toBe(`${w.url}\n`);

    const saved = JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, unknown> };
    expect(saved.profiles.cfg).toEqual({
      workspace: 'globex',
      base_url: w.url,
      email: 'someone@globex.test',
      output: 'ndjson',
    });

    // The profile's output is ndjson now; -o table asks for the table.
    const list = await w.run(['config', 'list', '-o', 'table'], { env: cfg });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^KEY\s+VALUE\s+SOURCE/);
    expect(list.stdout).toMatch(/workspace\s+globex\s+profile/);

    // The profile's output format is used, and a flag beats it.
    const env = { ...cfg, CSSCTL_TOKEN: globexToken };
    const nd = await w.run(['connections', 'list', '--limit', '2'], { env });
    expect(nd.code, nd.stderr).toBe(0);
    expect(lines(nd.stdout).map((l) => (JSON.parse(l) as { alias: string }).alias)).toEqual([
      'prod',
      'analytics',
    ]);
    const flag = await w.run(['connections', 'list', '--limit', '2', '--json'], { env });
    expect(JSON.parse(flag.stdout)).toHaveLength(2);

    const unset = await w.run(['config', 'unset', 'workspace'], { env: cfg });
    expect(unset.code).toBe(0);
    expect((await w.run(['config', 'get', 'workspace'], { env: cfg })).stdout).toBe('');
    const after = JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, object> };
    expect(after.profiles.cfg).not.toHaveProperty('workspace');
    expect(after.profiles.cfg).toHaveProperty('email', 'someone@globex.test');
  });

  it('config list --json is one object of every key', async () => {
    const res = await w.run(['config', 'list', '--json'], { env: { ...cfg, CSSCTL_WORKSPACE: 'from-env' } });
    expect(res.code).toBe(0);
    const obj = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(Object.keys(obj).sort()).toEqual(['base_url', 'email', 'output', 'workspace']);
    expect(obj).toMatchObject({ base_url: w.url, workspace: 'from-env', email: 'someone@globex.test' });
  });

  it.each([
    [['set', 'base_url', 'http://example.com']],
    [['set', 'base_url', 'not a url']],
    [['set', 'output', 'sarif']],
    [['set', 'output', 'xml']],
    [['set', 'workspace', 'a b']],
    [['set', 'email', 'not-an-email']],
    [['set', 'token', 'abc']],
    [['get', 'password']],
    [['unset', 'colour']],
  ])('config %j is exit 2 and changes nothing', async (args) => {
    const before = readFileSync(configFile(), 'utf8');
    // The profile saves `output: json` (above), so errors would be JSON: ask for text.
    const res = await w.run(['config', ...args, '-o', 'table'], { env: cfg });
    expect(res.code).toBe(2);
    errorLine(res);
    noStack(res);
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('config path is config.json inside CSSCTL_CONFIG_DIR', async () => {
    const res = await w.run(['config', 'path']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${join(w.configDir, 'config.json')}\n`);
  });

  it('after a login, config.json holds no token, refresh token or password', async () => {
    const env = { CSSCTL_PROFILE: 'secret-check' };
    await w.login('acme', 'owner', [], { env });
    const creds = JSON.parse(readFileSync(join(w.configDir, 'credentials.json'), 'utf8')) as {
      profiles: Record<string, { access_token: string; refresh_token: string }>;
    };
    const tokens = creds.profiles['secret-check']!;
    expect(tokens.access_token).toBeTruthy();
    const text = readFileSync(configFile(), 'utf8');
    expect(text).not.toContain(tokens.access_token);
    expect(text).not.toContain(tokens.refresh_token);
    expect(text).not.toContain(w.cred().password);
    const saved = JSON.parse(text) as { profiles: Record<string, Record<string, unknown>> };
    for (const profile of Object.values(saved.profiles)) {
      for (const key of Object.keys(profile))
        expect(['base_url', 'workspace', 'email', 'output']).toContain(key);
    }
    const list = await w.run(['config', 'list', '--json'], { env });
    expect(list.stdout).not.toContain(tokens.access_token);
    expect(list.stdout).not.toMatch(/token/i);
  });
});

describe('output rules', () => {
  const list = ['connections', 'list', '--limit', '3'];

  it('no colour on a pipe, nor with NO_COLOR=1; FORCE_COLOR=1 forces it; --no-color beats FORCE_COLOR', async () => {
    const plain = await w.run(list);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESC);

    const noColorEnv = await w.run(list, { env: { NO_COLOR: '1' } });
    expect(noColorEnv.stdout).not.toContain(ESC);

    const forced = await w.run(list, { env: { FORCE_COLOR: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(ESC);
    // Same table once the colour codes are taken out.
    // eslint-disable-next-line no-control-regex
    expect(forced.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain.stdout);

    const flagBeatsEnv = await w.run([...list, '--no-color'], { env: { FORCE_COLOR: '1' } });
    expect(flagBeatsEnv.code).toBe(0);
    expect(flagBeatsEnv.stdout).not.toContain(ESC);
    expect(flagBeatsEnv.stdout).toBe(plain.stdout);
    const flagBefore = await w.run(['--no-color', ...list], { env: { FORCE_COLOR: '1' } });
    expect(flagBefore.stdout).toBe(plain.stdout);
  });

  it('data goes to stdout, messages to stderr', async () => {
    const created = await w.run(['connections', 'create', '--alias', 'stream-check', '--provider', 'aws']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^ALIAS\s+stream-check$/m);
    expect(created.stdout).not.toMatch(/Created/);
    expect(created.stderr).toMatch(/Created connection stream-check/);

    const json = await w.run([
      'connections',
      'create',
      '--alias',
      'stream-check-2',
      '--provider',
      'aws',
      '--json',
    ]);
    expect(json.code).toBe(0);
    expect(() => JSON.parse(json.stdout) as unknown).not.toThrow();

    const hinted = await w.run(['connections', 'list', '--limit', '1']);
    expect(hinted.stdout).not.toMatch(/Showing/);
    expect(hinted.stderr).toMatch(/Showing/);

    const quiet = await w.run([
      'connections',
      'create',
      '--alias',
      'stream-check-3',
      '--provider',
      'aws',
      '-q',
    ]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/stream-check-3/);
  });
});
