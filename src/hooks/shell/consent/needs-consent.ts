import type { HookEntryType } from '../config/shell-hook-entry.ts';

/**
 * Whether a hook entry runs only once its (event, key) pair is approved (hook-semantics §3.4,
 * §5.10): a command and an http hook do (the script, the URL); a prompt hook does not, since it
 * runs no code of anyone's and sends its input only to the deployment's model. The one rule
 * registration, `hookgate hooks list`, the run state and the console read.
 *
 * @example
 * needsConsent({ type: 'prompt' }); // false
 * needsConsent({});                 // true (a command)
 */
export function needsConsent(entry: { readonly type?: HookEntryType | undefined }): boolean {
  return entry.type !== 'prompt';
}
