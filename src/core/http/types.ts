/** A request as it travels down the layers; `url` is absolute and never holds a secret. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON text for the service; raw bytes where they must arrive untouched (a relayed webhook). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /**
   * Epoch ms (on the command's clock) by which this request must be over, retries and rate-limit waits
   * included (`--wait-timeout`): its timeout is cut to the time left, and a retry or rate-limit wait that
   * would end at or after it throws DeadlineError at once instead of waiting for nothing.
   */
  deadline?: number;
  /** 1-based attempt number, set by the retry layer for logging. */
  attempt?: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
}

export type Send = (req: HttpRequest) => Promise<HttpResponse>;
