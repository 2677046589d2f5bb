// The in-memory data of the sandbox and its deterministic seed.
import { hashSeed, intBetween, mulberry32, pick, stableId } from './rng.js';
import type { Rng } from './rng.js';
import { SEVERITIES } from './types.js';
import type { DemoCredential, EventType, Role, Severity } from './types.js';

export interface User {
  id: string;
  email: string;
  password: string;
  role: Role;
  workspace: string;
}

export interface Connection {
  id: string;
  alias: string;
  provider: string;
  created_at: string;
  status: string;
  /** Any other string fields given at creation. */
  [field: string]: string;
}

export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  resource: string;
  connection_alias: string;
  scan_id: string;
  status: 'open';
  created_at: string;
}

export type SeverityCounts = Record<Severity, number>;

export interface Scan {
  scan_id: string;
  connection_alias: string;
  provider: string;
  createdMs: number;
  /** When the scan moves to running, then to its final status (the status is derived from the clock). */
  startMs: number;
  endMs: number;
  /** Connections whose alias contains "fail" produce failed scans. */
  willFail: boolean;
  /** True once the final status is recorded: findings added, summary filled, webhooks sent. */
  settled: boolean;
  counts: SeverityCounts;
  risk_score: number;
  error: string | null;
}

export interface Webhook {
  id: string;
  url: string;
  events: EventType[];
  secret: string;
  created_at: string;
}

export class Workspace {
  readonly users: User[] = [];
  readonly connections: Connection[] = [];
  /** Kept sorted by id: pagination order is by id and must stay stable. */
  findings: Finding[] = [];
  readonly scans: Scan[] = [];
  readonly webhooks: Webhook[] = [];
  private idCounter = 0;
  private findingCounter = 0;

  constructor(
    readonly slug: string,
    readonly seed: number,
  ) {}

  /** Ids for objects created at run time: deterministic too, so a reset sandbox repeats itself. */
  nextId(prefix: string): string {
    this.idCounter += 1;
    return stableId(prefix, this.seed, this.slug, 'runtime', this.idCounter);
  }

  nextFindingId(): string {
    this.findingCounter += 1;
    return stableId('fnd', this.seed, this.slug, 'finding', this.findingCounter);
  }

  addFindings(found: Finding[]): void {
    // Not push(...found): 200,000 arguments overflow the stack (the bench's largest export).
    for (const f of found) this.findings.push(f);
    this.findings.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  connectionByAlias(alias: string): Connection | undefined {
    const wanted = alias.toLowerCase();
    return this.connections.find((c) => c.alias.toLowerCase() === wanted);
  }
}

// ---- seed ------------------------------------------------------------------------------------

/** Seeded data is dated in the past at fixed times, so it is the same on every run. */
const SEED_EPOCH = Date.UTC(2025, 5, 2, 8, 0, 0);
const DAY = 86_400_000;

const SEED_CONNECTIONS: Record<string, [alias: string, provider: string][]> = {
  acme: [
    ['prod', 'aws'],
    ['staging', 'gcp'],
    ['dev', 'azure'],
    ['legacy-fail', 'aws'],
  ],
  globex: [
    ['prod', 'gcp'],
    ['analytics', 'aws'],
    ['infra', 'azure'],
    ['legacy-fail', 'gcp'],
  ],
};

export const WORKSPACE_SLUGS = Object.keys(SEED_CONNECTIONS);

/** Fixed demo passwords: printed in the banner, so nothing secret. */
export function demoCredentials(): DemoCredential[] {
  return WORKSPACE_SLUGS.flatMap((ws) => [
    { workspace: ws, email: `owner@${ws}.test`, password: `demo-owner-${ws}`, role: 'owner' as const },
    { workspace: ws, email: `reader@${ws}.test`, password: `demo-reader-${ws}`, role: 'read_only' as const },
  ]);
}

// Weights give many lows and few criticals, as real scans do.
const SEVERITY_WEIGHTS: [Severity, number][] = [
  ['critical', 0.04],
  ['high', 0.14],
  ['medium', 0.3],
  ['low', 0.37],
  ['info', 0.15],
];

function weightedSeverity(rng: Rng): Severity {
  let r = rng();
  for (const [severity, weight] of SEVERITY_WEIGHTS) {
    if (r < weight) return severity;
    r -= weight;
  }
  return 'info';
}

type ResourceFn = (ws: string, n: number) => string;
// Some titles carry commas, quotes and non-ASCII on purpose: CSV and table output must cope with them.
const CHECKS: Record<string, [title: string, resource: ResourceFn][]> = {
  aws: [
    ['S3 bucket allows public read access', (ws, n) => `arn:aws:s3:::${ws}-data-${n}`],
    [
      'Security group allows 0.0.0.0/0 on port 22',
      (_ws, n) => `arn:aws:ec2:us-east-1:123456789012:security-group/sg-${n.toString(16).padStart(8, '0')}`,
    ],
    [
      'IAM policy grants "*" actions, including iam:PassRole',
      (ws, n) => `arn:aws:iam::123456789012:policy/${ws}-policy-${n}`,
    ],
    [
      'CloudTrail logging disabled in region',
      (_ws, n) => `arn:aws:cloudtrail:eu-west-1:123456789012:trail/trail-${n}`,
    ],
    ['RDS instance not encrypted at rest', (ws, n) => `arn:aws:rds:us-east-1:123456789012:db:${ws}-db-${n}`],
    ['Root account has active access keys', () => 'arn:aws:iam::123456789012:root'],
  ],
  gcp: [
    [
      'Cloud Storage bucket is publicly accessible',
      (ws, n) => `projects/${ws}-prod/buckets/${ws}-assets-${n}`,
    ],
    [
      'Firewall rule allows ingress from 0.0.0.0/0',
      (ws, n) => `projects/${ws}-prod/global/firewalls/allow-all-${n}`,
    ],
    [
      'Service account key older than 90 days',
      (ws, n) => `projects/${ws}-prod/serviceAccounts/svc-${n}@${ws}-prod.iam.gserviceaccount.com`,
    ],
    ['Cloud SQL instance has a public IP', (ws, n) => `projects/${ws}-prod/instances/sql-${n}`],
  ],
  azure: [
    [
      'Storage account allows blob public access',
      (ws, n) =>
        `/subscriptions/0000-${ws}/resourceGroups/rg-${n % 7}/providers/Microsoft.Storage/storageAccounts/st${n}`,
    ],
    [
      'NSG allows RDP (3389) from the Internet',
      (ws, n) =>
        `/subscriptions/0000-${ws}/resourceGroups/rg-${n % 7}/providers/Microsoft.Network/networkSecurityGroups/nsg-${n}`,
    ],
    [
      'Key Vault purge protection disabled — soft delete only',
      (ws, n) =>
        `/subscriptions/0000-${ws}/resourceGroups/rg-${n % 7}/providers/Microsoft.KeyVault/vaults/kv-${n}`,
    ],
    [
      'SQL server auditing is off',
      (ws, n) =>
        `/subscriptions/0000-${ws}/resourceGroups/rg-${n % 7}/providers/Microsoft.Sql/servers/sql-${n}`,
    ],
  ],
};

/**
 * Makes `count` findings for a scan. The first five cover every severity, so even a small
 * workspace has each severity present; the rest follow the weights.
 */
export function makeFindings(
  ws: Workspace,
  scan: Scan,
  count: number,
  rng: Rng,
  createdAt: string,
): Finding[] {
  const checks = CHECKS[scan.provider] ?? CHECKS.aws ?? [];
  const found: Finding[] = [];
  for (let i = 0; i < count; i += 1) {
    const [title, resource] = pick(rng, checks);
    found.push({
      id: ws.nextFindingId(),
      severity: SEVERITIES[i] ?? weightedSeverity(rng),
      title,
      resource: resource(ws.slug, intBetween(rng, 1, 999)),
      connection_alias: scan.connection_alias,
      scan_id: scan.scan_id,
      status: 'open',
      created_at: createdAt,
    });
  }
  return found;
}

/** The problems every scan of a "drift" connection starts from, with their severities. */
const DRIFT_BASE: Severity[] = [
  'critical',
  'high',
  'medium',
  'low',
  'info',
  'high',
  'medium',
  'low',
  'medium',
  'high',
];

/**
 * The findings of run `run` (0 for the first completed scan) of a connection whose alias holds "drift": the
 * same problems on the same resources from run to run (new ids each time), so that two scans can be compared —
 * except that run k > 0 no longer has problem k mod 10 (fixed), rates problem (k + 3) mod 10 one step more
 * severe (updated) and finds one problem no earlier run had (new, high).
 */
export function driftFindings(ws: Workspace, scan: Scan, run: number, createdAt: string): Finding[] {
  const checks = CHECKS[scan.provider] ?? CHECKS.aws ?? [];
  const make = (i: number, severity: Severity): Finding => {
    const [title, resource] = checks[i % checks.length]!;
    return {
      id: ws.nextFindingId(),
      severity,
      title,
      resource: resource(ws.slug, 100 + i),
      connection_alias: scan.connection_alias,
      scan_id: scan.scan_id,
      status: 'open',
      created_at: createdAt,
    };
  };
  const found: Finding[] = [];
  DRIFT_BASE.forEach((severity, i) => {
    if (run > 0 && i === run % DRIFT_BASE.length) return;
    const rose = run > 0 && i === (run + 3) % DRIFT_BASE.length;
    found.push(
      make(i, rose ? (SEVERITIES[Math.max(0, SEVERITIES.indexOf(severity) - 1)] as Severity) : severity),
    );
  });
  if (run > 0) found.push(make(1000 + run, 'high'));
  return found;
}

export function emptyCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}

export function countSeverities(found: readonly Finding[]): SeverityCounts {
  const counts = emptyCounts();
  for (const f of found) counts[f.severity] += 1;
  return counts;
}

/** Mean severity weight on a 0–10 scale, one decimal: a decimal number, as the spec says. */
export function riskScore(counts: SeverityCounts): number {
  const total = SEVERITIES.reduce((sum, s) => sum + counts[s], 0);
  if (total === 0) return 0;
  const weighted = 9.5 * counts.critical + 7 * counts.high + 4 * counts.medium + 1.5 * counts.low;
  return Math.round((weighted / total) * 10) / 10;
}

export function failureMessage(alias: string): string {
  return `the provider rejected the credentials of connection "${alias}"`;
}

/** Two workspaces, each with an owner, a read-only member, four connections, a few scans and the findings. */
export function seedWorkspaces(seed: number, findingsPerWorkspace: number): Map<string, Workspace> {
  const workspaces = new Map<string, Workspace>();
  for (const cred of demoCredentials()) {
    let ws = workspaces.get(cred.workspace);
    if (!ws) {
      ws = new Workspace(cred.workspace, seed);
      workspaces.set(ws.slug, ws);
    }
    ws.users.push({ ...cred, id: stableId('usr', seed, cred.email) });
  }

  for (const ws of workspaces.values()) {
    const rng = mulberry32(hashSeed(seed, ws.slug, 'seed'));
    for (const [i, [alias, provider]] of (SEED_CONNECTIONS[ws.slug] ?? []).entries()) {
      ws.connections.push({
        id: stableId('con', seed, ws.slug, alias),
        alias,
        provider,
        created_at: new Date(SEED_EPOCH - (90 - i) * DAY).toISOString(),
        status: 'active',
      });
    }

    // One completed scan per healthy connection, one failed scan for the failing one.
    const scans = ws.connections.map((c, i): Scan => {
      const createdMs = SEED_EPOCH + i * DAY;
      const willFail = c.alias.includes('fail');
      return {
        scan_id: stableId('scn', seed, ws.slug, 'seed', i),
        connection_alias: c.alias,
        provider: c.provider,
        createdMs,
        startMs: createdMs + 4_000,
        endMs: createdMs + 11 * 60_000,
        willFail,
        settled: true,
        counts: emptyCounts(),
        risk_score: 0,
        error: willFail ? failureMessage(c.alias) : null,
      };
    });
    ws.scans.push(...scans);

    // Spread the findings over the completed scans, then fill each scan's summary from them.
    const completed = scans.filter((s) => !s.willFail);
    const perScan = completed.map(() => 0);
    for (let i = 0; i < findingsPerWorkspace; i += 1) {
      const k = i < completed.length ? i : Math.floor(rng() * completed.length);
      perScan[k] = (perScan[k] ?? 0) + 1;
    }
    const all: Finding[] = [];
    for (const [k, scan] of completed.entries()) {
      const found = makeFindings(ws, scan, perScan[k] ?? 0, rng, new Date(scan.endMs).toISOString());
      scan.counts = countSeverities(found);
      scan.risk_score = riskScore(scan.counts);
      for (const f of found) all.push(f);
    }
    ws.addFindings(all);
  }
  return workspaces;
}
