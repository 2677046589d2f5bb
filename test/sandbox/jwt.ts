// Access tokens (HS256 JWTs) and rotating refresh tokens with reuse detection.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Role } from './types.js';

export interface TokenUser {
  id: string;
  email: string;
  workspace: string;
  role: Role;
}

export interface AccessClaims {
  sub: string;
  email: string;
  workspace: string;
  role: Role;
  iat: number;
  exp: number;
  jti: string;
}

export type VerifyResult =
  { ok: true; claims: AccessClaims } | { ok: false; code: 'token_expired' | 'invalid_token'; detail: string };

export type RefreshResult =
  | { ok: true; userId: string; family: string }
  | {
      ok: false;
      code: 'invalid_refresh_token' | 'refresh_token_revoked' | 'refresh_token_reused';
      detail: string;
    };

interface RefreshRecord {
  userId: string;
  /** All tokens descending from one login share a family; reuse of any of them revokes it all. */
  family: string;
  used: boolean;
}

export class TokenService {
  private readonly key: Uint8Array;
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private readonly revokedFamilies = new Set<string>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async issueAccess(user: TokenUser, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: user.email, workspace: user.workspace, role: user.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<VerifyResult> {
    try {
      // Only HS256: a token claiming alg "none" or another algorithm is refused.
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
      });
      const { sub, email, workspace, role, iat, exp, jti } = payload;
      if (
        typeof sub !== 'string' ||
        typeof email !== 'string' ||
        typeof workspace !== 'string' ||
        (role !== 'owner' && role !== 'read_only') ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        typeof jti !== 'string'
      ) {
        return { ok: false, code: 'invalid_token', detail: 'access token lacks required claims' };
      }
      return { ok: true, claims: { sub, email, workspace, role, iat, exp, jti } };
    } catch (err) {
      if (err instanceof errors.JWTExpired) {
        return { ok: false, code: 'token_expired', detail: 'access token has expired' };
      }
      return { ok: false, code: 'invalid_token', detail: 'access token is invalid' };
    }
  }

  /** Opaque random string; `family` continues a chain started at login. */
  issueRefresh(userId: string, family: string = randomUUID()): string {
    const token = `rt_${randomBytes(32).toString('base64url')}`;
    this.refreshTokens.set(token, { userId, family, used: false });
    return token;
  }

  /**
   * Spends a refresh token. With `rotate`, the token is marked used and a second use is reuse:
   * the whole family is revoked, as a stolen-token defence would do. Without `rotate` (the answer
   * omits refresh_token, so the client keeps the old one) it stays valid.
   */
  redeemRefresh(token: string, rotate: boolean): RefreshResult {
    const record = this.refreshTokens.get(token);
    if (!record) return { ok: false, code: 'invalid_refresh_token', detail: 'refresh token is not valid' };
    if (this.revokedFamilies.has(record.family)) {
      return { ok: false, code: 'refresh_token_revoked', detail: 'refresh token has been revoked' };
    }
    if (record.used) {
      this.revokedFamilies.add(record.family);
      return {
        ok: false,
        code: 'refresh_token_reused',
        detail: 'refresh token was already used; every token of this session is now revoked',
      };
    }
    if (rotate) record.used = true;
    return { ok: true, userId: record.userId, family: record.family };
  }

  revokeAllRefresh(): void {
    for (const record of this.refreshTokens.values()) this.revokedFamilies.add(record.family);
  }

  clear(): void {
    this.refreshTokens.clear();
    this.revokedFamilies.clear();
  }
}
