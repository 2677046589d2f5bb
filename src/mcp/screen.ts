// What the server checks of a message before the SDK's Server sees it (cli-contract.md §13, protocol): the SDK
// answers malformed params with -32603 and a multi-line dump of its validator, overflows the stack on deeply
// nested arguments, runs tools/call before initialize, refuses a whole call over a progress token of 1.5 and
// fails a task-augmented call. Here each becomes the protocol's answer in one line, or a message the SDK reads.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const INVALID_PARAMS = -32602;
export const INVALID_REQUEST = -32600;

/** Deeper than this, a message is refused before anything parses it recursively. */
export const MAX_DEPTH = 64;

/** The SDK's schema of a request's params, by method (its safeParse and the issues it reports). */
export interface ParamsSchema {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string; code?: string }[] } };
}

export type Screened =
  | { message: JSONRPCMessage }
  | { error: { id: string | number | null; code: number; message: string } }
  /** Nothing to answer (a notification the SDK would refuse): dropped. */
  | { drop: true };

/** Methods a client may send before initialize (the protocol's ping, and initialize itself). */
const BEFORE_INIT = new Set(['initialize', 'ping']);

/** How deep a value nests (arrays and objects), counted without recursion; stops counting past `max`. */
export function depthOf(value: unknown, max = MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

export class Screen {
  private initialized = false;
  /** Progress tokens the SDK cannot take (a number with a fraction), by the string that stands for them. */
  private readonly tokens = new Map<string, number>();
  private nextToken = 0;

  constructor(private readonly schemas: Record<string, ParamsSchema>) {}

  /**
   * A line's value before the SDK's schema reads it: a progress token the protocol allows (a number) that the
   * SDK's schema does not (an integer only) stands in as a string, and the notifications carry the client's own
   * token back (outgoing).
   */
  rewrite(value: unknown): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const v = value as { params?: { _meta?: { progressToken?: unknown } } };
    const meta = v.params?._meta;
    const token = meta?.progressToken;
    if (typeof token !== 'number' || Number.isInteger(token) || !Number.isFinite(token)) return value;
    const key = `cssctl-progress-${this.nextToken++}`;
    this.tokens.set(key, token);
    return { ...v, params: { ...v.params, _meta: { ...meta, progressToken: key } } };
  }

  /** An incoming message, as it goes on to the SDK, or the error that answers it. */
  incoming(m: JSONRPCMessage): Screened {
    const msg = m as { id?: string | number; method?: string; params?: unknown };
    if (msg.method === undefined) return { message: m };
    const isRequest = msg.id !== undefined;
    const id = msg.id ?? null;
    const refuse = (code: number, message: string): Screened =>
      isRequest ? { error: { id, code, message } } : { drop: true };
    if (depthOf(msg.params) > MAX_DEPTH)
      return refuse(INVALID_PARAMS, `Invalid params: nested more than ${MAX_DEPTH} levels deep`);
    if (isRequest && !this.initialized && !BEFORE_INIT.has(msg.method))
      return refuse(
        INVALID_REQUEST,
        `Invalid Request: ${msg.method} before initialize; send initialize first`,
      );
    let params = msg.params as Record<string, unknown> | undefined;
    // A task-augmented call, from a client that did not see a tasks capability: run as a plain call (the
    // protocol asks a server without the capability to ignore the augmentation).
    if (msg.method === 'tools/call' && params && 'task' in params) {
      const { task: _task, ...rest } = params;
      params = rest;
    }
    const schema = this.schemas[msg.method];
    if (schema && isRequest) {
      const parsed = schema.safeParse({ method: msg.method, ...(params === undefined ? {} : { params }) });
      if (!parsed.success) return refuse(INVALID_PARAMS, `Invalid params: ${oneLine(parsed.error.issues)}`);
    }
    if (msg.method === 'initialize' && isRequest) this.initialized = true;
    return { message: (params === msg.params ? m : { ...m, params }) as JSONRPCMessage };
  }

  /** An outgoing message: a progress notification carries the client's own token. */
  outgoing(m: JSONRPCMessage): JSONRPCMessage {
    const msg = m as { method?: string; params?: { progressToken?: unknown } };
    if (msg.method !== 'notifications/progress' || typeof msg.params?.progressToken !== 'string') return m;
    const token = this.tokens.get(msg.params.progressToken);
    return token === undefined
      ? m
      : ({ ...m, params: { ...msg.params, progressToken: token } } as JSONRPCMessage);
  }
}

/** The first problem the schema found, in one line: `params.arguments: expected an object`. */
function oneLine(issues: { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'not what the method takes';
  const where = first.path.map(String).join('.') || 'the request';
  const what = first.message.split('\n')[0]!.replace(/\s+/g, ' ').slice(0, 120);
  return `${where}: ${what}`;
}
