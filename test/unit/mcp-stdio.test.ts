// The line transport of `cssctl mcp` (src/mcp/stdio.ts): JSON-RPC messages a line at a time, however the bytes
// arrive; the protocol's error answer for a line that is not JSON or not JSON-RPC, and the server goes on; calls
// under way tracked until they are answered or cancelled; a stdout that cannot be written ends it.
import { PassThrough, Writable } from 'node:stream';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Screen, type ParamsSchema } from '../../src/mcp/screen.js';
import { describe, expect, it } from 'vitest';
import { INVALID_REQUEST, LineTransport, MAX_LINE_BYTES, PARSE_ERROR } from '../../src/mcp/stdio.js';
import { Collect } from '../helpers/streams.js';

function transport() {
  const stdin = new PassThrough();
  const stdout = new Collect();
  const t = new LineTransport(stdin, stdout, JSONRPCMessageSchema);
  const got: unknown[] = [];
  t.onmessage = (m) => got.push(m);
  let closed = 0;
  t.onclose = () => closed++;
  const answers = () =>
    stdout.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } });
  return { stdin, stdout, t, got, answers, closed: () => closed };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('LineTransport', () => {
  it('messages a line at a time, whatever the chunks; blank lines and CRLF are fine', async () => {
    const x = transport();
    await x.t.start();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    x.stdin.write(ping.slice(0, 10));
    x.stdin.write(
      `${ping.slice(10)}\r\n\n   \n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc"`,
    );
    await tick();
    expect(x.got).toStrictEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(x.stdout.text).toBe('');
  });

  it('a line that is not JSON: parse error (id null); JSON that is not JSON-RPC: invalid request, with its id', async () => {
    const x = transport();
    await x.t.start();
    x.stdin.write('not json\n{"id": 7, "method": 3}\n[1,2]\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await tick();
    expect(x.answers()).toStrictEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: PARSE_ERROR, message: 'Parse error: the line is not JSON' },
      },
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: INVALID_REQUEST, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: INVALID_REQUEST, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      },
    ]);
    // The server goes on: the next line is a message.
    expect(x.got).toStrictEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('a line longer than the limit is answered once and skipped to its end; the next line is read', async () => {
    const x = transport();
    await x.t.start();
    const big = 'x'.repeat(1024 * 1024);
    for (let n = 0; n <= MAX_LINE_BYTES / big.length; n++) x.stdin.write(big);
    x.stdin.write('tail of the long line\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await tick();
    expect(x.answers()).toHaveLength(1);
    expect(x.answers()[0]).toMatchObject({ id: null, error: { code: INVALID_REQUEST } });
    expect(x.got).toStrictEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });

  it('idle() waits for the requests read to be answered or cancelled', async () => {
    const x = transport();
    await x.t.start();
    x.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}\n');
    x.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}\n');
    await tick();
    let idle = false;
    void x.t.idle().then(() => (idle = true));
    await x.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(idle).toBe(false);
    x.stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n');
    await tick();
    expect(idle).toBe(true);
  });

  it('the end of stdin closes it, or tells oninputend when the server wants to finish first', async () => {
    const plain = transport();
    await plain.t.start();
    plain.stdin.end();
    await tick();
    expect(plain.closed()).toBe(1);
    const told = transport();
    let ended = 0;
    told.t.oninputend = () => ended++;
    await told.t.start();
    told.stdin.end();
    await tick();
    expect([ended, told.closed()]).toStrictEqual([1, 0]);
  });

  it('a stdout that cannot be written closes it, keeping why', async () => {
    const stdin = new PassThrough();
    const full = new Writable({
      write: (_c, _e, cb) => cb(Object.assign(new Error('no space left'), { code: 'ENOSPC' })),
    });
    full.on('error', () => undefined);
    const t = new LineTransport(stdin, full, JSONRPCMessageSchema);
    let closed = false;
    t.onclose = () => (closed = true);
    await t.start();
    void t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(closed).toBe(true);
    expect(t.failure?.message).toBe('no space left');
  });
});

describe('issue 34: what the server checks before the SDK reads a message', () => {
  it('two requests with one id: idle() waits for both answers (stdin closing drops no call)', async () => {
    const x = transport();
    await x.t.start();
    x.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}\n');
    x.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}\n');
    await tick();
    let idle = false;
    void x.t.idle().then(() => (idle = true));
    await x.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(idle).toBe(false);
    await x.t.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(idle).toBe(true);
  });

  function screened() {
    const stdin = new PassThrough();
    const stdout = new Collect();
    const t = new LineTransport(
      stdin,
      stdout,
      JSONRPCMessageSchema,
      new Screen({
        initialize: InitializeRequestSchema,
        'tools/call': CallToolRequestSchema,
      } as unknown as Record<string, ParamsSchema>),
    );
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    const answers = () =>
      stdout.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string } });
    return { stdin, t, got, answers };
  }
  const init =
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}';

  it('tools/call before initialize is refused; ping is not', async () => {
    const x = screened();
    await x.t.start();
    x.stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await tick();
    expect(x.answers()).toStrictEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32600,
          message: 'Invalid Request: tools/call before initialize; send initialize first',
        },
      },
    ]);
    expect(x.got).toStrictEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it.each([
    ['arguments a list', '{"name":"a","arguments":[1,2]}', /^Invalid params: params\.arguments: /],
    ['no name', '{"arguments":{}}', /^Invalid params: params\.name: /],
    [
      'nested too deep',
      `{"name":"a","arguments":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
      /^Invalid params: nested more than 64 levels deep$/,
    ],
  ])('%s: -32602 in one line', async (_name, params, message) => {
    const x = screened();
    await x.t.start();
    x.stdin.write(`${init}\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}\n`);
    await tick();
    const [answer] = x.answers();
    expect(answer!.error!.code).toBe(-32602);
    expect(answer!.error!.message).toMatch(message);
    expect(answer!.error!.message).not.toContain('\n');
    expect(x.got).toHaveLength(1);
  });

  it('a progress token of 1.5 goes to the SDK as a string and comes back as 1.5; a task is left out', async () => {
    const x = screened();
    await x.t.start();
    x.stdin.write(
      `${init}\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","task":{"ttl":5},"_meta":{"progressToken":1.5}}}\n`,
    );
    await tick();
    const call = x.got[1] as { params: { _meta: { progressToken: string }; task?: unknown } };
    expect(typeof call.params._meta.progressToken).toBe('string');
    expect(call.params.task).toBeUndefined();
    await x.t.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: call.params._meta.progressToken, progress: 1 },
    });
    const sent = x.answers() as unknown as { method?: string; params?: { progressToken: unknown } }[];
    expect(sent.find((m) => m.method === 'notifications/progress')!.params!.progressToken).toBe(1.5);
  });
});
