import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import * as z from '../../validation/zod.ts';
import { InvalidSignatureError, VerificationUnavailableError } from '../webhook-errors.ts';
import { errorText } from '../../errors/error-text.ts';

const OpenIdMetadata = z.looseObject({ issuer: z.string().check(z.minLength(1)), jwks_uri: z.url() });

/** The JWKS as far as hookgate reads it: each key's id and the channels it endorses. */
const KeySet = z.looseObject({
  keys: z.array(z.looseObject({ kid: z.optional(z.string()), endorsements: z.optional(z.array(z.string())) })),
});

/** Bot Framework allows five minutes of clock skew. */
const CLOCK_SKEW_SECONDS = 300;
/** Metadata changes rarely; re-read it daily. */
const METADATA_TTL_MS = 24 * 3600 * 1000;
/** The keys are read again after this long, and when a token names a key not in them (keys rotate)… */
const KEYS_TTL_MS = 3600 * 1000;
/** …but not more than once a minute: a token naming a made-up key must not make every request a fetch. */
const KEYS_REFETCH_COOLDOWN_MS = 60_000;

/** A verified token: its claims, and the channels its signing key endorses (when the key lists them). */
export interface VerifiedToken {
  claims: JWTPayload;
  endorsements?: readonly string[];
}

/**
 * Verifies the bearer JWT of a Bot Framework request: OpenID metadata → JWKS (cached),
 * signature, issuer from the metadata, audience = the app id, `exp` required with a
 * 5-minute skew. Returns the claims and the signing key's `endorsements`; the caller checks
 * `serviceUrl` and the activity's `channelId` against them. Metadata or keys that cannot be
 * fetched are a `VerificationUnavailableError` (503: the platform retries), never a 401.
 *
 * @example
 * const verifier = new TeamsJwtVerifier(config.openIdMetadataUrl, config.appId);
 * const { claims, endorsements } = await verifier.verify(request.headers.get('authorization'));
 */
export class TeamsJwtVerifier {
  private metadata?: { issuer: string; jwksUri: string; until: number };
  private keys?: { uri: string; set: z.infer<typeof KeySet>; verifyWith: ReturnType<typeof createLocalJWKSet>; at: number };

  constructor(
    private readonly metadataUrl: string,
    private readonly appId: string,
  ) {}

  async verify(authorization: string | null): Promise<VerifiedToken> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) throw new InvalidSignatureError('teams: Authorization: Bearer <jwt> is missing');
    // Not a JWT at all: a 401 whatever the state of the metadata (its fetch failing would make it a 503).
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(match[1]!).kid;
    } catch {
      throw new InvalidSignatureError('teams: the bearer token is not a JWT');
    }
    // Bot Framework's tokens name their key. Without a kid the key would be found by algorithm alone, and its
    // endorsements (the channels it may sign for) could not be told: the channel check would be skipped.
    if (!kid) throw new InvalidSignatureError('teams: the bearer token names no signing key (kid)');
    const { issuer, jwksUri } = await this.load();
    const keys = await this.keySet(jwksUri, kid);
    try {
      const { payload } = await jwtVerify(match[1]!, keys.verifyWith, {
        issuer,
        audience: this.appId,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp'],
      });
      const endorsements = keys.set.keys.find((key) => key.kid === kid)?.endorsements;
      return { claims: payload, ...(endorsements ? { endorsements } : {}) };
    } catch (error) {
      const reason = error instanceof joseErrors.JOSEError ? error.code : 'invalid token';
      throw new InvalidSignatureError(`teams: the bearer token does not verify (${reason})`);
    }
  }

  /** The JWKS, read again when stale or when `kid` is not in it (at most once a cool-down). */
  private async keySet(uri: string, kid: string | undefined): Promise<NonNullable<TeamsJwtVerifier['keys']>> {
    const cached = this.keys?.uri === uri ? this.keys : undefined;
    const age = cached ? Date.now() - cached.at : Number.POSITIVE_INFINITY;
    const known = cached?.set.keys.some((key) => key.kid === kid) ?? false;
    if (cached && age < KEYS_TTL_MS && (known || age < KEYS_REFETCH_COOLDOWN_MS)) return cached;
    const json = await fetchJson(uri, 'signing keys');
    const set = KeySet.safeParse(json);
    if (!set.success) throw new VerificationUnavailableError('teams: the signing keys are not a JWKS');
    let verifyWith: ReturnType<typeof createLocalJWKSet>;
    try {
      verifyWith = createLocalJWKSet(json as JSONWebKeySet);
    } catch {
      throw new VerificationUnavailableError('teams: the signing keys are not a JWKS');
    }
    this.keys = { uri, set: set.data, verifyWith, at: Date.now() };
    return this.keys;
  }

  private async load(): Promise<{ issuer: string; jwksUri: string }> {
    if (this.metadata && this.metadata.until > Date.now()) return this.metadata;
    const parsed = OpenIdMetadata.safeParse(await fetchJson(this.metadataUrl, 'OpenID metadata'));
    if (!parsed.success) throw new VerificationUnavailableError('teams: OpenID metadata has no issuer/jwks_uri');
    this.metadata = { issuer: parsed.data.issuer, jwksUri: parsed.data.jwks_uri, until: Date.now() + METADATA_TTL_MS };
    return this.metadata;
  }
}

/** Login-service JSON, or `VerificationUnavailableError` (503: the platform retries) when it cannot be had. */
async function fetchJson(url: string, what: string): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new VerificationUnavailableError(`teams: ${what} unreachable (HTTP ${response.status})`);
    return await response.json();
  } catch (error) {
    if (error instanceof VerificationUnavailableError) throw error;
    throw new VerificationUnavailableError(`teams: ${what} unreachable (${errorText(error)})`);
  }
}
