// Webhook registrations (service-api.md §4, §6) and the shape of the deliveries the service sends.
import type { ApiClient } from '../core/http/client.js';
import { readPage, type Page } from './paginate.js';

/** The five event types of service-api.md §6. */
export const EVENT_TYPES = [
  'scan.completed',
  'scan.failed',
  'finding.critical',
  'finding.high',
  'compliance.score_dropped',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** A stored registration. The spec does not show its fields; the secret is never among those shown. */
export interface Webhook {
  id?: string;
  url: string;
  events: string[];
  created_at?: string;
  [key: string]: unknown;
}

export interface NewWebhook {
  url: string;
  events: EventType[];
  secret: string;
}

/** The body of every delivery (service-api.md §6). */
export interface Delivery {
  event: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  workspace: string;
  data: Record<string, unknown>;
}

/** `data` of scan.completed (the scan summary of §2) and, in the sandbox, of scan.failed. */
export interface ScanEventData {
  scan_id: string;
  connection_alias: string;
  provider: string;
  status: string;
  total_findings: number;
  critical_count: number;
  risk_score: number;
  error?: string;
}

/** `data` of finding.critical and finding.high (not shown by the spec: the finding as listed). */
export interface FindingEventData {
  id: string;
  severity: string;
  title: string;
  resource: string;
  connection_alias: string;
  scan_id: string;
  status: string;
  created_at: string;
}

/** `data` of compliance.score_dropped (not shown by the spec): scores from 0 to 100. */
export interface ComplianceEventData {
  score: number;
  previous_score: number;
  threshold: number;
  scan_id: string;
  connection_alias: string;
}

/** POST /webhooks `{url, events, secret}`. The secret travels in the body, never in a URL. */
export function createWebhook(client: ApiClient, body: NewWebhook): Promise<Webhook | undefined> {
  return client.request<Webhook | undefined>({ method: 'POST', path: '/webhooks', body });
}

/** GET /webhooks — (assumed) by cli-contract.md, paginated like the other lists. */
export async function listWebhooks(
  client: ApiClient,
  page: { limit?: number; offset?: number },
): Promise<Page<Webhook>> {
  const body = await client.request<unknown>({ path: '/webhooks', query: page });
  const read = readPage<Webhook>(body, 'webhooks');
  // Whatever the service sends, a secret is never shown again.
  return { ...read, items: read.items.map(withoutSecret) };
}

/** DELETE /webhooks/{id} — (assumed) by cli-contract.md. */
export async function deleteWebhook(client: ApiClient, id: string): Promise<void> {
  await client.request<unknown>({ method: 'DELETE', path: `/webhooks/${encodeURIComponent(id)}` });
}

export function withoutSecret<T>(hook: T): T {
  if (!hook || typeof hook !== 'object' || Array.isArray(hook)) return hook;
  const copy = { ...(hook as Record<string, unknown>) };
  delete copy.secret;
  return copy as T;
}
