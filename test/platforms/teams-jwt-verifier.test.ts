import { describe, expect, it } from 'vitest';
import { TeamsJwtVerifier } from '../../src/platforms/teams/teams-jwt-verifier.ts';
import { InvalidSignatureError, VerificationUnavailableError } from '../../src/platforms/webhook-errors.ts';

/** A port nothing listens on: the OpenID metadata cannot be fetched. */
const UNREACHABLE = 'http://127.0.0.1:1/openid';

describe('TeamsJwtVerifier', () => {
  it('refuses a bearer that is not a JWT with 401, even while the OpenID metadata is unreachable', async () => {
    const verifier = new TeamsJwtVerifier(UNREACHABLE, 'app');
    for (const header of ['Bearer notajwt', 'Bearer a.b', 'Bearer !!.??.**'])
      await expect(verifier.verify(header), header).rejects.toBeInstanceOf(InvalidSignatureError);
  });

  it('answers a well-formed JWT it cannot check yet as unavailable (503: the platform retries)', async () => {
    const header = Buffer.from('{"alg":"RS256","typ":"JWT"}').toString('base64url');
    const claims = Buffer.from('{"exp":9999999999}').toString('base64url');
    await expect(new TeamsJwtVerifier(UNREACHABLE, 'app').verify(`Bearer ${header}.${claims}.c2ln`)).rejects.toBeInstanceOf(
      VerificationUnavailableError,
    );
  });
});
