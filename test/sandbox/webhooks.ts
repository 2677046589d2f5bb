// Webhook URL rules and signed deliveries with retries (the compliance score behind compliance.score_dropped is
// compliance.ts). Deliveries go to loopback receivers only: the sandbox must never reach out to the network,
// whatever URL a user registers.
import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from '../../src/core/webhook-signature.js';
import type { Webhook } from './data.js';
import type { EventType, WebhookDelivery } from './types.js';

const DELIVERY_TIMEOUT_MS = 5_000;

export { sign };

/** `hostname` as URL gives it: 'localhost', '127.0.0.5', '[::1]'. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Returns why `raw` is not an acceptable webhook URL, or undefined when it is. */
export function webhookUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname) ? undefined : 'url must use https (http only for loopback hosts)';
  }
  return 'url must use https';
}

export interface DeliveryPolicy {
  /** Tries in all, the first included (a 2xx ends them). */
  attempts: number;
  /** Wait before the second try; each later wait doubles. */
  retryMs: number;
}

export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = [];
  private controller = new AbortController();

  constructor(private readonly policy: DeliveryPolicy = { attempts: 1, retryMs: 0 }) {}

  /** Fire-and-forget: one signed POST per subscribed webhook; failures are noted and retried, never thrown. */
  dispatch(workspace: string, hooks: readonly Webhook[], event: EventType, data: object): void {
    for (const hook of hooks) {
      if (!hook.events.includes(event)) continue;
      const body = JSON.stringify({ event, timestamp: new Date().toISOString(), workspace, data });
      const delivery: WebhookDelivery = {
        webhookId: hook.id,
        url: hook.url,
        event,
        body,
        signature: sign(hook.secret, body),
        outcome: 'pending',
        attempts: 0,
      };
      this.deliveries.push(delivery);
      if (!isLoopbackHost(new URL(hook.url).hostname)) {
        delivery.outcome = 'skipped';
        continue;
      }
      void this.send(delivery, this.controller.signal);
    }
  }

  /** The same bytes and signature on every try; waits retryMs, 2×, 4×… between tries. */
  private async send(delivery: WebhookDelivery, stop: AbortSignal): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      delivery.attempts = attempt;
      try {
        const res = await fetch(delivery.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'cssctl-sandbox-webhooks/1',
            'X-Service-Signature': delivery.signature,
          },
          body: delivery.body,
          signal: AbortSignal.any([stop, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        await res.body?.cancel();
        delivery.status = res.status;
        if (res.status >= 200 && res.status < 300) {
          delivery.outcome = 'delivered';
          delete delivery.error;
          return;
        }
        delivery.error = `HTTP ${res.status}`;
      } catch (err) {
        delivery.error = err instanceof Error ? err.message : String(err);
      }
      if (stop.aborted || attempt >= this.policy.attempts) {
        delivery.outcome = 'error';
        return;
      }
      try {
        await sleep(this.policy.retryMs * 2 ** (attempt - 1), undefined, { signal: stop, ref: false });
      } catch {
        delivery.outcome = 'error';
        return;
      }
    }
  }

  /** Aborts deliveries in flight and their retries (on close or reset) and forgets the log. */
  abortAll(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.deliveries.length = 0;
  }
}
