// A finding's fingerprint (cli-contract.md §8): the same problem on the same resource across scans. It is the
// value SARIF carries as partialFingerprints["cssctlFindingHash/v1"], the key a diff matches on, and what an
// ignore entry names — one function for all three.
import { hash } from 'node:crypto';
import type { Finding } from '../api/findings-types.js';
import { text } from './text.js';

/**
 * A finding read back from a SARIF log cssctl wrote carries the fingerprint written there (its other fields
 * may be partial), and keeps it.
 */
export const GIVEN_FINGERPRINT = Symbol('cssctl.given-fingerprint');

/** The check a finding belongs to: the service's `rule_id` or `check_id` when it gives one. */
export function checkIdOf(f: Finding): string | undefined {
  const id = text(f.rule_id).trim() || text(f.check_id).trim();
  return id === '' ? undefined : id;
}

/** The rule id of a finding: the service's check id, else a stable slug of its title (cli-contract.md §3). */
export function ruleIdOf(f: Finding): string {
  const given = checkIdOf(f);
  if (given !== undefined) return given;
  const title = text(f.title).trim();
  if (title === '') return 'cssctl/finding';
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // A slug that dropped characters other than punctuation and spaces (non-ASCII), or was cut, gets a short
  // hash of the title so two different titles never share a rule.
  const lossy = slug === '' || slug.length > 64 || /[^\x20-\x7e]/.test(title);
  const short = slug.slice(0, 64).replace(/-+$/, '');
  return lossy ? `${short || 'check'}-${sha256(title).slice(0, 8)}` : short;
}

/**
 * The same finding gets the same fingerprint in every run: the lowercase hex SHA-256 of the JSON text (no
 * spaces) of `[rule, connection, "resource", resource]` — what identifies it — and never of its position in the
 * report, its id (a new scan gives new ids) or its severity (which may be re-rated). Without a resource,
 * `"id"` and its id take the place of the last two.
 */
export function fingerprintOf(f: Finding): string {
  return fingerprintWithRule(f, undefined);
}

/**
 * A finding as cssctl shows it with its fingerprint (`findings get`, each finding of the MCP server's
 * list_findings): its own fields, then `fingerprint` — cssctl's, whatever field of that name the service sent.
 */
export function withFingerprint<F extends Finding>(f: F): F & { fingerprint: string } {
  return { ...f, fingerprint: fingerprintOf(f) };
}

/** fingerprintOf, for a caller that has ruleIdOf(f) already (a report that shows it too). */
export function fingerprintWithRule(f: Finding, rule: string | undefined): string {
  const given = (f as { [GIVEN_FINGERPRINT]?: unknown })[GIVEN_FINGERPRINT];
  if (typeof given === 'string') return given;
  const resource = text(f.resource);
  const key = resource.trim() === '' ? ['id', text(f.id)] : ['resource', resource];
  return sha256(JSON.stringify([rule ?? ruleIdOf(f), text(f.connection_alias), ...key]));
}

function sha256(s: string): string {
  // The one-shot crypto.hash (Node ≥ 21.7): a quarter of createHash's time per finding, which a report of
  // 200,000 findings feels.
  return hash('sha256', s, 'hex');
}
