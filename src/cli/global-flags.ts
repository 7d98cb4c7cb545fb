/**
 * `--accept-hooks` is accepted at any position of any command line (hook-semantics §4),
 * before or after sub-command names, so it is taken out before commander parses the rest.
 */
export interface GlobalFlags {
  acceptHooks: boolean;
}

export function extractGlobalFlags(argv: readonly string[]): { flags: GlobalFlags; rest: string[] } {
  const rest: string[] = [];
  let acceptHooks = false;
  let afterDoubleDash = false;
  for (const arg of argv) {
    if (!afterDoubleDash && arg === '--accept-hooks') {
      acceptHooks = true;
      continue;
    }
    if (arg === '--') afterDoubleDash = true;
    rest.push(arg);
  }
  return { flags: { acceptHooks }, rest };
}
