// `pr-comment: true`: one comment on the pull request, kept up to date. It starts with a hidden marker,
// `<!-- cssctl:<connection or scan-id> -->`; the first run creates it, every later run edits it in place (the
// marker finds it among the pull request's comments), so a pull request holds one per connection, however many
// times it is pushed to — only a comment the token's own user (the workflow's bot) wrote counts. It says the verdict, the counts per severity, new/fixed/unchanged when a baseline is
// given, the ten most severe findings and a link to the run. It talks to GITHUB_API_URL through @octokit/rest.
//
// Text from the service (titles, resources, ids, the error line) is untrusted: in the comment it is one line, cut
// short, with every Markdown and HTML character escaped (no `<!--` that could pass for a marker, no tag, no link),
// and @mentions, #references and URLs are broken with an invisible joiner so nobody is pinged or linked.
//
// A comment that cannot be written — a 403 from a fork's read-only token, a network error — is a warning: it
// never fails the step, whose verdict is the scan's.
import { readFileSync } from 'node:fs';
import { SEVERITIES, type Severity } from '../api/findings-types.js';
import { normalizeBaseUrl } from '../core/url.js';
import { proxyConfigured } from '../core/http/undici.js';
import { markdownText, neutraliseControls } from '../report/text.js';
import type { Listed } from './annotations.js';

/** What the comment says. */
export interface CommentFacts {
  /** The connection input, else the scan-id input: the marker's key. */
  key: string;
  scanId?: string;
  connection?: string;
  verdict: { icon: string; text: string };
  counts: Partial<Record<Severity, number>>;
  /** With a baseline: the comparison's counts. */
  states?: { new: number; updated: number; unchanged: number; fixed: number };
  findings: Listed[];
  /** How many findings the list was taken from. */
  shown: number;
  version: string;
}

/** Where the comment goes, from the runner's environment and the event file. */
export interface PullRequest {
  apiUrl: string;
  owner: string;
  repo: string;
  number: number;
  /** The pull request's head commit. */
  sha?: string;
  runUrl?: string;
}

/** U+2060 WORD JOINER: invisible, and it keeps `@name`, `#12` and `https://` from being recognised. */
const JOIN = '\u2060';

/** Service text as one line of comment: controls shown as escapes, cut to `max`, no Markdown, HTML or mention. */
export function commentText(v: unknown, max = 160): string {
  let s = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  s = neutraliseControls(s.replace(/\s+/g, ' ').trim());
  if (s === '') return '—';
  if ([...s].length > max) s = `${[...s].slice(0, max - 1).join('')}…`;
  return markdownText(s)
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${JOIN}`)
    .replace(/(#|GH\\?-)(?=\d)/gi, (m) => `${m}${JOIN}`)
    .replace(/:\/\//g, `:${JOIN}//`)
    .replace(/\b(www)\\\./gi, `$1${JOIN}\\.`);
}

/** The marker's key: what the inputs say, percent-encoded outside a safe set (it can never close the comment). */
export function markerOf(key: string): string {
  // `<` and `>` are encoded, so the key can never hold `-->`.
  const safe = key.replace(/[^A-Za-z0-9._:@/+-]/gu, (c) => encodeURIComponent(c));
  return `<!-- cssctl:${safe} -->`;
}

const STATE_LABEL: Record<string, string> = {
  new: 'new',
  updated: 'raised or changed',
  unchanged: 'unchanged',
};

/** The comment's Markdown. */
export function commentBody(f: CommentFacts, pr: Pick<PullRequest, 'sha' | 'runUrl'>): string {
  const title = [
    `${f.verdict.icon} **cssctl**`,
    ...(f.connection ? [`connection ${commentText(f.connection, 64)}`] : []),
    ...(f.scanId ? [`scan \`${f.scanId}\``] : []),
  ].join(' · ');
  const lines = [markerOf(f.key), `### ${title}`, '', commentText(f.verdict.text, 400), ''];
  const known = SEVERITIES.filter((s) => f.counts[s] !== undefined);
  if (known.length > 0) {
    lines.push(`| ${SEVERITIES.join(' | ')} |`, `|${SEVERITIES.map(() => '---:').join('|')}|`);
    lines.push(
      `| ${SEVERITIES.map((s) => (f.counts[s] === undefined ? '—' : String(f.counts[s]))).join(' | ')} |`,
      '',
    );
  }
  if (f.states) {
    const s = f.states;
    lines.push(
      `Against the baseline: **${s.new} new**, ${s.updated} raised or changed, **${s.fixed} fixed**, ${s.unchanged} unchanged.`,
      '',
    );
  }
  if (f.findings.length > 0) {
    const withState = f.findings.some((x) => x.state !== undefined);
    const head =
      f.shown > f.findings.length
        ? `The ${f.findings.length} most severe of ${f.shown} findings`
        : 'Findings';
    lines.push(`<details open><summary>${head}</summary>`, '');
    lines.push(
      `| severity | finding | resource |${withState ? ' state |' : ''}`,
      `|---|---|---|${withState ? '---|' : ''}`,
    );
    for (const x of f.findings)
      lines.push(
        `| ${commentText(x.severity, 16)} | ${commentText(x.title)} | ${commentText(x.resource, 100)} |${
          withState ? ` ${x.state ? (STATE_LABEL[x.state] ?? commentText(x.state, 16)) : '—'} |` : ''
        }`,
      );
    lines.push('', '</details>', '');
  }
  const foot = [
    ...(pr.runUrl ? [`[The run](${pr.runUrl}): its summary, annotations and reports`] : []),
    ...(pr.sha ? [`commit ${pr.sha.slice(0, 12)}`] : []),
    `cssctl ${f.version}`,
  ];
  lines.push(`<sub>${foot.join(' · ')}</sub>`, '');
  return lines.join('\n');
}

/** Why there is no comment to write (said in a notice), or where it goes. */
export function pullRequestOf(env: NodeJS.ProcessEnv): PullRequest | string {
  const event = env.GITHUB_EVENT_NAME ?? '';
  if (event !== 'pull_request' && event !== 'pull_request_target')
    return `not a pull request (the event is ${event === '' ? 'unknown' : JSON.stringify(event)})`;
  const repository = env.GITHUB_REPOSITORY ?? '';
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(repository);
  if (!m) return 'GITHUB_REPOSITORY does not name a repository';
  let payload: { pull_request?: { number?: unknown; head?: { sha?: unknown } }; number?: unknown };
  try {
    payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? '', 'utf8')) as typeof payload;
  } catch (err) {
    return `the event file (GITHUB_EVENT_PATH) could not be read: ${(err as NodeJS.ErrnoException).code ?? 'not JSON'}`;
  }
  const number = payload?.pull_request?.number ?? payload?.number;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1)
    return 'the event file names no pull request number';
  const sha = payload.pull_request?.head?.sha;
  let apiUrl: string;
  try {
    // https, or http to a loopback host only: the token must not travel in the clear.
    apiUrl = normalizeBaseUrl(env.GITHUB_API_URL || 'https://api.github.com');
  } catch (err) {
    return `GITHUB_API_URL: ${(err as Error).message}`;
  }
  const server = env.GITHUB_SERVER_URL ?? '';
  const runId = env.GITHUB_RUN_ID ?? '';
  const runUrl =
    /^https?:\/\/[^\s()<>]+$/.test(server) && /^\d+$/.test(runId)
      ? `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${runId}`
      : undefined;
  return {
    apiUrl,
    owner: m[1]!,
    repo: m[2]!,
    number,
    sha: typeof sha === 'string' && /^[0-9a-f]{7,64}$/i.test(sha) ? sha : undefined,
    runUrl,
  };
}

/**
 * With HTTPS_PROXY or HTTP_PROXY set (a self-hosted runner behind a proxy), the comment's requests go through
 * it as the scan's do (NO_PROXY respected): Node's own fetch, which Octokit uses, reads those variables only
 * with NODE_USE_ENV_PROXY=1, which a runner does not set. undici's fetch with its EnvHttpProxyAgent, given
 * the step's environment; without a proxy, Node's fetch.
 */
async function proxiedFetch(env: NodeJS.ProcessEnv): Promise<typeof globalThis.fetch | undefined> {
  if (!proxyConfigured(env)) return undefined;
  const [{ fetch }, { default: EnvHttpProxyAgent }] = await Promise.all([
    import('undici/lib/web/fetch/index.js'),
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
  ]);
  const pick = (name: string) => env[name.toLowerCase()] || env[name] || undefined;
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: pick('HTTP_PROXY'),
    httpsProxy: pick('HTTPS_PROXY'),
    noProxy: pick('NO_PROXY') ?? '',
  });
  // Octokit calls fetch(url, init): the same call, with the proxy's dispatcher.
  const proxied = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
    fetch(input, { ...init, dispatcher });
  return proxied as unknown as typeof globalThis.fetch;
}

/** Seconds a comment request may take before it is given up (a warning). */
const TIMEOUT_MS = 30_000;

/**
 * Creates or edits the comment; resolves to what happened (`created …`, `updated …`) — or throws, for the caller
 * to warn with: the status and GitHub's message.
 */
export async function keepComment(
  pr: PullRequest,
  token: string,
  facts: CommentFacts,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ action: 'created' | 'updated'; url?: string }> {
  const [{ Octokit }, fetch] = await Promise.all([import('@octokit/rest'), proxiedFetch(env)]);
  const octokit = new Octokit({
    auth: token,
    baseUrl: pr.apiUrl,
    userAgent: `cssctl-action/${facts.version}`,
    request: {
      signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
      ...(fetch ? { fetch } : {}),
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  const marker = markerOf(facts.key);
  const body = commentBody(facts, pr);
  const where = { owner: pr.owner, repo: pr.repo, issue_number: pr.number };
  // Only a comment this token's user wrote is the action's: anyone may post a comment that starts with the
  // marker. A user's token (a PAT) says whose it is; the workflow's token cannot (403), and writes as a bot.
  const me = await octokit.rest.users.getAuthenticated().then(
    (r) => r.data.login,
    () => undefined,
  );
  const ours = (u: { login?: string; type?: string } | null | undefined) =>
    me !== undefined ? u?.login === me : u?.type === 'Bot';
  let found: number | undefined;
  await octokit.paginate(octokit.rest.issues.listComments, { ...where, per_page: 100 }, (res, done) => {
    const c = res.data.find(
      (x) => typeof x.body === 'string' && x.body.startsWith(`${marker}\n`) && ours(x.user),
    );
    if (c) {
      found = c.id;
      done();
    }
    return [];
  });
  if (found !== undefined) {
    const res = await octokit.rest.issues.updateComment({
      owner: pr.owner,
      repo: pr.repo,
      comment_id: found,
      body,
    });
    return { action: 'updated', url: res.data.html_url };
  }
  const res = await octokit.rest.issues.createComment({ ...where, body });
  return { action: 'created', url: res.data.html_url };
}

/** A failed comment request, in one line: GitHub's status and message (never the token). */
export function commentError(err: unknown): string {
  const e = err as { status?: unknown; message?: unknown; name?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const message = neutraliseControls(String(e.message ?? err).replace(/\s+/g, ' ')).slice(0, 200);
  const why =
    status === 403
      ? ' (the token may not write to this pull request: a fork’s pull request gets a read-only token; the job needs `permissions: pull-requests: write`)'
      : '';
  return `${status !== undefined ? `HTTP ${status}: ` : ''}${message}${why}`;
}
