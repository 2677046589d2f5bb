// Every failure cssctl reports is one of these; `exitCodeFor` is the only place that turns them into exit codes.

export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  rejected: 7,
  rateLimited: 8,
  scanFailed: 9,
  failOn: 10,
  interrupted: 130,
} as const;

export class CliError extends Error {
  /** A hint printed after the error line, e.g. "run cssctl login". */
  hint?: string;
  /**
   * The same failure in cssctl's own words, without the value from the service that `message` quotes (a status,
   * an id, a piece of an answer) and without the CLI's flags: what the MCP server says to an assistant, which
   * must never read the service's text as cssctl's (cli-contract.md §13). It says what to do itself (the hint is
   * not added to it). The terminal prints `message` and the hint.
   */
  neutral?: string;
  constructor(message: string, options?: { hint?: string; cause?: unknown; neutral?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
    this.neutral = options?.neutral;
  }
}

/** Usage or invalid input found before any request (exit 2). */
export class UsageError extends CliError {}

/** No session, or a 401 that a refresh could not cure (exit 3). */
export class AuthError extends CliError {
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, { hint: 'run cssctl login', ...options });
  }
}

/** Waiting for the rate limit would pass --max-wait (exit 8). */
export class RateLimitError extends CliError {
  /** `neutral`: the same for an assistant, which cannot pass a flag (CliError.neutral). */
  constructor(message: string, neutral?: string) {
    super(message, { hint: 'raise --max-wait or try again later', neutral });
  }
}

/**
 * A wait with a deadline (`--wait-timeout`) could not finish before it: a request cut at the deadline, or a
 * retry or rate-limit wait that would end after it. The verb that set the deadline says what it means (for
 * `scans wait`: exit 9 with the resume command); anywhere else it is exit 1.
 */
export class DeadlineError extends CliError {}

/** The user pressed Ctrl-C (exit 130). */
export class InterruptedError extends CliError {
  constructor(message = 'interrupted') {
    super(message);
  }
}

/**
 * The reason the command's signal is aborted with when stdout's reader left (EPIPE: `cssctl … | head`): the
 * command stops waiting, quietly; an exit code it has already decided (a gate) is kept.
 */
export class OutputClosed extends Error {
  constructor() {
    super('the reader of stdout left');
  }
}

/** A network-level failure: reset, refused, DNS, timeout (exit 1 after retries). */
export class NetworkError extends CliError {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'reset' | 'refused' | 'tls' | 'other',
    options?: { cause?: unknown; hint?: string },
  ) {
    super(message, options);
  }
}

export interface FieldError {
  field: string;
  detail: string;
}

/** An error answer from the service, parsed from its error body (section 7 of the spec). */
export class ApiError extends CliError {
  // Spelled out: the bundle names this class `_ApiError` inside (it refers to itself), and new.target.name
  // would say so in --verbose stack traces.
  override name = 'ApiError';
  readonly status: number;
  readonly code?: string;
  readonly detail: string;
  readonly field?: string;
  readonly requestId?: string;
  readonly fieldErrors: FieldError[];
  readonly method: string;
  /** The request URL; never carries a secret (cssctl never puts one in a URL). */
  readonly url: string;

  constructor(init: {
    status: number;
    method: string;
    url: string;
    detail?: string;
    code?: string;
    field?: string;
    requestId?: string;
    fieldErrors?: FieldError[];
  }) {
    const detail = init.detail?.trim() || defaultDetail(init.status);
    super(detail);
    this.status = init.status;
    this.code = init.code;
    this.detail = detail;
    this.field = init.field;
    this.requestId = init.requestId;
    this.fieldErrors = init.fieldErrors ?? [];
    this.method = init.method;
    this.url = init.url;
    if (init.status === 403) this.hint = 'check the workspace (-w) and your role in it';
  }

  /** Builds an ApiError from a response body, tolerating bodies that are not the documented shape. */
  static fromResponse(
    status: number,
    bodyText: string,
    req: { method: string; url: string },
    requestId?: string,
  ): ApiError {
    let detail: string | undefined;
    let code: string | undefined;
    let field: string | undefined;
    const fieldErrors: FieldError[] = [];
    const body = safeJson(bodyText);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      if (typeof b.detail === 'string') detail = b.detail;
      else if (Array.isArray(b.detail)) collectFieldErrors(b.detail, fieldErrors);
      else if (typeof b.message === 'string') detail = b.message;
      if (typeof b.code === 'string') code = b.code;
      if (typeof b.field === 'string') field = b.field;
      if (Array.isArray(b.errors)) collectFieldErrors(b.errors, fieldErrors);
    } else if (bodyText && bodyText.length < 200 && !/[<>]/.test(bodyText)) {
      detail = bodyText.trim();
    }
    if (!detail && fieldErrors.length > 0) detail = 'request was rejected';
    return new ApiError({
      status,
      method: req.method,
      url: req.url,
      detail,
      code,
      field,
      requestId,
      fieldErrors,
    });
  }
}

function collectFieldErrors(list: unknown[], out: FieldError[]): void {
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    const r = e as Record<string, unknown>;
    const field = typeof r.field === 'string' ? r.field : Array.isArray(r.loc) ? r.loc.join('.') : undefined;
    const detail = typeof r.detail === 'string' ? r.detail : typeof r.msg === 'string' ? r.msg : undefined;
    if (field || detail) out.push({ field: field ?? '', detail: detail ?? 'invalid' });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function defaultDetail(status: number): string {
  switch (status) {
    case 400:
      return 'invalid request';
    case 401:
      return 'not authenticated';
    case 403:
      return 'not permitted';
    case 404:
      return 'not found';
    case 409:
      return 'already exists';
    case 422:
      return 'request failed validation';
    case 429:
      return 'rate limit exceeded';
    default:
      return status >= 500 ? `service error (HTTP ${status})` : `unexpected HTTP ${status}`;
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof AuthError) return ExitCode.auth;
  if (err instanceof RateLimitError) return ExitCode.rateLimited;
  if (err instanceof InterruptedError) return ExitCode.interrupted;
  if (err instanceof ApiError) {
    switch (err.status) {
      case 400:
      case 422:
        return ExitCode.rejected;
      case 401:
        return ExitCode.auth;
      case 403:
        return ExitCode.forbidden;
      case 404:
        return ExitCode.notFound;
      case 409:
        return ExitCode.conflict;
      case 429:
        return ExitCode.rateLimited;
      default:
        return ExitCode.error;
    }
  }
  if (err instanceof CliError && 'exitCode' in err && typeof err.exitCode === 'number') return err.exitCode;
  return ExitCode.error;
}

/** An error that carries its own exit code (scan failed: 9, --fail-on met: 10). */
export class ExitError extends CliError {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** An exit code that is the whole answer, with nothing on stderr (`--jq-exit-status`, as `jq -e`). */
export class SilentExit extends ExitError {}
