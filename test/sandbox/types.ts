// Public types of the sandbox service (see server.ts for startSandbox).

export type Role = 'owner' | 'read_only';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const EVENT_TYPES = [
  'scan.completed',
  'scan.failed',
  'finding.critical',
  'finding.high',
  'compliance.score_dropped',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const SCAN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export const PROVIDERS = ['aws', 'gcp', 'azure'] as const;

/** Fields that SandboxOptions.refreshOmit can drop from the /auth/refresh answer. */
export type RefreshField = 'refresh_token' | 'expires_in';

/**
 * Where a fault applies: the next `count` (default 1) requests whose method and path match — or, with
 * `percent` or `every`, a share of them for as long as the sandbox runs (never used up).
 */
export interface FaultTarget {
  count?: number;
  /** Recurring: each matching request has this chance in percent (seeded: see SandboxOptions.faultSeed). */
  percent?: number;
  /** Recurring: every Nth matching request (the Nth, the 2Nth, …). */
  every?: number;
  /** Path prefix relative to /api/v1, e.g. '/connections'. Absent: every path. */
  path?: string;
  /** Upper-case HTTP method. Absent: every method. */
  method?: string;
  /** One-shot faults only: let this many matching requests through untouched first (`hang>1@GET/scans/`). */
  skip?: number;
}

export type Fault =
  | (FaultTarget & {
      kind: 'status';
      status: 429 | 500 | 502 | 503 | 504;
      /** For 429 only: Retry-After and the distance of X-RateLimit-Reset; default 1. */
      retryAfterSeconds?: number;
    })
  /** The request is handled at once; its answer (headers included) is held back `ms`. */
  | (FaultTarget & { kind: 'slow'; ms: number })
  /** Reset the connection. `after: true` handles the request first, so only the answer is lost. */
  | (FaultTarget & { kind: 'cut'; after?: boolean })
  /** Send status and headers, then wait `ms` before the body. */
  | (FaultTarget & { kind: 'stall-body'; ms: number })
  /** Never answer: the request is held, unhandled, until the client leaves or the sandbox closes. */
  | (FaultTarget & { kind: 'hang' });

export interface SandboxOptions {
  host: string;
  port: number;
  tokenTtlSeconds: number;
  rateLimit: number;
  scanRateLimit: number;
  loginRateLimit: number;
  rateWindowSeconds: number;
  maxPageSize: number;
  defaultPageSize: number;
  scanStepMs: number;
  findingsPerWorkspace: number;
  refreshOmit: RefreshField[];
  faults: Fault[];
  seed: number;
  /** Seed of the `percent` faults' dice, so a faulty run can be repeated exactly (default: `seed`). */
  faultSeed?: number;
  jwtSecret: string;
  /** Webhook delivery tries in all (the first included), and the wait before the second (doubling after). */
  webhookAttempts: number;
  webhookRetryMs: number;
  /** compliance.score_dropped fires when a workspace's score (0–100) crosses below this. */
  complianceThreshold: number;
  /** GET /compliance is served (false: a 404, as a service that does not publish a score answers). */
  complianceEndpoint: boolean;
  /**
   * Seconds added to the time every answer's `Date` header gives (negative: behind), as a client whose clock is
   * off sees the service (`cssctl doctor`'s clock check). 0: the true time.
   */
  clockSkewSeconds: number;
}

export interface RecordedRequest {
  /** The X-Request-Id answered. */
  id: string;
  method: string;
  /** Full path as received (with /api/v1), without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names, full values (repeated headers joined with ', '). */
  headers: Record<string, string>;
  body: string;
  /** Status answered; 0 while pending or when the connection was cut. */
  status: number;
  /** Epoch ms at which the request arrived. */
  time: number;
  /** ms from arrival to the end of the answer. */
  durationMs: number;
  /** The injected fault that hit this request, e.g. 'status:500', 'slow:200', 'cut'. */
  fault?: string;
  /** True when the answer was an Idempotency-Key replay. */
  replayed?: boolean;
}

export interface DemoCredential {
  workspace: string;
  email: string;
  password: string;
  role: Role;
}

export interface WebhookDelivery {
  webhookId: string;
  url: string;
  event: EventType;
  /** The exact bytes sent (or that would have been sent). */
  body: string;
  signature: string;
  /** 'skipped' when the URL is not loopback: the sandbox never talks to other hosts. 'pending' while
   * tries remain; 'error' when every try failed (no answer, or not a 2xx). */
  outcome: 'pending' | 'delivered' | 'error' | 'skipped';
  /** Tries made so far. */
  attempts: number;
  /** The last answer's status, and the last failure. */
  status?: number;
  error?: string;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:8787 (without /api/v1). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  injectFaults(...faults: Fault[]): void;
  /** Drops every fault still queued or recurring (data, tokens and limits stay as they are). */
  clearFaults(): void;
  readonly credentials: DemoCredential[];
  /** Lifetime of access tokens issued from now on (login and refresh). */
  setTokenTtl(seconds: number): void;
  /** The skew of the `Date` header answered from now on (SandboxOptions.clockSkewSeconds). */
  setClockSkew(seconds: number): void;
  revokeAllRefreshTokens(): void;
  /** A valid access token for a seeded user; a negative ttl gives an already expired one. */
  issueAccessToken(email: string, ttlSeconds: number): Promise<string>;
  /** Back to the seeded state: data, tokens, limits, faults, idempotency keys, requests, deliveries. */
  reset(): void;
  /** Webhook deliveries attempted (or skipped), in order of dispatch. */
  readonly deliveries: WebhookDelivery[];
}
