import { AsyncLocalStorage } from 'node:async_hooks';
import type { FunctionName } from '../../infra/lib/table-access.ts';

/**
 * Which deployed function the code running now stands for, in tests. The emulators check no
 * IAM, so a call a function's role does not allow passed every test and failed only in AWS; the
 * grant checks (table-grants.ts, resource-grants.ts) refuse such a call as IAM would, for the
 * function `asFunction` names. Code outside `asFunction` (a test's own setup and checks) is not
 * checked.
 */
const running = new AsyncLocalStorage<FunctionName>();

/** Every request refused so far, for a test to assert none was (a refusal may be caught and logged by the code). */
export const refusedRequests: string[] = [];

/**
 * Runs `fn` as the code of the deployed function `name`: its AWS requests are checked against
 * that function's grants.
 *
 * @example
 * await asFunction('turn', () => handler(event));
 */
export function asFunction<R>(name: FunctionName, fn: () => R): R {
  return running.run(name, fn);
}

/** The function the running code stands for, if any. */
export function currentFunction(): FunctionName | undefined {
  return running.getStore();
}

/**
 * Records a refusal and returns the error IAM would answer with (`AccessDenied` for S3,
 * `AccessDeniedException` for the JSON services).
 *
 * @example
 * throw refuse('the gateway function may not sqs:ReceiveMessage on turns', 'sqs:ReceiveMessage', 'AccessDeniedException');
 */
export function refuse(refusal: string, action: string, errorName: string): Error {
  refusedRequests.push(refusal);
  process.stderr.write(`grant check: ${refusal}\n`);
  return Object.assign(new Error(`User is not authorized to perform: ${action}: ${refusal}`), {
    name: errorName,
    $fault: 'client',
    $metadata: { httpStatusCode: errorName === 'AccessDenied' ? 403 : 400 },
  });
}
