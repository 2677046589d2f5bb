// A headless Chromium driven over the DevTools protocol (Node's global WebSocket), for the html report tests:
// what the page asked the network for, and what its script left in the DOM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export class Browser {
  private next = 0;
  private readonly pending = new Map<number, (m: Message) => void>();
  readonly events: Message[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly ws: WebSocket,
  ) {
    ws.addEventListener('message', (e) => {
      const m = JSON.parse(String(e.data)) as Message;
      if (m.id !== undefined) this.pending.get(m.id)?.(m);
      else this.events.push(m);
    });
  }

  static async launch(dir: string): Promise<Browser> {
    const profile = mkdtempSync(join(dir, 'cdp-'));
    const child = spawn(
      'chromium',
      [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${err}`)), 30_000);
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        err += d;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', () => reject(new Error(`chromium exited:\n${err}`)));
    });
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve);
      ws.addEventListener('error', reject);
    });
    return new Browser(child, ws);
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = ++this.next;
    this.ws.send(JSON.stringify({ id, method, params, sessionId }));
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) => {
        this.pending.delete(id);
        if (m.error) reject(new Error(`${method}: ${m.error.message}`));
        else resolve(m.result ?? {});
      });
    });
  }

  async waitFor(method: string, sessionId: string, ms = 30_000): Promise<Message> {
    const until = Date.now() + ms;
    for (;;) {
      const e = this.events.find((x) => x.method === method && x.sessionId === sessionId);
      if (e) return e;
      if (Date.now() > until) throw new Error(`no ${method} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * Opens `url` in a new tab with the network watched; resolves once it has loaded, with the tab's session and
   * every URL the page asked for.
   */
  async open(url: string): Promise<{ session: string; requested: () => string[] }> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as {
      targetId: string;
    };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    await this.send('Network.enable', {}, sessionId);
    await this.send('Page.enable', {}, sessionId);
    await this.send('Page.navigate', { url }, sessionId);
    await this.waitFor('Page.loadEventFired', sessionId);
    const requested = () =>
      this.events
        .filter((e) => e.method === 'Network.requestWillBeSent' && e.sessionId === sessionId)
        .map((e) => (e.params!.request as { url: string }).url);
    return { session: sessionId, requested };
  }

  async evaluate(session: string, expression: string): Promise<unknown> {
    const r = (await this.send('Runtime.evaluate', { expression, returnByValue: true }, session)) as {
      result: { value: unknown };
    };
    return r.result.value;
  }

  close(): void {
    this.ws.close();
    this.child.kill('SIGKILL');
  }
}
