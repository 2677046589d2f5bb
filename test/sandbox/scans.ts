// Scan lifecycle: queued → running → completed | failed, one scanStepMs per step. A connection whose alias
// contains "fail" always fails; "clean" finds nothing; "nocrit" finds no critical (but at least one high);
// "slow" takes a hundred steps per step (a scan a test can rely on finding unfinished).
// The status is derived from the clock when read, so no timer is needed for it; a single unref'd
// timer per scan only makes sure webhooks go out even when nobody polls.
import {
  countSeverities,
  driftFindings,
  failureMessage,
  makeFindings,
  riskScore,
  emptyCounts,
  type Connection,
  type Scan,
  type Workspace,
} from './data.js';
import { hashSeed, intBetween, mulberry32 } from './rng.js';
import type { ScanStatus } from './types.js';
import { ComplianceTracker } from './compliance.js';
import type { WebhookDispatcher } from './webhooks.js';

export interface ScanJson {
  scan_id: string;
  connection_alias: string;
  provider: string;
  status: ScanStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  total_findings: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count: number;
  risk_score: number;
  error: string | null;
}

export function scanStatus(scan: Scan, now: number): ScanStatus {
  if (scan.settled) return scan.willFail ? 'failed' : 'completed';
  return now >= scan.startMs ? 'running' : 'queued';
}

export function scanJson(scan: Scan, now: number): ScanJson {
  const c = scan.counts;
  return {
    scan_id: scan.scan_id,
    connection_alias: scan.connection_alias,
    provider: scan.provider,
    status: scanStatus(scan, now),
    created_at: new Date(scan.createdMs).toISOString(),
    started_at: now >= scan.startMs ? new Date(scan.startMs).toISOString() : null,
    completed_at: scan.settled ? new Date(scan.endMs).toISOString() : null,
    total_findings: c.critical + c.high + c.medium + c.low + c.info,
    critical_count: c.critical,
    high_count: c.high,
    medium_count: c.medium,
    low_count: c.low,
    info_count: c.info,
    risk_score: scan.risk_score,
    error: scan.error,
  };
}

export class ScanEngine {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The workspaces' compliance scores (GET /compliance). */
  readonly compliance: ComplianceTracker;

  constructor(
    private readonly stepMs: number,
    private readonly webhooks: WebhookDispatcher,
    complianceThreshold = 70,
  ) {
    this.compliance = new ComplianceTracker(complianceThreshold);
  }

  create(ws: Workspace, connection: Connection, now: number): Scan {
    const step = connection.alias.toLowerCase().includes('slow') ? 100 * this.stepMs : this.stepMs;
    const scan: Scan = {
      scan_id: ws.nextId('scn'),
      connection_alias: connection.alias,
      provider: connection.provider,
      createdMs: now,
      startMs: now + step,
      endMs: now + 2 * step,
      willFail: connection.alias.toLowerCase().includes('fail'),
      settled: false,
      counts: emptyCounts(),
      risk_score: 0,
      error: null,
    };
    ws.scans.push(scan);
    // unref: a pending scan never keeps the process (or a test run) alive.
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.settle(ws, scan);
      },
      2 * step + 5,
    );
    timer.unref();
    this.timers.add(timer);
    return scan;
  }

  /** Records the final state of every scan whose time has come; call before reading scans or findings. */
  settleDue(ws: Workspace, now: number): void {
    for (const scan of ws.scans) if (!scan.settled && now >= scan.endMs) this.settle(ws, scan);
  }

  private settle(ws: Workspace, scan: Scan): void {
    if (scan.settled) return;
    scan.settled = true;
    if (scan.willFail) {
      scan.error = failureMessage(scan.connection_alias);
    } else {
      // Seeded by the scan id, so the same scan always finds the same things.
      const rng = mulberry32(hashSeed(ws.seed, ws.slug, scan.scan_id));
      // Aliases pick what a scan finds: "clean" nothing at all, "nocrit" no critical finding (but a high one).
      const alias = scan.connection_alias.toLowerCase();
      const count = alias.includes('clean') ? 0 : intBetween(rng, 10, 40);
      const createdAt = new Date(scan.endMs).toISOString();
      // "drift": the same problems from run to run, a few of them changed (data.ts, driftFindings).
      const run = ws.scans.filter(
        (s) => s !== scan && s.settled && !s.willFail && s.connection_alias === scan.connection_alias,
      ).length;
      const found = alias.includes('drift')
        ? driftFindings(ws, scan, run, createdAt)
        : makeFindings(ws, scan, count, rng, createdAt);
      if (alias.includes('nocrit')) for (const f of found) if (f.severity === 'critical') f.severity = 'high';
      ws.addFindings(found);
      scan.counts = countSeverities(found);
      scan.risk_score = riskScore(scan.counts);
      for (const f of found) {
        if (f.severity === 'critical') this.webhooks.dispatch(ws.slug, ws.webhooks, 'finding.critical', f);
        if (f.severity === 'high') this.webhooks.dispatch(ws.slug, ws.webhooks, 'finding.high', f);
      }
    }
    const json = scanJson(scan, scan.endMs);
    const summary = {
      scan_id: json.scan_id,
      connection_alias: json.connection_alias,
      provider: json.provider,
      status: json.status,
      total_findings: json.total_findings,
      critical_count: json.critical_count,
      risk_score: json.risk_score,
      ...(scan.error === null ? {} : { error: scan.error }),
    };
    // Per the spec, scan.completed is sent on success or failure; scan.failed on failure only.
    this.webhooks.dispatch(ws.slug, ws.webhooks, 'scan.completed', summary);
    if (scan.willFail) this.webhooks.dispatch(ws.slug, ws.webhooks, 'scan.failed', summary);
    if (!scan.willFail) {
      // New critical or high findings lower the score (compliance.ts); below the threshold, an event says so.
      const drop = this.compliance.record(ws.slug, scan.connection_alias, scan.counts, scan.endMs);
      if (drop) {
        this.webhooks.dispatch(ws.slug, ws.webhooks, 'compliance.score_dropped', {
          score: drop.score,
          previous_score: drop.previous,
          threshold: this.compliance.threshold,
          scan_id: scan.scan_id,
          connection_alias: scan.connection_alias,
        });
      }
    }
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.compliance.clear();
  }
}
