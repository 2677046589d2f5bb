import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';

/**
 * A proxy on 127.0.0.1 for the tests: records each tunnel's target in `tunnels` and splices the sockets; a
 * plain http:// request (absolute form, as a client sends one for an http:// address) is forwarded, and its
 * host recorded the same way. Every host of the tests lives on 127.0.0.1, so the name is never looked up in DNS.
 */
export async function startConnectProxy(tunnels: string[]): Promise<Server> {
  const proxy = createServer();
  proxy.on('connect', (req, socket, head) => {
    tunnels.push(req.url!);
    const upstream = connect(Number(req.url!.split(':').pop()), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  proxy.on('request', (req, res) => {
    const target = new URL(req.url!);
    tunnels.push(target.host);
    const upstream = request(
      {
        host: '127.0.0.1',
        port: Number(target.port),
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return proxy;
}
