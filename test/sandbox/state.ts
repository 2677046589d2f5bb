// Everything the sandbox remembers, in one place so reset() can restore the seed.
import { seedWorkspaces, type User, type Workspace } from './data.js';
import { FaultQueue } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { TokenService } from './jwt.js';
import { RateLimiter } from './ratelimit.js';
import { ScanEngine } from './scans.js';
import type { RecordedRequest, SandboxOptions } from './types.js';
import { WebhookDispatcher } from './webhooks.js';

export class SandboxState {
  workspaces: Map<string, Workspace>;
  tokenTtlSeconds: number;
  clockSkewSeconds: number;
  readonly tokens: TokenService;
  readonly limiter: RateLimiter;
  readonly idempotency = new IdempotencyStore();
  readonly faults: FaultQueue;
  readonly webhooks: WebhookDispatcher;
  readonly scans: ScanEngine;
  readonly requests: RecordedRequest[] = [];

  constructor(readonly options: SandboxOptions) {
    this.workspaces = seedWorkspaces(options.seed, options.findingsPerWorkspace);
    this.tokenTtlSeconds = options.tokenTtlSeconds;
    this.clockSkewSeconds = options.clockSkewSeconds;
    this.tokens = new TokenService(options.jwtSecret);
    this.limiter = new RateLimiter(options.rateWindowSeconds * 1000);
    this.faults = new FaultQueue(options.faultSeed ?? options.seed);
    this.webhooks = new WebhookDispatcher({
      attempts: options.webhookAttempts,
      retryMs: options.webhookRetryMs,
    });
    this.scans = new ScanEngine(options.scanStepMs, this.webhooks, options.complianceThreshold);
    this.faults.add(...options.faults);
  }

  users(): User[] {
    return [...this.workspaces.values()].flatMap((ws) => ws.users);
  }

  userByEmail(email: string): User | undefined {
    const wanted = email.trim().toLowerCase();
    return this.users().find((u) => u.email === wanted);
  }

  userById(id: string): User | undefined {
    return this.users().find((u) => u.id === id);
  }

  /** The signing secret is kept, so access tokens issued before a reset stay valid. */
  reset(): void {
    this.stop();
    this.workspaces = seedWorkspaces(this.options.seed, this.options.findingsPerWorkspace);
    this.tokenTtlSeconds = this.options.tokenTtlSeconds;
    this.clockSkewSeconds = this.options.clockSkewSeconds;
    this.tokens.clear();
    this.limiter.clear();
    this.idempotency.clear();
    this.faults.clear();
    this.faults.add(...this.options.faults);
    this.requests.length = 0;
  }

  /** Cancels scan timers and webhook deliveries in flight. */
  stop(): void {
    this.scans.clear();
    this.webhooks.abortAll();
  }
}
