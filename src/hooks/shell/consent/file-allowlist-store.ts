import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HookLogger } from '../../hook-logger.ts';
import { isPlainObject } from '../../python-truthiness.ts';
import { renderAllowlistFile } from './allowlist-file-format.ts';
import type { AllowlistEntry, AllowlistStore } from './allowlist-store.ts';
import { withFileLock } from './file-lock.ts';
import { errorText } from '../../../errors/error-text.ts';

export const ALLOWLIST_FILE_NAME = 'shell-hooks-allowlist.json';

/**
 * The allowlist file `<home>/shell-hooks-allowlist.json` (hook-semantics §3.9): read
 * leniently (anything broken reads as no approvals), written by an atomic replace
 * (`…json.<random>.tmp`, mode 0600, rename) under the `.lock` sibling's exclusive lock.
 * Unknown top-level keys and malformed entries survive rewrites.
 *
 * @example
 * const store = createFileAllowlistStore(resolveHooksHome(), logger);
 * await store.find('pre_tool_call', '~/.hermes/agent-hooks/guard.sh');
 */
export function createFileAllowlistStore(home: string, logger: HookLogger): AllowlistStore {
  return new FileAllowlistStore(join(home, ALLOWLIST_FILE_NAME), logger);
}

class FileAllowlistStore implements AllowlistStore {
  constructor(
    readonly location: string,
    private readonly logger: HookLogger,
  ) {}

  async find(event: string, command: string): Promise<AllowlistEntry | undefined> {
    return wellFormed(this.#read().approvals).find((e) => e.event === event && e.command === command);
  }

  async list(): Promise<AllowlistEntry[]> {
    return wellFormed(this.#read().approvals);
  }

  async record(entry: AllowlistEntry): Promise<boolean> {
    return this.#rewrite((approvals) => {
      const kept = approvals.filter((e) => !(isPlainObject(e) && e.event === entry.event && e.command === entry.command));
      return { approvals: [...kept, { ...entry }], result: true };
    }, false);
  }

  async revoke(command: string): Promise<number> {
    return this.#rewrite((approvals) => {
      const kept = approvals.filter((e) => !(isPlainObject(e) && e.command === command));
      return { approvals: kept, result: approvals.length - kept.length };
    }, 0);
  }

  /** Read-modify-write under the lock; a failure is the §3.9 "Failed to persist" warning. */
  async #rewrite<T>(change: (approvals: unknown[]) => { approvals: unknown[]; result: T }, onFailure: T): Promise<T> {
    try {
      return await withFileLock(`${this.location}.lock`, this.logger, async () => {
        const data = this.#read();
        const { approvals, result } = change(data.approvals);
        if (approvals.length !== data.approvals.length || result === true) {
          this.#writeAtomically(renderAllowlistFile({ ...data.rest, approvals }));
        }
        return result;
      });
    } catch (error) {
      this.logger.warn(
        `Failed to persist shell hook allowlist to ${this.location}: ${errorText(error)}. ` +
          'The approval holds in memory for this run only; the next startup will re-prompt ' +
          '(or skip the hook on a non-TTY run without --accept-hooks).',
      );
      return onFailure;
    }
  }

  #read(): { approvals: unknown[]; rest: Record<string, unknown> } {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(this.location, 'utf8'));
    } catch {
      return { approvals: [], rest: {} };
    }
    if (!isPlainObject(data)) return { approvals: [], rest: {} };
    const { approvals, ...rest } = data;
    return { approvals: Array.isArray(approvals) ? approvals : [], rest };
  }

  #writeAtomically(text: string): void {
    mkdirSync(dirname(this.location), { recursive: true });
    const tmp = `${this.location}.${randomBytes(6).toString('hex')}.tmp`;
    let fd: number | undefined;
    try {
      fd = openSync(tmp, 'wx', 0o600);
      writeSync(fd, text);
      closeSync(fd);
      fd = undefined;
      renameSync(tmp, this.location);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(tmp);
      } catch {
        // never created
      }
      throw error;
    }
  }
}

function wellFormed(approvals: unknown[]): AllowlistEntry[] {
  return approvals.filter(
    (e): e is AllowlistEntry => isPlainObject(e) && typeof e.event === 'string' && typeof e.command === 'string',
  );
}
