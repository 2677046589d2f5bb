// Types for the undici modules loaded directly (undici types its index only): src/core/http/undici.ts, src/action/comment.ts.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  export default function connect(
    this: Dispatcher,
    options: Dispatcher.ConnectOptions,
  ): Promise<Dispatcher.ConnectData>;
}
// The Action's pull-request comment, through a proxy (src/action/comment.ts).
declare module 'undici/lib/web/fetch/index.js' {
  export { fetch } from 'undici';
}
