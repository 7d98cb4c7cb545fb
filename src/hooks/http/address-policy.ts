import { BlockList, isIP } from 'node:net';

/** Which destinations an http hook may reach (hook-semantics §5.10). */
export interface AddressPolicy {
  /** `hooks.http_allow_private: true`: private, loopback and link-local addresses are allowed. */
  readonly allowPrivate: boolean;
  /** Loopback only (127.0.0.0/8, ::1): `hookgate dev` allows it, for hooks served on the same machine. */
  readonly allowLoopback: boolean;
}

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** Not routable on the internet, or not a unicast host: refused like a private range. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('ff00::', 8, 'ipv6');

/**
 * What kind of address an IP literal is. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is
 * judged as the IPv4 address it maps; something that is not an IP is `private` (refused).
 *
 * @example
 * addressKind('127.0.0.1') // 'loopback'
 * addressKind('169.254.169.254') // 'link-local'
 */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const ip = mapped ? mapped[1]! : bare;
  const family = isIP(ip);
  if (family === 0) return 'private';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/**
 * Why `address` may not be reached under `policy`, or undefined when it may.
 *
 * @example
 * refusalOf('10.0.0.5', { allowPrivate: false, allowLoopback: true }) // 'a private address (10.0.0.5)'
 */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  const kind = addressKind(address);
  if (kind === 'public' || policy.allowPrivate) return undefined;
  if (kind === 'loopback' && policy.allowLoopback) return undefined;
  return `${kind === 'link-local' ? 'a link-local' : kind === 'loopback' ? 'a loopback' : 'a private'} address (${address})`;
}

/** Why plain http may not reach a host name: it could leave the machine or the operator's network in the clear. */
export const PLAIN_HTTP_REFUSAL =
  'refused: plain http is only for a loopback address (hookgate dev) or, with hooks.http_allow_private: true, a private one; use https';

/**
 * Why an http hook may not connect to `address` (the end of a refusal message), or undefined
 * when it may: an address `policy` refuses, or a public one over plain http (`plainHttp`).
 *
 * @example
 * connectRefusal('10.0.0.5', { allowPrivate: true, allowLoopback: false }, true) // undefined
 * connectRefusal('93.184.216.34', { allowPrivate: true, allowLoopback: false }, true) // 'a public address (93.184.216.34) over plain http; use https'
 */
export function connectRefusal(address: string, policy: AddressPolicy, plainHttp: boolean): string | undefined {
  const refused = refusalOf(address, policy);
  if (refused) return `${refused}; set hooks.http_allow_private: true to allow it`;
  if (plainHttp && addressKind(address) === 'public') return `a public address (${address}) over plain http; use https`;
  return undefined;
}
