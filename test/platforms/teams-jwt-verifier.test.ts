import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamsAdapter } from '../../src/platforms/teams/teams-adapter.ts';
import { TeamsJwtVerifier } from '../../src/platforms/teams/teams-jwt-verifier.ts';
import { InvalidSignatureError, VerificationUnavailableError } from '../../src/platforms/webhook-errors.ts';

/** A port nothing listens on: the OpenID metadata cannot be fetched. */
const UNREACHABLE = 'http://127.0.0.1:1/openid';
const ISSUER = 'https://api.botframework.com';
const SERVICE_URL = 'https://smba.trafficmanager.net/teams/';

/** Bot Framework's login endpoints as the verifier reads them: OpenID metadata and a JWKS whose answer a test sets. */
let server: Server;
let base = '';
let jwks: { status: number; body: unknown } = { status: 200, body: { keys: [] } };
let jwksFetches = 0;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let publicJwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', use: 'sig', alg: 'RS256' };
  server = createServer((req, res) => {
    if (req.url === '/openid') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ issuer: ISSUER, jwks_uri: `${base}/jwks` }));
    }
    jwksFetches++;
    res.writeHead(jwks.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const token = (kid = 'k1') =>
  new SignJWT({ serviceUrl: SERVICE_URL })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(ISSUER)
    .setAudience('app')
    .setExpirationTime('5m')
    .sign(signingKey);

describe('TeamsJwtVerifier', () => {
  it('refuses a bearer that is not a JWT with 401, even while the OpenID metadata is unreachable', async () => {
    const verifier = new TeamsJwtVerifier(UNREACHABLE, 'app');
    for (const header of ['Bearer notajwt', 'Bearer a.b', 'Bearer !!.??.**'])
      await expect(verifier.verify(header), header).rejects.toBeInstanceOf(InvalidSignatureError);
  });

  it('answers a well-formed JWT it cannot check yet as unavailable (503: the platform retries)', async () => {
    const header = Buffer.from('{"alg":"RS256","typ":"JWT","kid":"k1"}').toString('base64url');
    const claims = Buffer.from('{"exp":9999999999}').toString('base64url');
    await expect(new TeamsJwtVerifier(UNREACHABLE, 'app').verify(`Bearer ${header}.${claims}.c2ln`)).rejects.toBeInstanceOf(
      VerificationUnavailableError,
    );
  });

  it('answers 503, not 401, when the signing keys cannot be fetched: an outage at the login service is not a forgery', async () => {
    for (const failing of [
      { status: 500, body: { error: 'down' } },
      { status: 200, body: { not: 'a key set' } },
    ]) {
      jwks = failing;
      await expect(new TeamsJwtVerifier(`${base}/openid`, 'app').verify(`Bearer ${await token()}`)).rejects.toBeInstanceOf(
        VerificationUnavailableError,
      );
    }
  });

  it("verifies with the fetched keys, reads a key again for a kid it does not know (at most once a minute), and returns the key's endorsements", async () => {
    jwks = { status: 200, body: { keys: [{ ...publicJwk, kid: 'old' }] } };
    const verifier = new TeamsJwtVerifier(`${base}/openid`, 'app');
    await expect(verifier.verify(`Bearer ${await token()}`)).rejects.toBeInstanceOf(InvalidSignatureError);
    // The keys rotated: a token naming the new one is checked against the keys read again.
    jwks = { status: 200, body: { keys: [{ ...publicJwk, endorsements: ['msteams'] }] } };
    const fetched = jwksFetches;
    const fresh = new TeamsJwtVerifier(`${base}/openid`, 'app');
    const verified = await fresh.verify(`Bearer ${await token()}`);
    expect(verified.claims.serviceUrl).toBe(SERVICE_URL);
    expect(verified.endorsements).toEqual(['msteams']);
    // A made-up kid right after: refused without another fetch.
    await expect(fresh.verify(`Bearer ${await token('made-up')}`)).rejects.toBeInstanceOf(InvalidSignatureError);
    expect(jwksFetches).toBe(fetched + 1);
  });

  it("refuses an activity for a channel the signing key does not endorse (Bot Framework's endorsement check)", async () => {
    jwks = { status: 200, body: { keys: [{ ...publicJwk, endorsements: ['webchat'] }] } };
    const adapter = teamsAdapter({
      appId: 'app',
      appPassword: 'p',
      openIdMetadataUrl: `${base}/openid`,
      tokenUrl: `${base}/token`,
    });
    const activity = (channelId: string) =>
      JSON.stringify({
        type: 'message',
        id: `a-${channelId}`,
        serviceUrl: SERVICE_URL,
        channelId,
        from: { id: 'u1' },
        conversation: { id: 'conv1' },
        text: 'hi',
      });
    const request = async (channelId: string) =>
      adapter.handle({
        method: 'POST',
        url: new URL('http://gateway/webhooks/teams'),
        headers: new Headers({ authorization: `Bearer ${await token()}` }),
        body: new TextEncoder().encode(activity(channelId)),
      });
    await expect(request('msteams')).rejects.toThrow(/does not endorse channel "msteams"/);
    expect((await request('webchat')).kind).toBe('deliver');
  });

  it('refuses a token that names no key (kid), whose endorsements could not be checked, with 401', async () => {
    jwks = { status: 200, body: { keys: [{ ...publicJwk, endorsements: ['webchat'] }] } };
    const kidless = await new SignJWT({ serviceUrl: SERVICE_URL })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(ISSUER)
      .setAudience('app')
      .setExpirationTime('5m')
      .sign(signingKey);
    const verifier = new TeamsJwtVerifier(`${base}/openid`, 'app');
    await expect(verifier.verify(`Bearer ${kidless}`)).rejects.toThrow('teams: the bearer token names no signing key (kid)');
  });
});
