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
  /** Which build of undici was loaded (for --verbose and the benchmark). */
  kind: 'core' | 'full';
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
 * undici, loaded on the first request and only as much of it as the request uses. Without proxy variables
 * that is its Agent (pool, HTTP/1.1 client, connector) and its request API: about a third of undici, and
 * none of fetch, WebSocket, the cache or the mocks, which cost ~60 ms to load on every request command.
 * With HTTPS_PROXY/HTTP_PROXY set, the whole package is loaded for its EnvHttpProxyAgent.
 */
export async function loadUndici(env: NodeJS.ProcessEnv = process.env): Promise<UndiciParts> {
  if (proxyConfigured(env)) {
    const mod = await import('undici');
    // Bundled, undici (CommonJS) may arrive as the default export; unbundled, as named exports.
    const u = (
      mod.EnvHttpProxyAgent ? mod : (mod as unknown as { default: typeof mod }).default
    ) as typeof mod;
    return {
      request: (url, options) => u.request(url, options),
      createDispatcher: () => new u.EnvHttpProxyAgent({ maxHeaderSize: MAX_HEADER_SIZE }),
      createAgent: () => new u.Agent({ maxHeaderSize: MAX_HEADER_SIZE }),
      kind: 'full',
    };
  }
  const [{ default: Agent }, { default: dispatchRequest }] = await Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/api/api-request.js'),
  ]);
  // Without a proxy the service's dispatcher is the plain agent loopback gets.
  const agent = () => new Agent({ maxHeaderSize: MAX_HEADER_SIZE });
  return {
    // What undici's top-level request() does before calling the same function on the dispatcher.
    request: (url, { dispatcher, ...options }) => {
      const u = new URL(url);
      return dispatchRequest.call(dispatcher, {
        ...options,
        origin: u.origin,
        path: `${u.pathname}${u.search}`,
      });
    },
    createDispatcher: agent,
    createAgent: agent,
    kind: 'core',
  };
}
