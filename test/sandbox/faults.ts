// Injected faults: a FIFO queue, and the SANDBOX_FAULTS syntax that fills it.
import type { Fault } from './types.js';

interface Queued {
  fault: Fault;
  left: number;
}

export class FaultQueue {
  private queue: Queued[] = [];

  add(...faults: Fault[]): void {
    for (const fault of faults) {
      const left = fault.count ?? 1;
      if (!Number.isInteger(left) || left < 1) throw new Error(`fault count must be a positive integer`);
      this.queue.push({ fault, left });
    }
  }

  /** The first queued fault (in order of injection) that matches the request, spending one of its uses. */
  take(method: string, apiPath: string): Fault | undefined {
    const i = this.queue.findIndex(
      ({ fault }) =>
        (fault.method === undefined || fault.method.toUpperCase() === method) &&
        (fault.path === undefined || apiPath.startsWith(fault.path)),
    );
    const entry = this.queue[i];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left === 0) this.queue.splice(i, 1);
    return entry.fault;
  }

  get size(): number {
    return this.queue.length;
  }

  clear(): void {
    this.queue = [];
  }
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'status':
      return `status:${fault.status}`;
    case 'slow':
      return `slow:${fault.ms}`;
    case 'cut':
      return fault.after ? 'cut:after' : 'cut';
    case 'stall-body':
      return `stall-body:${fault.ms}`;
  }
}

export const FAULT_SYNTAX = `KIND[:PARAM][xCOUNT][@[METHOD]/path-prefix], comma-separated; KIND is 429[:retry-after-s], 500, 502, 503, 504, slow:MS, cut (or reset), cut:after, stall:MS (or stall-body:MS)`;

const ENTRY = /^(\d{3}|[a-z][a-z-]*)(?::(\d+|after))?(?:\s*x\s*(\d+))?(?:\s*@\s*([a-z]+)?(\/\S*))?$/i;

/**
 * Parses e.g. "500x3, 429:2x1@/scans, slow:5000, cut@POST/connections, stall:3000x2".
 * COUNT defaults to 1; the path prefix is relative to /api/v1. Throws with a one-line message.
 */
export function parseFaults(spec: string): Fault[] {
  const faults: Fault[] = [];
  for (const raw of spec.split(',')) {
    const text = raw.trim();
    if (text === '') continue;
    const m = ENTRY.exec(text);
    if (!m) throw new Error(`bad fault "${text}": expected ${FAULT_SYNTAX}`);
    const [, kind = '', param, countText, method, path] = m;
    const target = {
      count: countText === undefined ? 1 : Number(countText),
      ...(path === undefined ? {} : { path }),
      ...(method === undefined ? {} : { method: method.toUpperCase() }),
    };
    if (target.count < 1) throw new Error(`bad fault "${text}": count must be at least 1`);
    const ms = param === undefined || param === 'after' ? undefined : Number(param);
    const needMs = (): number => {
      if (ms === undefined) throw new Error(`bad fault "${text}": ${kind} needs :MS, e.g. ${kind}:2000`);
      return ms;
    };
    switch (kind.toLowerCase()) {
      case '429':
        faults.push({
          kind: 'status',
          status: 429,
          ...target,
          ...(ms === undefined ? {} : { retryAfterSeconds: ms }),
        });
        break;
      case '500':
      case '502':
      case '503':
      case '504':
        if (param !== undefined) throw new Error(`bad fault "${text}": ${kind} takes no parameter`);
        faults.push({ kind: 'status', status: Number(kind) as 500 | 502 | 503 | 504, ...target });
        break;
      case 'slow':
        faults.push({ kind: 'slow', ms: needMs(), ...target });
        break;
      case 'stall':
      case 'stall-body':
        faults.push({ kind: 'stall-body', ms: needMs(), ...target });
        break;
      case 'cut':
      case 'reset':
        if (ms !== undefined) throw new Error(`bad fault "${text}": ${kind} takes only :after`);
        faults.push({ kind: 'cut', ...target, ...(param === 'after' ? { after: true } : {}) });
        break;
      default:
        throw new Error(`bad fault "${text}": unknown kind "${kind}"; expected ${FAULT_SYNTAX}`);
    }
  }
  return faults;
}
