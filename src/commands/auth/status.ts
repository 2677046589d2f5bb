import type { Context } from '../../core/context.js';
import { record, type Result } from '../../report/result.js';
import { AuthError } from '../../core/errors.js';
import { fileStoreProtection } from '../../core/credentials.js';
import { shortTime } from '../../core/output/table.js';

export function describeExpiry(expiresAt: number, now: number): string {
  if (!expiresAt) return 'unknown';
  // As every table shows a time (isTimeKey): local, to the minute.
  const at = shortTime(new Date(expiresAt).toISOString());
  const mins = Math.round((expiresAt - now) / 60_000);
  if (expiresAt <= now) return `expired ${Math.max(0, -mins)}m ago (${at})`;
  return mins >= 120 ? `in ${Math.round(mins / 60)}h (${at})` : `in ${Math.max(mins, 0)}m (${at})`;
}

/** The table's "Token source": the file store on Windows says how little protects it (fileStoreProtection). */
export function tokenSourceText(source: string, platform: NodeJS.Platform = process.platform): string {
  if (source === 'env') return 'env (CSSCTL_TOKEN)';
  if (source === 'file' && platform === 'win32') return `file (${fileStoreProtection(platform)})`;
  return source;
}

/** Offline: reads the profile and the credential store, never the network. */
export async function status(ctx: Context): Promise<Result> {
  const settings = await ctx.settings();
  const session = await ctx.session();
  const cur = await session.current();
  if (!cur) throw new AuthError(`not logged in (profile ${ctx.profileName})`);
  const now = ctx.clock.now();
  const t = cur.tokens;
  const obj = {
    profile: ctx.profileName,
    base_url: settings.baseUrl ?? null,
    workspace: settings.workspace ?? null,
    email: cur.source === 'env' ? null : (settings.email ?? null),
    token_source: cur.source,
    expires_at: t.expires_at ? new Date(t.expires_at).toISOString() : null,
    expired: t.expires_at ? t.expires_at <= now : null,
    refreshable: cur.source !== 'env' && Boolean(t.refresh_token),
  };
  if (settings.output !== 'table') return record(obj, settings.output);
  let expiry = describeExpiry(t.expires_at, now);
  if (obj.expired && obj.refreshable) expiry += '; renewed on the next command';
  return record({ ...obj, token_source: tokenSourceText(cur.source), expiry }, 'table', [
    ['PROFILE', 'profile'],
    ['BASE URL', 'base_url'],
    ['WORKSPACE', 'workspace'],
    ['EMAIL', 'email'],
    ['TOKEN SOURCE', 'token_source'],
    ['TOKEN EXPIRES', 'expiry'],
  ]);
}
