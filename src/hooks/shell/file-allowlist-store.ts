import type { AllowlistEntry, AllowlistStore } from './allowlist-store.ts';
import type { HookLogger } from '../hook-logger.ts';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';

/**
 * The allowlist file `<home>/shell-hooks-allowlist.json` (hook-semantics §3.9).
 * (First version: reads only; writes follow.)
 */
export function createFileAllowlistStore(home: string, logger: HookLogger): AllowlistStore {
  const path = join(home, 'shell-hooks-allowlist.json');
  const read = async (): Promise<AllowlistEntry[]> => {
    try {
      const data: unknown = JSON.parse(await readFile(path, 'utf8'));
      const approvals = (data as { approvals?: unknown }).approvals;
      return Array.isArray(approvals) ? (approvals as AllowlistEntry[]) : [];
    } catch {
      return [];
    }
  };
  return {
    location: path,
    async find(event, command) {
      return (await read()).find((e) => e.event === event && e.command === command);
    },
    list: read,
    async record() {
      logger.warn(`Failed to persist shell hook allowlist to ${path}: not implemented yet`);
      return false;
    },
    async revoke() {
      return 0;
    },
  };
}
