// `cssctl mcp` as an MCP client sees it (cli-contract.md §13): the SDK's own Client over a real stdio pipe to the
// built CLI, against the sandbox — initialize, tools/list, tools/call of each tool, ping, progress, cancellation,
// errors — and raw JSON-RPC lines for what a client library would never send (malformed lines) and for what
// only a process shows (stdout carries the protocol alone; stdin closed, SIGINT, SIGTERM: exit 0 within 1 s).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, World, received } from './harness.js';

let w: World;
let cwd: string;
beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000, scanStepMs: 60_000 });
  await w.login();
  cwd = mkdtempSync(join(tmpdir(), 'cssctl-mcp-cwd-'));
});
afterAll(async () => {
  await w.close();
  rmSync(cwd, { recursive: true, force: true });
});

/** The server's environment: this world's config and cache, a node for the launcher, polls scaled down. */
function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { CSSCTL_POLL_BASE_MS: '100' };
  for (const [k, v] of Object.entries(w.env)) if (v !== undefined) env[k] = v;
  env.PATH = `${dirname(process.execPath)}:${env.PATH ?? ''}`;
  return { ...env, ...extra };
}

async function connect(args: string[] = [], extra: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), 'mcp', ...args],
    env: serverEnv(extra),
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  // The revision the server answered initialize with (the Client tells a transport that can take it).
  let negotiated: string | undefined;
  Object.assign(transport, { setProtocolVersion: (v: string) => (negotiated = v) });
  const client = new Client({ name: 'cssctl-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, protocol: () => negotiated };
}

const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });

describe('the SDK Client over stdio', () => {
  it('initialize: the server, the protocol revision, the tools capability, instructions', async () => {
    const { client, protocol } = await connect();
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'cssctl' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false } });
      expect(client.getInstructions()).toMatch(/untrusted data/);
      // The SDK's Client asks for its latest revision (2025-11-25 in 1.32); the server speaks it.
      expect(protocol()! >= '2025-06-18', protocol()).toBe(true);
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it("tools/call of every tool: structuredContent valid against the tool's outputSchema, the same JSON as text", async () => {
    const { client, stderr } = await connect(['--allow-write']);
    try {
      const { tools } = await client.listTools();
      const schemas = new Map(tools.map((t) => [t.name, t.outputSchema!]));
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        // The SDK's Client checks structuredContent against the outputSchema of tools/list itself; so does ajv.
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        const validate = ajv.compile(schemas.get(name)!);
        expect(validate(r.structuredContent), JSON.stringify(validate.errors)).toBe(true);
        expect(JSON.parse((r.content as { text: string }[])[0]!.text)).toStrictEqual(r.structuredContent);
        return r.structuredContent as Record<string, unknown>;
      };
      expect(await call('auth_status')).toMatchObject({
        workspace: 'acme',
        token_source: 'file',
        email: 'owner@acme.test',
      });
      const conns = await call('list_connections', { limit: 2 });
      expect(conns).toMatchObject({ total: 4, limit: 2, next_offset: 2 });
      const scans = await call('list_scans', { status: 'completed' });
      const [head] = scans.scans as { scan_id: string }[];
      expect(await call('get_scan', { scan_id: head!.scan_id })).toMatchObject({ scan_id: head!.scan_id });
      expect(await call('wait_scan', { scan_id: head!.scan_id, fail_on: 'critical' })).toMatchObject({
        status: 'completed',
        gate: { fail_on: 'critical' },
      });
      const findings = await call('list_findings', { severity: ['critical', 'high'], limit: 5 });
      expect((findings.findings as unknown[]).length).toBe(5);
      const [first] = findings.findings as { id: string; fingerprint: string }[];
      expect(await call('get_finding', { finding_id: first!.id })).toMatchObject({
        fingerprint: first!.fingerprint,
      });
      expect(await call('summarize_findings', { by: 'connection' })).toMatchObject({ by: 'connection' });
      const diff = await call('diff_findings', { base: 'latest', head: head!.scan_id, limit: 3 });
      expect(Object.keys(diff.counts as object).sort()).toStrictEqual([
        'fixed',
        'new',
        'unchanged',
        'updated',
      ]);
      const created = await call('create_scan', { connection: 'prod' });
      expect(created).toMatchObject({ status: 'queued' });
      const ignored = await call('ignore_finding', {
        finding_id: first!.id,
        reason: 'accepted in the e2e test',
      });
      expect(ignored).toMatchObject({ file: '.cssctl-ignore.yaml', already_ignored: false });
      expect(readFileSync(join(cwd, '.cssctl-ignore.yaml'), 'utf8')).toContain(first!.fingerprint);
      // The ignore file of the server's folder now applies: the finding is left out and counted.
      const again = await call('list_findings', { severity: ['critical', 'high'], limit: 5 });
      expect((again.findings as { id: string }[]).map((f) => f.id)).not.toContain(first!.id);
      expect(again.ignored).toBe(1);
      expect(stderr()).not.toMatch(/error|\bat /);
    } finally {
      await client.close();
      rmSync(join(cwd, '.cssctl-ignore.yaml'), { force: true });
    }
  });

  it('errors are results with the line the CLI prints; the server goes on', async () => {
    const { client } = await connect();
    try {
      const notFound = await client.callTool({ name: 'get_scan', arguments: { scan_id: 'scn_nope' } });
      expect(notFound.isError).toBe(true);
      expect((notFound.content as { text: string }[])[0]!.text).toMatch(/^error: .*\(HTTP 404/);
      const refused = await client.callTool({ name: 'list_findings', arguments: { severity: ['urgent'] } });
      expect((refused.content as { text: string }[])[0]!.text).toContain(
        'is not one of critical, high, medium, low, info',
      );
      const write = await client.callTool({ name: 'create_scan', arguments: { connection: 'prod' } });
      expect((write.content as { text: string }[])[0]!.text).toContain('--allow-write');
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/unknown tool "nope"/);
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it('not logged in: auth_status says to run cssctl login', async () => {
    const { client } = await connect([], { CSSCTL_CONFIG_DIR: join(cwd, 'empty-config') });
    try {
      const r = await client.callTool({ name: 'auth_status', arguments: {} });
      expect((r.content as { text: string }[])[0]!.text).toBe(
        'error: not logged in (profile default) (run cssctl login)',
      );
    } finally {
      await client.close();
    }
  });

  it('progress: a read of many pages sends notifications/progress when the request asks for it', async () => {
    const { client } = await connect();
    try {
      const seen: { progress: number; total?: number }[] = [];
      const r = await client.callTool({ name: 'summarize_findings', arguments: { by: 'rule' } }, undefined, {
        onprogress: (p) => seen.push(p),
      });
      expect(r.isError).toBeFalsy();
      const total = (r.structuredContent as { total: number }).total;
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.at(-1)).toMatchObject({ progress: total, total });
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    } finally {
      await client.close();
    }
  });

  it('progress while a wait polls', async () => {
    const { client } = await connect(['--allow-write']);
    try {
      const created = await client.callTool({ name: 'create_scan', arguments: { connection: 'staging' } });
      const id = (created.structuredContent as { scan_id: string }).scan_id;
      const messages: string[] = [];
      const r = await client.callTool(
        { name: 'wait_scan', arguments: { scan_id: id, timeout_s: 1 } },
        undefined,
        {
          onprogress: (p) => messages.push(String(p.message)),
        },
      );
      expect((r.content as { text: string }[])[0]!.text).toMatch(/the scan goes on/);
      expect(messages.length).toBeGreaterThan(1);
      expect(messages[1]).toMatch(new RegExp(`^Scan ${id}: (queued|running)`));
    } finally {
      await client.close();
    }
  });
});

/** The server as a raw process: every stdout line kept, parsed. */
function raw(args: string[] = []) {
  const child = spawn(CLI[0], [...CLI.slice(1), 'mcp', ...args], {
    env: serverEnv(),
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
  const out: string[] = [];
  let buf = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    out.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const send = (m: unknown) => child.stdin.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`);
  const messages = () =>
    out.map(
      (l) => JSON.parse(l) as { id?: unknown; result?: unknown; error?: { code: number }; method?: string },
    );
  const waitFor = async (pred: (m: ReturnType<typeof messages>[number]) => boolean, ms = 10_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const found = messages().find(pred);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no such message in ${ms} ms: ${out.join('\n')}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const initialize = async () => {
    send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor((m) => m.id === 'init');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { child, out, send, messages, waitFor, initialize, exited, stderr: () => stderr };
}

describe('raw JSON-RPC on stdio', () => {
  it('a line that is not JSON-RPC gets the protocol error and the server goes on; stdout is JSON-RPC only', async () => {
    const s = raw(['--verbose']);
    await s.initialize();
    s.send('this is not json');
    s.send('{"jsonrpc": "2.0", "id": 7}');
    s.send('[1, 2, 3]');
    s.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
    s.send({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'list_scans', arguments: { limit: 1 } },
    });
    await s.waitFor((m) => m.id === 9);
    const all = s.messages();
    expect(all.filter((m) => m.error?.code === -32700)).toHaveLength(1);
    expect(all.find((m) => m.id === 7)?.error?.code).toBe(-32600);
    expect(all.filter((m) => m.id === null && m.error?.code === -32600)).toHaveLength(1);
    expect(all.find((m) => m.id === 8)?.result).toStrictEqual({});
    // Every line of stdout is a JSON-RPC message; --verbose went to stderr, without the token.
    for (const m of all) expect(m).toMatchObject({ jsonrpc: '2.0' });
    expect(s.stderr()).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/scans\?limit=1 -> 200/);
    const token = JSON.parse(readFileSync(join(w.configDir, 'credentials.json'), 'utf8')) as {
      profiles: { default: { access_token: string; refresh_token: string } };
    };
    const { access_token: access, refresh_token: refresh } = token.profiles.default;
    for (const secret of [access, refresh]) expect(s.out.join('\n') + s.stderr()).not.toContain(secret);
    s.child.stdin.end();
    expect((await s.exited).code).toBe(0);
  });

  it("notifications/cancelled stops the call's requests within 1 s and no result is sent for it", async () => {
    const s = raw(['--allow-write']);
    await s.initialize();
    s.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_scan', arguments: { connection: 'dev' } },
    });
    const created = (await s.waitFor((m) => m.id === 1)) as {
      result: { structuredContent: { scan_id: string } };
    };
    const id = created.result.structuredContent.scan_id;
    s.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'wait_scan', arguments: { scan_id: id } },
    });
    const polls = () => received(w.sandbox, `/scans/${id}`, 'GET');
    const until = Date.now() + 5000;
    while (polls().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(polls().length).toBeGreaterThanOrEqual(2);
    const cancelledAt = Date.now();
    s.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, reason: 'the user changed their mind' },
    });
    await new Promise((r) => setTimeout(r, 2000));
    expect(polls().filter((r) => r.time > cancelledAt + 1000)).toStrictEqual([]);
    s.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await s.waitFor((m) => m.id === 3);
    expect(s.messages().filter((m) => m.id === 2)).toStrictEqual([]);
    s.child.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  });

  it.each(['stdin', 'SIGINT', 'SIGTERM'])(
    '%s ends the server within 1 s with exit 0, a call under way or not',
    async (how) => {
      const s = raw(['--allow-write']);
      await s.initialize();
      s.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_scan', arguments: { connection: 'prod' } },
      });
      const created = (await s.waitFor((m) => m.id === 1)) as {
        result: { structuredContent: { scan_id: string } };
      };
      s.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'wait_scan', arguments: { scan_id: created.result.structuredContent.scan_id } },
      });
      await new Promise((r) => setTimeout(r, 300));
      const at = Date.now();
      if (how === 'stdin') s.child.stdin.end();
      else s.child.kill(how as NodeJS.Signals);
      const end = await s.exited;
      expect(end).toMatchObject({ code: 0, signal: null });
      expect(end.at - at).toBeLessThan(1000);
      expect(s.stderr()).toBe('');
    },
  );

  it('calls under way when stdin ends still answer (printf … | cssctl mcp)', async () => {
    const s = raw();
    s.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'list_connections', arguments: {} },
    });
    s.child.stdin.end();
    expect((await s.exited).code).toBe(0);
    expect(s.messages().find((m) => m.id === 4)).toMatchObject({
      result: { structuredContent: { total: 4 } },
    });
  });
});

// A Node-loaded cssctl only: the single executable reads its files from its own assets.
describe.skipIf(!!process.env.CSSCTL_TEST_BIN && !/\.[cm]?js$/.test(CLI.at(-1)!))('start-up', () => {
  it('the SDK (dist/mcp.cjs) is read only by cssctl mcp, never by another command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cssctl-mcp-reads-'));
    try {
      const report = join(dir, 'reads.txt');
      const preload = join(dir, 'preload.cjs');
      // Every file the process reads, by name, written when it exits.
      writeFileSync(
        preload,
        `const fs = require('fs'); const read = fs.readFileSync; const seen = [];
         fs.readFileSync = function (p, ...rest) { seen.push(String(p)); return read.call(this, p, ...rest); };
         process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)}, seen.join('\\n')));`,
      );
      const env = { NODE_OPTIONS: `--require ${preload}` };
      const plain = await w.run(['connections', 'list', '--json'], { env });
      expect(plain.code, plain.stderr).toBe(0);
      expect(readFileSync(report, 'utf8')).not.toMatch(/mcp\.cjs/);
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const mcp = await w.run(['mcp'], { env, input: `${JSON.stringify(init)}\n` });
      expect(mcp.code, mcp.stderr).toBe(0);
      expect(readFileSync(report, 'utf8')).toMatch(/dist[\\/]mcp\.cjs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what cssctl mcp refuses before it serves', () => {
  it.each([
    [['--profile', 'nope'], 'error: no profile named "nope" (--profile)'],
    [['-o', 'table'], 'error: cssctl mcp speaks JSON-RPC on stdout: -o, --json and --jq do not apply to it'],
  ])('%j: exit 2 with one line, nothing on stdout', async (args, line) => {
    const res = await w.run(['mcp', ...args]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')[0]).toContain(line);
  });
});

describe('cssctl mcp config', () => {
  it.each([
    ['claude', 'mcpServers'],
    ['vscode', 'servers'],
    ['cursor', 'mcpServers'],
  ])(
    '--client %s: the block registering this cssctl, with --profile and --allow-write, no secret',
    async (client, key) => {
      w.addProfile('work', { base_url: w.url, workspace: 'acme' });
      const res = await w.run(['mcp', 'config', '--client', client, '--profile', 'work', '--allow-write'], {
        env: { CSSCTL_TOKEN: 'canary-token-in-env', CSSCTL_PASSWORD: 'canary-password' },
      });
      expect(res.code, res.stderr).toBe(0);
      const block = JSON.parse(res.stdout) as Record<
        string,
        Record<string, { command: string; args: string[]; env?: Record<string, string>; type?: string }>
      >;
      const server = block[key]!.cssctl!;
      // The node that runs cssctl, as the process knows it (process.execPath: symlinks resolved, so a
      // node_modules/.bin/node or an nvm alias names the binary itself).
      expect(realpathSync(server.command)).toBe(realpathSync(CLI[0]!));
      expect(server.args).toStrictEqual([...CLI.slice(1), 'mcp', '--profile', 'work', '--allow-write']);
      if (client === 'vscode') expect(server.type).toBe('stdio');
      expect(server.env).toMatchObject({ CSSCTL_CONFIG_DIR: w.configDir });
      expect(res.stdout + res.stderr).not.toMatch(/canary/);
      expect(res.stderr).toMatch(/Paste it into/);
      // Absolute paths that exist: the node and the launcher, or the single executable.
      expect(existsSync(server.command)).toBe(true);
      if (CLI.length > 1) expect(existsSync(server.args[0]!)).toBe(true);
    },
  );

  it('a --profile that does not exist is exit 2 naming it; an unknown client names the choices', async () => {
    const missing = await w.run(['mcp', 'config', '--profile', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no profile named "nope"');
    const client = await w.run(['mcp', 'config', '--client', 'emacs']);
    expect(client.code).toBe(2);
    expect(client.stderr).toMatch(/claude, vscode, cursor/);
  });
});
