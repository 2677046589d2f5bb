// Every command's --help ends with two or three examples (issue 21, as gh does), both as bin/cssctl.cjs
// answers it (dist/help.json) and as commander prints it; every example names a command of the tree; and every
// example shown (--help, docs/csv.md, docs/ocsf.md) runs against the sandbox.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { EXAMPLES } from '../../src/commands/examples.js';
import { IO } from '../../src/core/io.js';
import { Collect } from '../helpers/streams.js';
import { CLI, CLI_SHELL, World, runCli } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const io = new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
const program = buildProgram(io, () => {
  throw new Error('no command runs here');
});
const hidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;
const paths: string[][] = [];
(function walk(cmd: Command, path: string[]) {
  paths.push(path);
  for (const c of cmd.commands) if (!hidden(c)) walk(c, [...path, c.name()]);
})(program, []);

/** The command path an example runs: the words after `cssctl` that name commands. */
function commandOf(example: string): string[] {
  const words = example.slice(example.indexOf('cssctl ') + 7).split(/\s+/);
  const path: string[] = [];
  let cmd: Command | undefined = program;
  for (const word of words) {
    const w = word.replace(/[)"']+$/, ''); // the end of $(cssctl auth token)
    const next: Command | undefined = cmd?.commands.find((c) => c.name() === w);
    if (!next) break;
    path.push(w);
    cmd = next;
  }
  return path;
}

describe('--help ends with examples', () => {
  it.each(paths.map((p) => [p.join(' ') || '(cssctl)', p] as const))(
    'cssctl %s --help',
    async (_name, path) => {
      const res = await runCli([...path, '--help'], { PATH: process.env.PATH });
      expect(res.code).toBe(0);
      const tail = res.stdout.trimEnd().split('\n');
      const at = tail.lastIndexOf('Examples:');
      expect(at, `add examples for "cssctl ${path.join(' ')}" to src/commands/examples.ts`).toBeGreaterThan(
        0,
      );
      const examples = tail.slice(at + 1);
      expect(examples.length).toBeGreaterThanOrEqual(path.length === 0 ? 2 : 1);
      expect(examples.length).toBeLessThanOrEqual(3);
      for (const e of examples) expect(e).toMatch(/^ {2}\$ .*cssctl /);
    },
  );

  it('every example runs a command of the tree, the one it documents or one below it', () => {
    for (const [path, examples] of Object.entries(EXAMPLES)) {
      expect(paths.map((p) => p.join(' '))).toContain(path);
      for (const e of examples) {
        const ran = commandOf(e).join(' ');
        expect(ran, e).not.toBe('');
        expect(`${ran} `.startsWith(path ? `${path} ` : ''), `${path}: ${e}`).toBe(true);
      }
    }
  });
});

// Every example a user is shown — at the end of --help (src/commands/examples.ts) and in the fenced commands of
// docs/csv.md and docs/ocsf.md — runs against the sandbox: exit 0 (or 10, the gate, when it asks for one with
// --fail-on/--fail-under). Each runs in a shell (pipes, redirects, $(…) as written), in a folder and a config of
// its own copied from one prepared world, with the sample values only a real service gives put in: the
// sandbox's address and user, ids of its scans, findings and webhooks, the receiver a test runs on loopback.
describe('every example runs against the sandbox', () => {
  const docCommands = (page: string) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```(?:sh|bash|console)\n([\s\S]*?)```/g)].flatMap(
      (m) =>
        m[1]!
          .split('\n')
          .map((l) => l.replace(/\s+#.*$/, '').trim())
          .filter((l) => l.startsWith('cssctl ')),
    );
  const examples = [
    ...new Set([
      ...Object.values(EXAMPLES).flat(),
      ...docCommands('docs/csv.md'),
      ...docCommands('docs/ocsf.md'),
    ]),
  ];

  let w: World;
  let template: string;
  let shim: string;
  const values: Record<string, string> = {};
  let receiver: Server;
  let receiverUrl = '';
  const secret = 'whsec_examples_0123456789';
  const body = '{"event":"scan.completed","data":{"scan_id":"scn_1"}}';

  beforeAll(async () => {
    w = await World.start({
      scanStepMs: 40,
      findingsPerWorkspace: 30,
      rateLimit: 100_000,
      scanRateLimit: 100_000,
    });
    w.env = { ...w.env, CSSCTL_POLL_BASE_MS: '20', CSSCTL_CREDENTIAL_STORE: 'file' };
    await w.login('acme');
    await w.login('acme', 'owner', ['--profile', 'staging']);
    await w.login('acme', 'owner', ['--profile', 'prod']);
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const scan = async () => {
      const r = await w.run(['scans', 'create', '--connection', 'prod', '--wait', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { scan_id: string }).scan_id;
    };
    const first = await scan();
    values.scan = await scan();
    const listed = await w.run(['findings', 'list', '--scan', values.scan, '--all', '--json']);
    const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((f) => f.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    [values.f0, values.f1, values.f2] = [ids[0]!, ids[1]!, ids[2]!];
    const hook = await w.run([
      'webhooks',
      'create',
      '--url',
      `${receiverUrl}/cssctl`,
      '--events',
      'all',
      '--json',
    ]);
    expect(hook.code, hook.stderr).toBe(0);
    values.webhook = (JSON.parse(hook.stdout) as { id: string }).id;

    template = join(w.dir, 'template');
    mkdirSync(join(template, 'deliveries'), { recursive: true });
    const baseline = await w.run(['findings', 'list', '--scan', first, '--all', '-o', 'json']);
    writeFileSync(join(template, 'baseline.json'), baseline.stdout);
    writeFileSync(join(template, 'secret.txt'), `${secret}\n`);
    writeFileSync(join(template, 'body.json'), body);
    values.signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    // A saved delivery for `webhooks replay`: one that `webhooks listen --save` received.
    const port = await freePort();
    const listen = spawn(
      CLI[0],
      [...CLI.slice(1), 'webhooks', 'listen', '--port', String(port), '--save', join(template, 'deliveries')],
      {
        env: { ...(w.env as Record<string, string>), CSSCTL_WEBHOOK_SECRET: secret },
        stdio: 'ignore',
      },
    );
    try {
      for (let i = 0; i < 100 && readdirSync(join(template, 'deliveries')).length === 0; i++) {
        await w.run(['webhooks', 'trigger', 'scan.completed', '--url', `http://127.0.0.1:${port}/`], {
          env: { CSSCTL_WEBHOOK_SECRET: secret },
        });
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      listen.kill();
    }
    values.delivery = readdirSync(join(template, 'deliveries'))[0]!;
    expect(values.delivery).toMatch(/\.json$/);
    shim = join(w.dir, 'bin');
    mkdirSync(shim);
    writeFileSync(join(shim, 'cssctl'), `#!/bin/sh\nexec ${CLI_SHELL} "$@"\n`, { mode: 0o755 });
  }, 120_000);
  afterAll(async () => {
    receiver?.close();
    await w?.close();
  });

  /** The example with the values only a real service or the reader's machine gives, from the prepared world. */
  function realised(example: string): string {
    const c = w.cred('acme');
    let cmd = example
      .replaceAll(/https:\/\/(scanner|staging)\.example\.com/g, w.url)
      .replaceAll(/\b(me|ci)@example\.com\b/g, c.email)
      .replaceAll(/\bscn_(0123456789abcdef|123)\b/g, values.scan!)
      .replaceAll(/\bfnd_123\b/g, values.f0!)
      .replaceAll(/\bfnd_1\b/g, values.f1!)
      .replaceAll(/\bfnd_2\b/g, values.f2!)
      .replaceAll(/\bwhk_0123456789abcdef\b/g, values.webhook!)
      .replaceAll('https://hooks.example.com/cssctl', `${receiverUrl}/cssctl`)
      .replaceAll(/http:\/\/127\.0\.0\.1:(3000|8088)\/\w*/g, `${receiverUrl}/hook`)
      .replaceAll(/\.\/deliveries\/[\w.:-]+\.json/g, `./deliveries/${values.delivery}`);
    // A listener binds its own port: 8088 (the default) or 9000 may be another test's on this machine.
    if (/webhooks listen\b/.test(cmd))
      cmd = /--port \d+/.test(cmd) ? cmd.replace(/--port \d+/, '--port 0') : `${cmd} --port 0`;
    return cmd;
  }

  it.each(examples)(
    '%s',
    async (example) => {
      const cwd = mkdtempSync(join(w.dir, 'ex-'));
      cpSync(template, cwd, { recursive: true });
      const config = join(cwd, '.config-cssctl');
      cpSync(w.configDir, config, { recursive: true });
      const env = {
        ...w.env,
        PATH: `${shim}:${process.env.PATH}`,
        HOME: cwd,
        CSSCTL_CONFIG_DIR: config,
        CSSCTL_PASSWORD: w.cred('acme').password,
        CSSCTL_WEBHOOK_SECRET: secret,
        SIGNATURE_HEADER: values.signature,
        URL: w.url,
      };
      const cmd = realised(example);
      const gate = /--fail-on|--fail-under/.test(example);
      if (/webhooks listen\b/.test(cmd)) {
        // A server: it must start and keep running (until stopped), never end with an error.
        const child = spawn('bash', ['-c', `exec ${cmd}`], {
          cwd,
          env: env as Record<string, string>,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const code = await new Promise<number | null | 'running'>((resolve) => {
          const t = setTimeout(() => resolve('running'), 3000);
          child.on('close', (c) => {
            clearTimeout(t);
            resolve(c);
          });
        });
        child.kill();
        expect(code, `${cmd}\n${stderr}`).toBe('running');
        expect(stderr, cmd).not.toMatch(/^error:/m);
        return;
      }
      // An example that refreshes the session (doctor, auth refresh) spends the refresh token, and every example
      // starts from a copy of one login: the sandbox, as a service with reuse detection does, revokes a session
      // whose refresh token is spent twice. Such an example gets sessions of its own.
      if (/\bcssctl (doctor|auth refresh)\b/.test(cmd))
        for (const profile of ['default', 'staging', 'prod'])
          await w.login('acme', 'owner', ['--profile', profile], {
            env: { CSSCTL_CONFIG_DIR: config, HOME: cwd },
            cwd,
          });
      const res = await runCli(['-c', cmd], env, { command: 'bash', cwd, timeoutMs: 60_000 });
      expect([0, ...(gate ? [10] : [])], `${cmd}\n${res.stderr}`).toContain(res.code);
      if (res.code === 0) expect(res.stderr, cmd).not.toMatch(/^error:/m);
    },
    90_000,
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
