// The compliance score behind GET /compliance (cli-contract.md §14, assumed) and compliance.score_dropped.
//
// A workspace's score starts at 100 (its seeded history is not scored) and counts the critical and high findings
// of the latest completed scan of each of its connections: each critical keeps 70% of the score, each high 95%
// (100 × 0.7^critical × 0.95^high, one decimal). So it falls when a scan brings new critical or high findings —
// one critical and one high take a fresh workspace below the default threshold of 70, and a scan of most
// connections finds both ("clean" and "nocrit" aside) — never quite reaches 0, and rises again when a later scan
// of the same connection finds fewer (a clean scan gives that connection's share back). A drop is the score
// crossing from at or above the threshold to below it; the scan engine then sends compliance.score_dropped.
import type { SeverityCounts } from './data.js';

/** What of the score a critical and a high finding of a connection's latest scan leave. */
export const COMPLIANCE_FACTORS = { critical: 0.7, high: 0.95 } as const;

/** The score for so many critical and high findings: 0–100, one decimal. */
export function complianceScore(critical: number, high: number): number {
  const score = 100 * COMPLIANCE_FACTORS.critical ** critical * COMPLIANCE_FACTORS.high ** high;
  return Math.round(score * 10) / 10;
}

/** What GET /compliance answers. */
export interface ComplianceJson {
  score: number;
  threshold: number;
  computed_at: string;
  /** The critical and high findings the score counts (latest completed scan of each connection). */
  critical_count: number;
  high_count: number;
}

interface WorkspaceScore {
  /** Per connection alias, the critical and high findings of its latest completed scan. */
  connections: Map<string, { critical: number; high: number }>;
  computedMs: number;
}

export class ComplianceTracker {
  private readonly workspaces = new Map<string, WorkspaceScore>();

  /** `since`: the time the score of a workspace no scan has changed yet was computed (the sandbox's start). */
  constructor(
    readonly threshold: number,
    private readonly since = Date.now(),
  ) {}

  private totals(ws: string): { critical: number; high: number } {
    let critical = 0;
    let high = 0;
    for (const c of this.workspaces.get(ws)?.connections.values() ?? []) {
      critical += c.critical;
      high += c.high;
    }
    return { critical, high };
  }

  score(ws: string): number {
    const t = this.totals(ws);
    return complianceScore(t.critical, t.high);
  }

  json(ws: string): ComplianceJson {
    const t = this.totals(ws);
    return {
      score: complianceScore(t.critical, t.high),
      threshold: this.threshold,
      computed_at: new Date(this.workspaces.get(ws)?.computedMs ?? this.since).toISOString(),
      critical_count: t.critical,
      high_count: t.high,
    };
  }

  /**
   * A completed scan of `connection`: its counts replace the connection's. Returns the new and the previous
   * score when this is a drop below the threshold.
   */
  record(
    ws: string,
    connection: string,
    counts: Pick<SeverityCounts, 'critical' | 'high'>,
    atMs: number,
  ): { score: number; previous: number } | undefined {
    const previous = this.score(ws);
    let entry = this.workspaces.get(ws);
    if (!entry) {
      entry = { connections: new Map(), computedMs: atMs };
      this.workspaces.set(ws, entry);
    }
    entry.connections.set(connection.toLowerCase(), { critical: counts.critical, high: counts.high });
    entry.computedMs = atMs;
    const score = this.score(ws);
    return previous >= this.threshold && score < this.threshold ? { score, previous } : undefined;
  }

  clear(): void {
    this.workspaces.clear();
  }
}
