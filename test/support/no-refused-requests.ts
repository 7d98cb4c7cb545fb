/**
 * Fails a test in which an AWS request was refused by a grant check (table-grants.ts,
 * resource-grants.ts), even when the code under test caught the refusal and went on (a trace or
 * outbox write that only logs a warning when it fails, as it would in AWS).
 */
import { afterEach, expect } from 'vitest';
import { refusedRequests } from './function-identity.ts';

afterEach(() => {
  const refused = refusedRequests.splice(0);
  expect(refused, 'requests the deployed function could not make (infra/lib/table-access.ts, resource-access.ts)').toEqual([]);
});
