// The network probes of `cssctl doctor`, each bounded by a timeout: a name resolved, a TCP connection opened, a
// TLS handshake made with the trust cssctl's requests use (Node's CA store plus NODE_EXTRA_CA_CERTS). Nothing is
// sent over them. An interface, so the verb's tests give answers of their own.
import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

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

export interface Probes {
  /** The addresses a name resolves to. */
  resolve(host: string, timeoutMs: number): Promise<string[]>;
  /** Opens and closes a TCP connection. */
  connect(host: string, port: number, timeoutMs: number): Promise<void>;
  /** Makes a TLS handshake (verifying the chain and the name) and closes the connection. */
  tls(host: string, port: number, timeoutMs: number): Promise<TlsFacts>;
}

function bounded<T>(what: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProbeError(`${what} timed out after ${ms / 1000} s`, 'ETIMEDOUT')),
      ms,
    );
  });
  return Promise.race([run(), timeout]).finally(() => clearTimeout(timer));
}

function probeError(err: unknown): ProbeError {
  if (err instanceof ProbeError) return err;
  const e = err as NodeJS.ErrnoException;
  return new ProbeError(e.message ?? String(err), e.code ?? '');
}

/** The probes over the network. */
export const networkProbes: Probes = {
  resolve(host, timeoutMs) {
    const name = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(name)) return Promise.resolve([name]);
    return bounded(`resolving ${name}`, timeoutMs, async () => {
      try {
        return (await lookup(name, { all: true })).map((a) => a.address);
      } catch (err) {
        throw probeError(err);
      }
    });
  },

  connect(host, port, timeoutMs) {
    const name = host.replace(/^\[(.*)\]$/, '$1');
    return new Promise<void>((resolve, reject) => {
      const socket = netConnect({ host: name, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ProbeError(`no connection within ${timeoutMs / 1000} s`, 'ETIMEDOUT'));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.destroy();
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        socket.destroy();
        reject(probeError(err));
      });
    });
  },

  tls(host, port, timeoutMs) {
    const name = host.replace(/^\[(.*)\]$/, '$1');
    return new Promise<TlsFacts>((resolve, reject) => {
      const socket = tlsConnect({
        host: name,
        port,
        // SNI takes a name, never an address.
        ...(isIP(name) ? {} : { servername: name }),
        ALPNProtocols: ['http/1.1'],
      });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ProbeError(`no TLS handshake within ${timeoutMs / 1000} s`, 'ETIMEDOUT'));
      }, timeoutMs);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        const cert = socket.getPeerCertificate();
        const issuer = cert.issuer ? (cert.issuer.CN ?? cert.issuer.O ?? '') : '';
        const facts: TlsFacts = {
          protocol: socket.getProtocol() ?? 'TLS',
          issuer: Array.isArray(issuer) ? issuer.join(', ') : issuer,
          validTo: Date.parse(cert.valid_to),
        };
        socket.destroy();
        resolve(facts);
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        socket.destroy();
        reject(probeError(err));
      });
    });
  },
};
