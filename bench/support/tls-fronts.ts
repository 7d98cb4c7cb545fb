import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { promisify } from 'node:util';

export interface TlsFronts {
  /** The bench CA's certificate (PEM file): give it to a child as `NODE_EXTRA_CA_CERTS`. */
  caFile: string;
  /** `httpUrl` with its origin swapped for an https:// one that forwards to it (one front per origin). */
  front(httpUrl: string): Promise<string>;
  /** TLS connections the fronts have accepted: a cold start that made none did not measure TLS. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * https:// in front of the local emulators' http:// endpoints, as AWS's endpoints are: a TLS
 * server per endpoint that forwards the decrypted bytes to it. A cold start timed against
 * http:// pays for what AWS never makes it do (Node's `node:http` module, built for the SDK's
 * first plain request) and not for what AWS does (a TLS handshake, a certificate chain
 * checked against the trust store); this puts both right. The chain is a bench root (made
 * here with `openssl`, trusted by the child through `NODE_EXTRA_CA_CERTS`) and an RSA-2048
 * leaf for 127.0.0.1, as AWS's endpoints present an RSA-2048 leaf under Amazon's root.
 *
 * @example
 * const tls = await startTlsFronts(dir);
 * const endpoint = await tls.front(aws.dynamodbEndpoint); // https://127.0.0.1:…
 * spawn(node, args, { env: { NODE_EXTRA_CA_CERTS: tls.caFile, AWS_ENDPOINT_URL_DYNAMODB: endpoint } });
 */
export async function startTlsFronts(dir: string): Promise<TlsFronts> {
  const { caFile, key, cert } = await makeChain(dir);
  const servers: Server[] = [];
  const origins = new Map<string, Promise<string>>();
  let connections = 0;
  const open = async (target: URL): Promise<string> => {
    // No Nagle on either leg: a relay that holds small writes for the peer's delayed ACK adds
    // ≈ 40 ms to each exchange on loopback, which AWS's endpoints do not.
    const server = createServer({ key, cert, noDelay: true }, (socket) => {
      connections++;
      const upstream = connect({ port: Number(target.port), host: target.hostname, noDelay: true });
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return {
    caFile,
    async front(httpUrl) {
      const target = new URL(httpUrl);
      if (target.protocol !== 'http:') throw new Error(`not an http:// URL: ${httpUrl}`);
      let origin = origins.get(target.origin);
      if (!origin) origins.set(target.origin, (origin = open(target)));
      return httpUrl.replace(target.origin, await origin);
    },
    connections: () => connections,
    async close() {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

const execFileAsync = promisify(execFile);

async function run(command: string, args: string[]): Promise<void> {
  try {
    await execFileAsync(command, args);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`the TLS fronts need ${command} (apt-get install openssl), or time over http:// (\`http\`)`);
    throw error;
  }
}

/** A root and a leaf for 127.0.0.1 signed by it, with `openssl` (Debian's, on these machines and in CI). */
async function makeChain(dir: string): Promise<{ caFile: string; key: string; cert: string }> {
  const file = (name: string) => join(dir, name);
  const days = ['-days', '2'];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    ...days,
    '-subj',
    '/CN=hookgate bench root',
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('leaf.key'),
    '-out',
    file('leaf.csr'),
    '-subj',
    '/CN=127.0.0.1',
  ]);
  await writeFile(file('leaf.ext'), 'subjectAltName = IP:127.0.0.1\nbasicConstraints = CA:FALSE\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('leaf.pem'),
    ...days,
    '-extfile',
    file('leaf.ext'),
  ]);
  const [key, cert] = await Promise.all([readFile(file('leaf.key'), 'utf8'), readFile(file('leaf.pem'), 'utf8')]);
  return { caFile: file('ca.pem'), key, cert };
}
