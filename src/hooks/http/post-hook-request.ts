import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connectRefusal, PLAIN_HTTP_REFUSAL, type AddressPolicy } from './address-policy.ts';
import { hookSignature } from './hook-signature.ts';
import { HookgateError } from '../../errors/hookgate-error.ts';

/** An http hook's answer body is read up to this many bytes; a longer one is a failed run. */
export const HTTP_HOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** What one POST to a hook URL came to. */
export type HookResponse =
  | { kind: 'answered'; status: number; body: string; elapsedMs: number }
  | { kind: 'failed'; error: string; elapsedMs: number }
  | { kind: 'timed-out'; elapsedMs: number };

export interface PostHookRequestOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  /** `HOOKGATE_HTTP_HOOK_SECRET`; absent: the request goes unsigned (a warning says so at registration). */
  secret?: string;
  /** The entry's `headers:`; hookgate's own headers win over them. */
  headers?: Readonly<Record<string, string>>;
}

// Keep-alive pools, one per policy: a socket opened to an address one policy allows is never
// handed to a request made under a stricter one.
const agents = new Map<string, { http: HttpAgent; https: HttpsAgent }>();

function agentsFor(policy: AddressPolicy): { http: HttpAgent; https: HttpsAgent } {
  const key = `${policy.allowPrivate}:${policy.allowLoopback}`;
  let pair = agents.get(key);
  if (!pair) {
    // Idle sockets do not keep the process alive, and are dropped before a server's usual 5 s keep-alive.
    const options = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 32, timeout: 4000 };
    pair = { http: new HttpAgent(options), https: new HttpsAgent(options) };
    agents.set(key, pair);
  }
  return pair;
}

/**
 * A DNS lookup that refuses the addresses `policy` does not allow — and, for plain http, any
 * public address: the check is on the address the socket then connects to, so a name that
 * resolves (or re-resolves) to a refused address cannot slip through.
 */
function guardedLookup(policy: AddressPolicy, plainHttp: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((entry) => connectRefusal(entry.address, policy, plainHttp) === undefined);
      if (allowed.length === 0) {
        const refused = addresses[0] ? connectRefusal(addresses[0].address, policy, plainHttp) : 'no address';
        return callback(new HttpHookAddressRefusedError(`refused: ${hostname} resolves to ${refused}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * Why `url` may not be called at all, before any connection: a scheme other than https or
 * http, an IP literal the policy refuses, or plain http to an address that may be public.
 * Plain http never leaves the machine or the operator's network: it is for a loopback address
 * the policy allows (`hookgate dev`) or, with `hooks.http_allow_private: true`, a private one
 * (a policy service in the VPC). Host names are checked on their resolved addresses, at
 * connect time (a plain-http name that resolves to a public address is refused then).
 *
 * @example
 * urlRefusal(new URL('http://example.com/hook'), { allowPrivate: false, allowLoopback: true }) // 'refused: plain http …'
 */
export function urlRefusal(url: URL, policy: AddressPolicy): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) !== 0;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `refused: ${url.protocol} URLs are not hook URLs`;
  if (literal) {
    const refused = connectRefusal(host, policy, url.protocol === 'http:');
    return refused && `refused: ${url.host} is ${refused}`;
  }
  if (url.protocol === 'https:') return undefined;
  if (host === 'localhost' ? policy.allowLoopback || policy.allowPrivate : policy.allowPrivate) return undefined;
  return PLAIN_HTTP_REFUSAL;
}

/**
 * POSTs one hook input to a hook URL (hook-semantics §5.10) and reads the answer: signed
 * (`X-Hookgate-Timestamp`, `X-Hookgate-Signature`), redirects not followed, the body read up
 * to {@link HTTP_HOOK_BODY_LIMIT_BYTES}, private addresses refused per `policy`, the
 * connection kept alive for the next call. Never throws.
 *
 * @example
 * const answer = await postHookRequest(new URL('https://policy.example.com/hook'), body, { timeoutMs: 5000, policy, secret });
 * if (answer.kind === 'answered' && answer.status === 200) console.log(answer.body);
 */
export function postHookRequest(url: URL, body: string, options: PostHookRequestOptions): Promise<HookResponse> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const refused = urlRefusal(url, options.policy);
  if (refused) return Promise.resolve({ kind: 'failed', error: refused, elapsedMs: elapsed() });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'hookgate-http-hook',
    'x-hookgate-timestamp': timestamp,
    ...(options.secret ? { 'x-hookgate-signature': hookSignature(options.secret, timestamp, body) } : {}),
  };
  const pair = agentsFor(options.policy);
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const finish = (response: HookResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(response);
    };
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers,
      agent: secure ? pair.https : pair.http,
      lookup: guardedLookup(options.policy, !secure),
    });
    const timer = setTimeout(() => {
      finish({ kind: 'timed-out', elapsedMs: elapsed() });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        kind: 'failed',
        error: error.code === 'EHOOKREFUSED' ? error.message : `connection failed: ${error.message}`,
        elapsedMs: elapsed(),
      });
    });
    request.on('response', (response: IncomingMessage) => readBody(response, request.destroy.bind(request), finish, elapsed));
    request.end(body);
  });
}

function readBody(response: IncomingMessage, abort: () => void, finish: (r: HookResponse) => void, elapsed: () => number): void {
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > HTTP_HOOK_BODY_LIMIT_BYTES) {
      finish({ kind: 'failed', error: `the answer is larger than ${HTTP_HOOK_BODY_LIMIT_BYTES} bytes`, elapsedMs: elapsed() });
      abort();
      return;
    }
    chunks.push(chunk);
  });
  response.on('error', (error) => finish({ kind: 'failed', error: `connection failed: ${error.message}`, elapsedMs: elapsed() }));
  response.on('end', () => {
    finish({
      kind: 'answered',
      status: response.statusCode ?? 0,
      body: Buffer.concat(chunks).toString('utf8'),
      elapsedMs: elapsed(),
    });
  });
}

/**
 * An http hook's host resolved only to addresses the policy refuses (private, loopback,
 * link-local): the connection is never made. `code` lets the socket layer report it like a DNS error.
 */
export class HttpHookAddressRefusedError extends HookgateError {
  override readonly name = 'HttpHookAddressRefusedError';
  readonly code = 'EHOOKREFUSED';
}
