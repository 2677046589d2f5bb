// ProcessContext.forCall (src/core/process-context.ts): the context of one call of a long-lived front end (the MCP
// server's tool calls) — its own IO, signal and settings, over one shared session, credential store, transport and
// rate-limit windows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { IO } from '../../src/core/io.js';
import { ProcessContext } from '../../src/core/process-context.js';
import { Collect } from '../helpers/streams.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function root(env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cssctl-call-'));
  dirs.push(dir);
  const controller = new AbortController();
  const io = () =>
    new IO({ stdin: new PassThrough(), stdout: new Collect(), stderr: new Collect() }, { env: {} });
  const ctx = new ProcessContext({
    io: io(),
    env: { CSSCTL_CONFIG_DIR: dir, CSSCTL_CREDENTIAL_STORE: 'file', ...env },
    globals: {},
    signal: controller.signal,
    transport: async () => ({ status: 200, headers: {}, body: '{}' }),
  });
  const call = (signal = new AbortController().signal) =>
    ctx.forCall({ io: io(), signal, globals: { output: 'json' } });
  return { ctx, dir, controller, call };
}

describe('ProcessContext.forCall', () => {
  it('calls share one session per profile and service, and one credential store', async () => {
    const r = root({ CSSCTL_BASE_URL: 'http://127.0.0.1:1', CSSCTL_WORKSPACE: 'acme' });
    const [a, b] = [r.call(), r.call()];
    expect(await a.session()).toBe(await b.session());
    expect(a.credentials()).toBe(b.credentials());
    const other = r.ctx.forCall({ io: a.io, signal: a.signal, globals: { baseUrl: 'http://127.0.0.1:2' } });
    expect(await other.session()).not.toBe(await a.session());
  });

  it('each call reads config.json afresh: a login in a terminal is seen by the next call', async () => {
    const r = root();
    const before = r.call();
    expect(before.settingsSync().workspace).toBeUndefined();
    writeFileSync(
      join(r.dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: 'http://127.0.0.1:9', workspace: 'globex' } } }),
    );
    const after = r.call();
    expect(after.settingsSync()).toMatchObject({ workspace: 'globex', baseUrl: 'http://127.0.0.1:9' });
  });

  it("a call's own globals (-o json) over the process's; its own IO", () => {
    const r = root();
    const c = r.call();
    expect(c.settingsSync().output).toBe('json');
    expect(r.ctx.settingsSync().output).toBe('table');
    expect(c.io).not.toBe(r.ctx.io);
  });

  it("a call stops when it is cancelled or when the process is; a call's cancellation stops no other", () => {
    const r = root();
    const cancel = new AbortController();
    const [a, b] = [r.call(cancel.signal), r.call()];
    cancel.abort();
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    expect(r.ctx.signal.aborted).toBe(false);
    r.controller.abort();
    expect(b.signal.aborted).toBe(true);
  });
});
