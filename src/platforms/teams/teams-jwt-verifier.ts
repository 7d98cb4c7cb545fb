import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import * as z from '../../validation/zod.ts';
import { InvalidSignatureError, VerificationUnavailableError } from '../webhook-errors.ts';
import { errorText } from '../../errors/error-text.ts';

const OpenIdMetadata = z.looseObject({ issuer: z.string().check(z.minLength(1)), jwks_uri: z.url() });

/** Bot Framework allows five minutes of clock skew. */
const CLOCK_SKEW_SECONDS = 300;
/** Metadata changes rarely; re-read it daily (keys rotate through the JWKS, which jose refetches). */
const METADATA_TTL_MS = 24 * 3600 * 1000;

/**
 * Verifies the bearer JWT of a Bot Framework request: OpenID metadata → JWKS (cached),
 * signature, issuer from the metadata, audience = the app id, `exp` required with a
 * 5-minute skew. Returns the claims; the caller checks `serviceUrl` against the activity.
 *
 * @example
 * const verifier = new TeamsJwtVerifier(config.openIdMetadataUrl, config.appId);
 * const claims = await verifier.verify(request.headers.get('authorization'));
 */
export class TeamsJwtVerifier {
  private metadata?: { issuer: string; jwks: ReturnType<typeof createRemoteJWKSet>; until: number };

  constructor(
    private readonly metadataUrl: string,
    private readonly appId: string,
  ) {}

  async verify(authorization: string | null): Promise<JWTPayload> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) throw new InvalidSignatureError('teams: Authorization: Bearer <jwt> is missing');
    // Not a JWT at all: a 401 whatever the state of the metadata (its fetch failing would make it a 503).
    try {
      decodeProtectedHeader(match[1]!);
    } catch {
      throw new InvalidSignatureError('teams: the bearer token is not a JWT');
    }
    const { issuer, jwks } = await this.load();
    try {
      const { payload } = await jwtVerify(match[1]!, jwks, {
        issuer,
        audience: this.appId,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout) throw new VerificationUnavailableError('teams: signing keys unreachable');
      const reason = error instanceof joseErrors.JOSEError ? error.code : 'invalid token';
      throw new InvalidSignatureError(`teams: the bearer token does not verify (${reason})`);
    }
  }

  private async load(): Promise<{ issuer: string; jwks: ReturnType<typeof createRemoteJWKSet> }> {
    if (this.metadata && this.metadata.until > Date.now()) return this.metadata;
    let json: unknown;
    try {
      const response = await fetch(this.metadataUrl, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new VerificationUnavailableError(`teams: OpenID metadata unreachable (HTTP ${response.status})`);
      json = await response.json();
    } catch (error) {
      if (error instanceof VerificationUnavailableError) throw error;
      throw new VerificationUnavailableError(`teams: OpenID metadata unreachable (${errorText(error)})`);
    }
    const parsed = OpenIdMetadata.safeParse(json);
    if (!parsed.success) throw new VerificationUnavailableError('teams: OpenID metadata has no issuer/jwks_uri');
    this.metadata = {
      issuer: parsed.data.issuer,
      jwks: createRemoteJWKSet(new URL(parsed.data.jwks_uri)),
      until: Date.now() + METADATA_TTL_MS,
    };
    return this.metadata;
  }
}
