// Injected faults: a FIFO queue, and the SANDBOX_FAULTS syntax that fills it.
import { mulberry32, type Rng } from './rng.js';
import type { Fault } from './types.js';

interface Queued {
  fault: Fault;
  left: number;
  /** Matching requests still to let through before the fault starts. */
  skip: number;
}

interface Recurring {
  fault: Fault;
  /** Matching requests seen so far (for `every`). */
  seen: number;
}

export class FaultQueue {
  private queue: Queued[] = [];
  private recurring: Recurring[] = [];
  private rng: Rng;

  constructor(private readonly seed = 1) {
    this.rng = mulberry32(seed);
  }

  add(...faults: Fault[]): void {
    for (const fault of faults) {
      if (fault.percent !== undefined || fault.every !== undefined) {
        const { percent, every } = fault;
        if (percent !== undefined && !(percent > 0 && percent <= 100))
          throw new Error('fault percent must be above 0 and at most 100');
        if (every !== undefined && !(Number.isInteger(every) && every >= 1))
          throw new Error('fault every must be a positive integer');
        if (percent !== undefined && every !== undefined)
          throw new Error('a fault takes percent or every, not both');
        if (fault.skip !== undefined) throw new Error('a recurring fault takes no skip');
        this.recurring.push({ fault, seen: 0 });
        continue;
      }
      const left = fault.count ?? 1;
      if (!Number.isInteger(left) || left < 1) throw new Error(`fault count must be a positive integer`);
      const skip = fault.skip ?? 0;
      if (!Number.isInteger(skip) || skip < 0) throw new Error('fault skip must be a whole number');
      this.queue.push({ fault, left, skip });
    }
  }

  /**
   * The first queued fault (in order of injection) that matches the request and has let through the requests
   * it was told to skip (each matching request counts down one skip), spending one of its uses;
   * else the first recurring fault whose turn it is. Every recurring fault that matches counts the request
   * (and rolls its dice), whether or not an earlier one fires, so each keeps its own rate.
   */
  take(method: string, apiPath: string): Fault | undefined {
    const matches = (fault: Fault) =>
      (fault.method === undefined || fault.method.toUpperCase() === method) &&
      (fault.path === undefined || apiPath.startsWith(fault.path));
    const i = this.queue.findIndex((q) => {
      if (!matches(q.fault)) return false;
      if (q.skip === 0) return true;
      q.skip -= 1;
      return false;
    });
    const entry = this.queue[i];
    if (entry) {
      entry.left -= 1;
      if (entry.left === 0) this.queue.splice(i, 1);
      return entry.fault;
    }
    let hit: Fault | undefined;
    for (const r of this.recurring) {
      if (!matches(r.fault)) continue;
      r.seen += 1;
      const due =
        r.fault.every !== undefined
          ? r.seen % r.fault.every === 0
          : this.rng() * 100 < (r.fault.percent ?? 0);
      if (due) hit ??= r.fault;
    }
    return hit;
  }

  get size(): number {
    return this.queue.length + this.recurring.length;
  }

  /** Drops every fault and restarts the dice, so a reset sandbox repeats the same run. */
  clear(): void {
    this.queue = [];
    this.recurring = [];
    this.rng = mulberry32(this.seed);
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
    case 'hang':
      return 'hang';
  }
}

export const FAULT_SYNTAX = `KIND[:PARAM][xCOUNT|%PERCENT|/EVERY][>SKIP][@[METHOD]/path-prefix], comma-separated; KIND is 429[:retry-after-s], 500, 502, 503, 504, slow:MS, cut (or reset), cut:after, stall:MS (or stall-body:MS), hang (never answers); >SKIP lets that many matching requests through first; %PERCENT (that share of requests, seeded by SANDBOX_FAULT_SEED) and /EVERY (every Nth request) recur for as long as the sandbox runs`;

const ENTRY =
  /^(\d{3}|[a-z][a-z-]*)(?::(\d+|after))?(?:\s*x\s*(\d+)|\s*%\s*(\d+(?:\.\d+)?)|\s*\/\s*(\d+))?(?:\s*>\s*(\d+))?(?:\s*@\s*([a-z]+)?(\/\S*))?$/i;

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
    const [, kind = '', param, countText, percentText, everyText, skipText, method, path] = m;
    if (skipText !== undefined && (percentText !== undefined || everyText !== undefined))
      throw new Error(`bad fault "${text}": >SKIP is for one-shot faults, not %PERCENT or /EVERY`);
    const target = {
      ...(percentText === undefined && everyText === undefined
        ? { count: countText === undefined ? 1 : Number(countText) }
        : {}),
      ...(percentText === undefined ? {} : { percent: Number(percentText) }),
      ...(everyText === undefined ? {} : { every: Number(everyText) }),
      ...(skipText === undefined ? {} : { skip: Number(skipText) }),
      ...(path === undefined ? {} : { path }),
      ...(method === undefined ? {} : { method: method.toUpperCase() }),
    };
    if (target.count !== undefined && target.count < 1)
      throw new Error(`bad fault "${text}": count must be at least 1`);
    if (target.percent !== undefined && !(target.percent > 0 && target.percent <= 100))
      throw new Error(`bad fault "${text}": a percentage must be above 0 and at most 100`);
    if (target.every !== undefined && target.every < 1)
      throw new Error(`bad fault "${text}": /EVERY must be at least 1`);
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
      case 'hang':
        if (param !== undefined) throw new Error(`bad fault "${text}": hang takes no parameter`);
        faults.push({ kind: 'hang', ...target });
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
