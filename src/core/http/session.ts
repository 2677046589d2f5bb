import type { Clock } from '../clock.js';
import { AuthError, CliError, UsageError } from '../errors.js';
import type { Credentials, LoadedTokens, TokenSource, Tokens } from '../credentials.js';

/** Refresh this long before the access token's expiry (cli-contract.md §5). */
export const REFRESH_MARGIN_MS = 60_000;

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
}

/** The latest instant a JavaScript Date can hold (ms); anything past it makes toISOString() throw. */
export const MAX_DATE_MS = 8.64e15;
/** No access token is believed to live longer than this, whatever the answer says (issue 9 #17). */
export const MAX_TOKEN_LIFETIME_MS = 366 * 24 * 3600_000;

/** Reads `exp` from a JWT without verifying it (the service verifies; we only need the expiry). */
export function jwtExpiry(token: string): number | undefined {
  if (typeof token !== 'string') return undefined;
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown } | null;
    const exp = payload?.exp;
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
    const ms = exp * 1000;
    return ms > 0 && ms <= MAX_DATE_MS ? ms : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CSSCTL_TOKEN as given: surrounding whitespace (a stray newline from `$(cat file)`) is dropped; any other
 * control character or inner whitespace is a usage error (exit 2) rather than a broken header.
 */
export function envToken(raw: string | undefined): string | undefined {
  const t = raw?.trim();
  if (!t) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(t)) {
    throw new UsageError('CSSCTL_TOKEN contains whitespace or a control character', {
      hint: 'set it to the access token alone',
    });
  }
  return t;
}

/** Turns a login or refresh answer into stored tokens; a missing refresh_token keeps the previous one. */
export function tokensFrom(res: TokenResponse, now: number, previous?: Tokens): Tokens {
  if (!res || typeof res.access_token !== 'string' || !res.access_token) {
    throw new CliError('the service answered without an access token');
  }
  // An absurd lifetime (expires_in 1e16, an exp in the year 300000) is clamped, never stored as it is.
  const lifetime =
    typeof res.expires_in === 'number' && Number.isFinite(res.expires_in) && res.expires_in > 0
      ? Math.min(res.expires_in * 1000, MAX_TOKEN_LIFETIME_MS)
      : undefined;
  const fromJwt = jwtExpiry(res.access_token);
  const expiresAt =
    lifetime !== undefined
      ? now + lifetime
      : fromJwt !== undefined
        ? Math.min(fromJwt, now + MAX_TOKEN_LIFETIME_MS)
        : now + 3600_000;
  return {
    access_token: res.access_token,
    refresh_token:
      typeof res.refresh_token === 'string' && res.refresh_token
        ? res.refresh_token
        : previous?.refresh_token,
    token_type: res.token_type ?? previous?.token_type ?? 'bearer',
    expires_at: expiresAt,
    ...(previous?.base_url ? { base_url: previous.base_url } : {}),
  };
}

export interface SessionDeps {
  profile: string;
  credentials: Credentials;
  clock: Clock;
  /** CSSCTL_TOKEN: used as it is, never stored, never refreshed. */
  envToken?: string;
  /** POST /auth/refresh; throws ApiError when the service refuses. `deadline`: as HttpRequest's. */
  refresh: (refreshToken: string, deadline?: number) => Promise<TokenResponse>;
  /** Runs fn holding the profile's cross-process refresh lock. */
  lock: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Told of every token that comes into play, so it can be redacted from output. */
  onSecret?: (value: string | undefined) => void;
  /** The effective base URL of this command (flag, env, profile); may throw for an invalid one. */
  baseUrl?: () => string | undefined;
  /** The base URL saved in the profile: who issued tokens stored before they recorded it. */
  profileBaseUrl?: () => string | undefined;
}

/**
 * The profile's tokens and their refresh. Within a process one refresh at a time (a shared promise); across
 * processes a lock in the config folder, after which the store is re-read, since another process may
 * already have refreshed — refresh tokens rotate, and presenting a used one is refused.
 */
export class Session {
  private loaded?: LoadedTokens;
  private fromEnvTokens?: LoadedTokens;
  private inflight?: Promise<Tokens>;

  constructor(private readonly deps: SessionDeps) {
    deps.onSecret?.(deps.envToken);
  }

  get fromEnv(): boolean {
    return Boolean(this.deps.envToken);
  }

  /** The stored tokens and where they came from, or undefined when not logged in. */
  async current(): Promise<LoadedTokens | undefined> {
    if (this.deps.envToken) {
      // Read once: an export asks on every page.
      this.fromEnvTokens ??= {
        tokens: { access_token: this.deps.envToken, expires_at: jwtExpiry(this.deps.envToken) ?? 0 },
        source: 'env',
      };
      return this.fromEnvTokens;
    }
    if (!this.loaded) {
      const loaded = await this.deps.credentials.load(this.deps.profile);
      if (loaded) this.checkIssuer(loaded.tokens);
      this.loaded = loaded;
      this.remember(this.loaded?.tokens);
    }
    return this.loaded;
  }

  /**
   * Tokens belong to the base URL that issued them (as gh scopes tokens per host): pointed elsewhere by a
   * flag, the environment or an edited profile, this profile has no session there — no token is sent and
   * nothing is refreshed or saved.
   */
  private checkIssuer(t: Tokens): void {
    const issuer = t.base_url ?? safe(this.deps.profileBaseUrl);
    const target = this.deps.baseUrl?.();
    if (!issuer || !target || issuer === target) return;
    throw new AuthError(
      `not logged in to ${target} (profile "${this.deps.profile}" is logged in to ${issuer})`,
      {
        hint: `run cssctl login --base-url ${target}, or use another --profile`,
      },
    );
  }

  /**
   * A token good for at least the refresh margin, refreshing first when needed. `deadline` (epoch ms) bounds
   * the refresh request as it bounds the request the token is for.
   */
  async accessToken(deadline?: number): Promise<string> {
    const cur = await this.current();
    if (!cur) throw new AuthError(`not logged in (profile "${this.deps.profile}")`);
    if (cur.source === 'env') return cur.tokens.access_token;
    if (this.expiresSoon(cur.tokens))
      return (await this.refresh(cur.tokens.access_token, false, deadline)).access_token;
    return cur.tokens.access_token;
  }

  /** After a 401: refresh once, unless someone already replaced the token that was refused. */
  async afterUnauthorized(rejected: string, deadline?: number): Promise<string | undefined> {
    if (this.deps.envToken) return undefined;
    return (await this.refresh(rejected, false, deadline)).access_token;
  }

  /** `cssctl auth refresh`: refresh whatever the state of the current token. */
  async forceRefresh(): Promise<{ tokens: Tokens; source: TokenSource }> {
    const cur = await this.current();
    if (!cur) throw new AuthError(`not logged in (profile "${this.deps.profile}")`);
    if (cur.source === 'env')
      throw new CliError('CSSCTL_TOKEN is set: it is used as it is and cannot be refreshed');
    const tokens = await this.refresh(cur.tokens.access_token, true);
    return { tokens, source: this.loaded!.source };
  }

  private expiresSoon(t: Tokens): boolean {
    return t.expires_at - this.deps.clock.now() <= REFRESH_MARGIN_MS;
  }

  private refresh(stale: string, force = false, deadline?: number): Promise<Tokens> {
    this.inflight ??= this.refreshLocked(stale, force, deadline).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async refreshLocked(stale: string, force: boolean, deadline?: number): Promise<Tokens> {
    return this.deps.lock(async () => {
      // Re-read: another cssctl process may have refreshed while we waited for the lock.
      const fresh = await this.deps.credentials.load(this.deps.profile);
      if (!fresh) throw new AuthError('session expired, run cssctl login', { hint: '' });
      this.checkIssuer(fresh.tokens);
      this.loaded = fresh;
      this.remember(fresh.tokens);
      if (!force && fresh.tokens.access_token !== stale && !this.expiresSoon(fresh.tokens))
        return fresh.tokens;
      const refreshToken = fresh.tokens.refresh_token;
      if (!refreshToken)
        throw new AuthError('session expired (no refresh token), run cssctl login', { hint: '' });
      let answer: TokenResponse;
      try {
        answer = await this.deps.refresh(refreshToken, deadline);
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
          throw new AuthError('session expired, run cssctl login', { hint: '', cause: err });
        }
        throw err;
      }
      const tokens = tokensFrom(answer, this.deps.clock.now(), fresh.tokens);
      this.remember(tokens);
      try {
        await this.deps.credentials.save(this.deps.profile, tokens, fresh.source);
      } catch (err) {
        // The service has rotated the refresh token: the stored one is now spent. Say so plainly.
        const why = (err as Error).message;
        throw new CliError(
          `the session was renewed but the new tokens could not be saved (${why}); the stored refresh token has been used up`,
          { hint: 'fix the cause (free disk space, say), then run cssctl login', cause: err },
        );
      }
      this.loaded = { tokens, source: fresh.source };
      return tokens;
    });
  }

  private remember(t: Tokens | undefined): void {
    this.deps.onSecret?.(t?.access_token);
    this.deps.onSecret?.(t?.refresh_token);
  }
}

function safe(f: (() => string | undefined) | undefined): string | undefined {
  try {
    return f?.();
  } catch {
    return undefined;
  }
}
