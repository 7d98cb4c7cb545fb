import type { AllowlistEntry, AllowlistStore } from './allowlist-store.ts';

/**
 * An allowlist whose entries shipped with the deployment (the synth-time option
 * `-c approveShellHooks=all`, recorded in the bundle) in front of the deployment's own store
 * (the DynamoDB allowlist that `hookgate hooks approve --stack` writes). Shipped entries are
 * read-only here: recording and revoking go to the store behind.
 *
 * @example
 * const allowlist = withShippedApprovals(plane.allowlist, description.approvedShellHooks ?? []);
 */
export function withShippedApprovals(store: AllowlistStore, shipped: readonly AllowlistEntry[]): AllowlistStore {
  if (shipped.length === 0) return store;
  return {
    location: `${store.location} + approvals shipped with the deployment`,
    async find(event, command) {
      return shipped.find((entry) => entry.event === event && entry.command === command) ?? (await store.find(event, command));
    },
    async list() {
      return [...shipped, ...(await store.list())];
    },
    record: (entry) => store.record(entry),
    revoke: (command) => store.revoke(command),
  };
}
