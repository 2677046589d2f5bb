import type { Dispatcher } from 'undici';

/** undici's `request(url, options)`: one exchange through the given dispatcher. */
export type UndiciRequest = (
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
    method: Dispatcher.HttpMethod;
    dispatcher: Dispatcher;
  },
) => Promise<Dispatcher.ResponseData>;

export interface UndiciParts {
  request: UndiciRequest;
  /** The dispatcher for the service: a keep-alive agent, or one that honours the proxy variables. */
  createDispatcher(): Dispatcher;
  /** A plain keep-alive agent (loopback is never proxied). */
  createAgent(): Dispatcher;
  /** Whether the service is reached directly or through the proxy the environment names. */
  kind: 'direct' | 'proxy';
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/**
 * The largest response head accepted: Node's own default (http.maxHeaderSize), given here so the bundled
 * undici never loads node:http to ask for it (scripts/build.mjs).
 */
export const MAX_HEADER_SIZE = 16 * 1024;

/** Whether the environment asks for a proxy (NO_PROXY alone does not). */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return PROXY_VARS.some((k) => (env[k] ?? '').trim() !== '');
}

/**
 * undici, loaded on the first request and only as much of it as the request uses: its Agent (pool, HTTP/1.1
 * client, connector), its request API, and with HTTPS_PROXY/HTTP_PROXY set its EnvHttpProxyAgent. About a
 * third of undici, and none of fetch, WebSocket, the cache or the mocks, which its index loads (~60 ms on
 * every request command, `npm run bench`). The files are undici's own, bundled from the exact version
 * package.json pins (scripts/build.mjs); nothing of undici is required at run time.
 */
export async function loadUndici(env: NodeJS.ProcessEnv = process.env): Promise<UndiciParts> {
  const [{ default: Agent }, { default: dispatchRequest }] = await Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/api/api-request.js'),
  ]);
  const agent = () => new Agent({ maxHeaderSize: MAX_HEADER_SIZE });
  // What undici's top-level request() does before calling the same function on the dispatcher.
  const request: UndiciRequest = (url, { dispatcher, ...options }) => {
    const u = new URL(url);
    return dispatchRequest.call(dispatcher, {
      ...options,
      origin: u.origin,
      path: `${u.pathname}${u.search}`,
    });
  };
  if (proxyConfigured(env)) {
    const [{ default: EnvHttpProxyAgent }, { default: Dispatcher }, { default: connect }] = await Promise.all(
      [
        import('undici/lib/dispatcher/env-http-proxy-agent.js'),
        import('undici/lib/dispatcher/dispatcher.js'),
        import('undici/lib/api/api-connect.js'),
      ],
    );
    // A proxy agent opens its tunnel with dispatcher.connect(), which undici's index adds to every dispatcher
    // (Object.assign(Dispatcher.prototype, api)); the index is not loaded, so the one method is added here.
    (Dispatcher.prototype as { connect?: unknown }).connect ??= connect;
    return {
      request,
      createDispatcher: () => new EnvHttpProxyAgent({ maxHeaderSize: MAX_HEADER_SIZE }),
      createAgent: agent,
      kind: 'proxy',
    };
  }
  // Without a proxy the service's dispatcher is the plain agent loopback gets.
  return { request, createDispatcher: agent, createAgent: agent, kind: 'direct' };
}
