import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HookLogger } from '../../hook-logger.ts';
import { HookgateError } from '../../../errors/hookgate-error.ts';

/*
 * Cross-process exclusive lock on a sibling `.lock` file, compatible with Hermes's Python
 * `fcntl.flock` on the same file (hook-semantics §3.9). Node has no flock(2), and an
 * `O_EXCL` create-and-retry loop is a different locking scheme that would not exclude a
 * Hermes process (and leaves stale files behind after a crash). So: open the lock file
 * here, hand that open file description to `flock(1)` (util-linux) as fd 3 and let it take
 * the lock; flock locks belong to the open file description, so the lock stays held after
 * `flock` exits, until we close our fd (which a crash does too). Within one process, a
 * promise-chain mutex per path serialises writers first (a flock on a second description
 * from the same process would deadlock on itself, and spawning per waiter is wasteful).
 * Without `flock(1)` (e.g. in Lambda, which uses the DynamoDB allowlist anyway) only the
 * in-process mutex applies; that is logged once at debug level.
 */

const chains = new Map<string, Promise<unknown>>();
let flockMissing = false;

/**
 * Runs `fn` holding the in-process mutex for `lockPath` and an exclusive flock on it.
 *
 * @example
 * await withFileLock('/home/u/.hermes/shell-hooks-allowlist.json.lock', logger, async () => rewrite());
 */
export function withFileLock<T>(lockPath: string, logger: HookLogger, fn: () => Promise<T>): Promise<T> {
  const previous = chains.get(lockPath) ?? Promise.resolve();
  const run = previous.then(
    () => holdFlock(lockPath, logger, fn),
    () => holdFlock(lockPath, logger, fn),
  );
  const tail = run.catch(() => undefined);
  chains.set(lockPath, tail);
  void tail.then(() => {
    if (chains.get(lockPath) === tail) chains.delete(lockPath);
  });
  return run;
}

async function holdFlock<T>(lockPath: string, logger: HookLogger, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lockPath), { recursive: true });
  const fd = openSync(lockPath, 'a', 0o600); // never deleted, never truncated (§0.1)
  try {
    if (!flockMissing) await flock(fd, logger);
    return await fn();
  } finally {
    closeSync(fd); // releases the flock
  }
}

function flock(fd: number, logger: HookLogger): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', ['--exclusive', '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        flockMissing = true;
        logger.debug('flock(1) not found: the allowlist lock is in-process only');
        resolve();
      } else reject(error);
    });
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new AllowlistLockError(`flock failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** flock(1) could not take the allowlist's lock: the approval is not written. */
export class AllowlistLockError extends HookgateError {
  override readonly name = 'AllowlistLockError';
}
