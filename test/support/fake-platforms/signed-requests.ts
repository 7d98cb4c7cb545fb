import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * Correctly signed webhook requests, built the way each platform builds them, so tests
 * exercise the real verification code.
 */

/** A body as sent: text (as UTF-8) or bytes (anything, bad UTF-8 included), signed as it goes on the wire. */
type Body = string | Uint8Array;

export function slackHeaders(secret: string, body: Body, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
  return { 'content-type': 'application/json', 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
}

export function whatsAppHeaders(appSecret: string, body: Body): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`,
  };
}

export interface DiscordKeys {
  publicKeyHex: string;
  privateKey: KeyObject;
}

/** A fresh Ed25519 key pair; the public key as the 64 hex digits Discord shows. */
export function discordKeys(): DiscordKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicKeyHex: der.subarray(der.length - 32).toString('hex'), privateKey };
}

export function discordHeaders(
  keys: DiscordKeys,
  body: Body,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Record<string, string> {
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), keys.privateKey).toString('hex');
  return { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
}
