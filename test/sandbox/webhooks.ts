// Webhook URL rules and signed deliveries. Deliveries go to loopback receivers only: the sandbox
// must never reach out to the network, whatever URL a user registers.
import { createHmac } from 'node:crypto';
import type { Webhook } from './data.js';
import type { EventType, WebhookDelivery } from './types.js';

const DELIVERY_TIMEOUT_MS = 5_000;

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

export function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = [];
  private controller = new AbortController();

  /** Fire-and-forget: one signed POST per subscribed webhook; failures are noted, never thrown. */
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
      };
      this.deliveries.push(delivery);
      if (!isLoopbackHost(new URL(hook.url).hostname)) {
        delivery.outcome = 'skipped';
        continue;
      }
      void this.send(delivery);
    }
  }

  private async send(delivery: WebhookDelivery): Promise<void> {
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'cssctl-sandbox-webhooks/1',
          'X-Service-Signature': delivery.signature,
        },
        body: delivery.body,
        signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await res.body?.cancel();
      delivery.outcome = 'delivered';
      delivery.status = res.status;
    } catch (err) {
      delivery.outcome = 'error';
      delivery.error = err instanceof Error ? err.message : String(err);
    }
  }

  /** Aborts deliveries in flight (on close or reset) and forgets the log. */
  abortAll(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.deliveries.length = 0;
  }
}
