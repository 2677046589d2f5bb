// A fake of the few GitHub REST endpoints the Action's pull-request comment uses, on 127.0.0.1: list a pull
// request's comments (paged, with a Link header as GitHub gives it), create one, edit one. It records every request
// (method, path, Authorization, body) and can answer 403 to writes, as GitHub does to a fork's read-only token.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}

export interface GithubRequest {
  method: string;
  path: string;
  authorization?: string;
  body?: { body?: string };
}

export class FakeGithub {
  readonly requests: GithubRequest[] = [];
  /** Per issue number, its comments. */
  readonly comments = new Map<number, FakeComment[]>();
  /** Writes (POST, PATCH) answer 403. */
  readOnly = false;
  private nextId = 1000;
  private server?: Server;
  url = '';

  static async start(): Promise<FakeGithub> {
    const g = new FakeGithub();
    g.server = createServer((req, res) => {
      void g.handle(req).then(
        ({ status, body, headers }) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(body));
        },
        (err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        },
      );
    });
    await new Promise<void>((resolve) => g.server!.listen(0, '127.0.0.1', resolve));
    g.url = `http://127.0.0.1:${(g.server.address() as AddressInfo).port}`;
    return g;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Adds a comment as someone else wrote it. */
  seed(issue: number, body: string, login = 'someone', type = 'User'): FakeComment {
    const c = this.comment(body, login, type);
    this.list(issue).push(c);
    return c;
  }

  list(issue: number): FakeComment[] {
    let l = this.comments.get(issue);
    if (!l) this.comments.set(issue, (l = []));
    return l;
  }

  /** The author of what a token writes: a user's token (a PAT) is that user; the workflow's (ghs_…) the bot. */
  private author(authorization?: string): { login: string; type: string } {
    const token = authorization?.replace(/^(token|bearer) /i, '') ?? '';
    return token.startsWith('ghs_')
      ? { login: 'github-actions[bot]', type: 'Bot' }
      : { login: `user-${token.slice(0, 8)}`, type: 'User' };
  }

  private comment(body: string, login = 'github-actions[bot]', type = 'Bot'): FakeComment {
    const id = this.nextId++;
    return { id, body, user: { login, type }, html_url: `https://github.test/pull/${id}` };
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const record: GithubRequest = {
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization,
      body: text ? (JSON.parse(text) as { body?: string }) : undefined,
    };
    this.requests.push(record);
    if (url.pathname === '/user' && req.method === 'GET') {
      const who = this.author(record.authorization);
      // An installation's token (the workflow's) may not read /user.
      return who.type === 'Bot'
        ? { status: 403, body: { message: 'Resource not accessible by integration' } }
        : { status: 200, body: who };
    }
    let m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const all = this.list(Number(m[3]));
      const per = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const last = Math.max(1, Math.ceil(all.length / per));
      const headers: Record<string, string> = {};
      if (page < last) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        headers.link = `<${next.href}>; rel="next", <${this.url}${url.pathname}?per_page=${per}&page=${last}>; rel="last"`;
      }
      return { status: 200, body: all.slice((page - 1) * per, page * per), headers };
    }
    const forbidden = {
      status: 403,
      body: { message: 'Resource not accessible by integration', status: '403' },
    };
    if (m && req.method === 'POST') {
      if (this.readOnly) return forbidden;
      const who = this.author(record.authorization);
      const c = this.comment(record.body?.body ?? '', who.login, who.type);
      this.list(Number(m[3])).push(c);
      return { status: 201, body: c };
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (m && req.method === 'PATCH') {
      if (this.readOnly) return forbidden;
      for (const l of this.comments.values()) {
        const c = l.find((x) => x.id === Number(m![3]));
        if (c) {
          c.body = record.body?.body ?? '';
          return { status: 200, body: c };
        }
      }
      return { status: 404, body: { message: 'Not Found' } };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }
}
