// Idempotency-Key store: a repeated POST gets the first answer back instead of acting twice.

const TTL_MS = 24 * 3600 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
  /** The raw request body of the first use, to refuse the same key for a different request. */
  requestBody: string;
  at: number;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, StoredResponse>();

  /** Keys are scoped by workspace and by method + path. */
  private static scope(workspace: string, route: string, key: string): string {
    return `${workspace}\u0000${route}\u0000${key}`;
  }

  get(workspace: string, route: string, key: string, now: number): StoredResponse | undefined {
    const id = IdempotencyStore.scope(workspace, route, key);
    const stored = this.entries.get(id);
    if (stored && now - stored.at > TTL_MS) {
      this.entries.delete(id);
      return undefined;
    }
    return stored;
  }

  set(workspace: string, route: string, key: string, value: StoredResponse): void {
    this.entries.set(IdempotencyStore.scope(workspace, route, key), value);
  }

  clear(): void {
    this.entries.clear();
  }
}
