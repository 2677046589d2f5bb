// JSON-RPC over stdin and stdout, one message a line (the protocol's stdio transport). The SDK has one
// (StdioServerTransport), but it drops a line it cannot read with no answer at all; the protocol — and
// cli-contract.md §13 — want an error answer (parse error, invalid request) and the server to go on. So cssctl
// reads the lines itself and hands the SDK's Server only messages that are JSON-RPC.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Screen } from './screen.js';

/** JSON-RPC's own error codes (the SDK's ErrorCode has the same values). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The longest line read (as the SDK's transport); a longer one is answered as an invalid request and dropped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** What the transport needs to tell a JSON-RPC message from other JSON (the SDK's schema). */
export interface MessageSchema {
  safeParse(value: unknown): { success: true; data: JSONRPCMessage } | { success: false };
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * stdin ended: the client is done sending. Without it set, the transport closes at once; the server sets it
   * to give the calls under way a moment to answer first (`printf '…' | cssctl mcp`).
   */
  oninputend?: () => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** A line too long to keep: its rest is skipped up to the next newline. */
  private skipping = false;
  private closed = false;
  /** Why stdout could not be written, once it could not. */
  failure?: Error;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly schema: MessageSchema,
    /** What the server checks of a message before the SDK reads it (src/mcp/screen.ts). */
    private readonly screen?: Screen,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      const tail = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        this.chunks = [];
        this.size = 0;
        continue;
      }
      const line = this.chunks.length === 0 ? tail : Buffer.concat([...this.chunks, tail]);
      this.chunks = [];
      this.size = 0;
      this.line(line.toString('utf8'));
      if (this.closed) return;
    }
    if (buf.length === 0 || this.skipping) return;
    this.chunks.push(buf);
    this.size += buf.length;
    if (this.size > MAX_LINE_BYTES) {
      this.chunks = [];
      this.size = 0;
      this.skipping = true;
      this.reply(null, INVALID_REQUEST, `Invalid Request: a message longer than ${MAX_LINE_BYTES} bytes`);
    }
  };

  private readonly onEnd = (): void => {
    if (this.ended) return;
    this.ended = true;
    if (this.oninputend) this.oninputend();
    else void this.close();
  };
  private ended = false;
  /**
   * Requests read and not yet answered, by id, with how many are under way with that id: a client that reuses an
   * id still has each call answered before stdin's end closes the server (a cancelled one gets no answer: it is
   * dropped when cancelled).
   */
  private readonly pending = new Map<string | number, number>();
  private idleWaiters: (() => void)[] = [];
  private readonly onError = (err: Error): void => {
    this.onerror?.(err);
    void this.close();
  };

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.once('end', this.onEnd);
    this.stdin.once('close', this.onEnd);
    this.stdin.on('error', this.onError);
  }

  /** One line: a message for the SDK, or the protocol's error answer. */
  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(null, PARSE_ERROR, 'Parse error: the line is not JSON');
      return;
    }
    if (this.screen) value = this.screen.rewrite(value);
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) {
      this.reply(idOf(value), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    const screened = this.screen ? this.screen.incoming(parsed.data) : { message: parsed.data };
    if ('error' in screened) {
      this.reply(screened.error.id, screened.error.code, screened.error.message);
      return;
    }
    if ('drop' in screened) return;
    const m = screened.message as {
      id?: string | number;
      method?: string;
      params?: { requestId?: string | number };
    };
    if (m.method !== undefined && m.id !== undefined)
      this.pending.set(m.id, (this.pending.get(m.id) ?? 0) + 1);
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined)
      this.settle(m.params.requestId);
    this.onmessage?.(screened.message);
  }

  /** Resolves once every request read has been answered (or cancelled). */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(id: string | number): void {
    const n = this.pending.get(id) ?? 0;
    if (n > 1) this.pending.set(id, n - 1);
    else this.pending.delete(id);
    if (this.pending.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private reply(id: string | number | null, code: number, message: string): void {
    // JSON-RPC answers a request it could not read with id null (the SDK's types have no room for it).
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.screen) message = this.screen.outgoing(message);
    const m = message as { id?: string | number; method?: string };
    if (m.method === undefined && m.id !== undefined && m.id !== null)
      queueMicrotask(() => this.settle(m.id!));
    return new Promise((resolve) => {
      const ok = this.stdout.write(`${JSON.stringify(message)}\n`, (err) => {
        if (!err || this.failure) return;
        // The protocol cannot be written (a full disk, a closed pipe): the server ends, saying why.
        this.failure = err;
        this.onerror?.(err);
        void this.close();
      });
      if (ok) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onError);
    this.stdin.pause();
    this.onclose?.();
  }
}

/** The id of something that looked like a request, so its error answer can name it. */
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
