// The network probes of `cssctl doctor`, each bounded by a timeout: a name resolved, a TCP connection opened, a
// TLS handshake made with the trust cssctl's requests use (Node's CA store plus NODE_EXTRA_CA_CERTS). Nothing is
// sent over them. An interface, so the verb's tests give answers of their own.
import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { InterruptedError } from '../../core/errors.js';

export interface TlsFacts {
  /** TLSv1.3, TLSv1.2… */
  protocol: string;
  /** The leaf certificate's issuer (its CN or O), for the line. */
  issuer: string;
  /** Epoch ms at which the certificate stops being valid. */
  validTo: number;
}

/** A probe that did not get through: Node's error code (ENOTFOUND, ECONNREFUSED, SELF_SIGNED_CERT_IN_CHAIN…). */
export class ProbeError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Each probe ends within `timeoutMs`, and at once (InterruptedError) when `signal` is aborted (Ctrl-C). */
export interface Probes {
  /** The addresses a name resolves to. */
  resolve(host: string, timeoutMs: number, signal?: AbortSignal): Promise<string[]>;
  /** Opens and closes a TCP connection. */
  connect(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Makes a TLS handshake (verifying the chain and the name) and closes the connection. */
  tls(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<TlsFacts>;
}

/**
 * Runs `start` until it settles, `ms` pass (a ProbeError) or `signal` is aborted (InterruptedError); `start`
 * returns what closes its socket, called whichever comes first.
 */
function bounded<T>(
  timeout: string,
  ms: number,
  signal: AbortSignal | undefined,
  start: (resolve: (value: T) => void, reject: (err: unknown) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    let close = () => {};
    const end = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      close();
    };
    const onAbort = () => {
      end();
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      end();
      reject(new ProbeError(timeout, 'ETIMEDOUT'));
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    close = start(
      (value) => {
        end();
        resolve(value);
      },
      (err) => {
        end();
        reject(probeError(err));
      },
    );
  });
}

function probeError(err: unknown): ProbeError {
  if (err instanceof ProbeError) return err;
  const e = err as NodeJS.ErrnoException;
  return new ProbeError(e.message ?? String(err), e.code ?? '');
}

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** The probes over the network. */
export const networkProbes: Probes = {
  resolve(host, timeoutMs, signal) {
    const name = bare(host);
    if (isIP(name)) return Promise.resolve([name]);
    return bounded(
      `resolving ${name} timed out after ${timeoutMs / 1000} s`,
      timeoutMs,
      signal,
      (ok, fail) => {
        lookup(name, { all: true }).then((a) => ok(a.map((x) => x.address)), fail);
        return () => {};
      },
    );
  },

  connect(host, port, timeoutMs, signal) {
    return bounded<void>(`no connection within ${timeoutMs / 1000} s`, timeoutMs, signal, (ok, fail) => {
      const socket = netConnect({ host: bare(host), port });
      socket.once('connect', () => ok());
      socket.once('error', fail);
      return () => socket.destroy();
    });
  },

  tls(host, port, timeoutMs, signal) {
    const name = bare(host);
    return bounded<TlsFacts>(
      `no TLS handshake within ${timeoutMs / 1000} s`,
      timeoutMs,
      signal,
      (ok, fail) => {
        const socket = tlsConnect({
          host: name,
          port,
          // SNI takes a name, never an address.
          ...(isIP(name) ? {} : { servername: name }),
          ALPNProtocols: ['http/1.1'],
        });
        socket.once('secureConnect', () => {
          const cert = socket.getPeerCertificate();
          const issuer = cert.issuer ? (cert.issuer.CN ?? cert.issuer.O ?? '') : '';
          ok({
            protocol: socket.getProtocol() ?? 'TLS',
            issuer: Array.isArray(issuer) ? issuer.join(', ') : issuer,
            validTo: Date.parse(cert.valid_to),
          });
        });
        socket.once('error', fail);
        return () => socket.destroy();
      },
    );
  },
};
