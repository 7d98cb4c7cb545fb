/**
 * Fails a test in which a table request was refused by the grant check (table-grants.ts), even
 * when the code under test caught the refusal and went on (a trace or outbox write that only
 * logs a warning when it fails, as it would in AWS).
 */
import { afterEach, expect } from 'vitest';
import { refusedTableRequests } from './table-grants.ts';

afterEach(() => {
  const refused = refusedTableRequests.splice(0);
  expect(refused, 'table requests the deployed function could not make (infra/lib/table-access.ts)').toEqual([]);
});
