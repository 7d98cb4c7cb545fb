import type { AllowlistEntry } from './allowlist-store.ts';
import { parseIsoMicros } from './iso-timestamp.ts';
import { scriptMtime, scriptSha256 } from './script-path.ts';

export type Drift =
  /** §5.5: a fingerprint was recorded and differs from the file's now. */
  | { kind: 'content-changed'; recorded: string; current: string }
  /** §5.5: same content; `mtimeMoved` when the timestamp changed anyway. */
  | { kind: 'content-same'; mtimeMoved: boolean; recordedMtime: string | null; currentMtime: string | null }
  /** §4.1/§4.4 mtime rule: the current mtime is a later instant than the recorded one. */
  | { kind: 'mtime-later'; recorded: string; current: string }
  /** Both mtimes are the same instant. */
  | { kind: 'mtime-same' }
  /** Nothing to say (no record, unreadable file, an earlier mtime). */
  | { kind: 'unknown' };

/**
 * Has the script of an approved command changed since approval? The fingerprint decides
 * when one was recorded and can be computed now (§5.5); otherwise the mtimes, compared as
 * instants (§5.7).
 *
 * @example
 * const drift = scriptDrift(await allowlist.find(event, command), command);
 * if (drift.kind === 'content-changed') console.log('⚠ script content changed since approval');
 */
export function scriptDrift(entry: AllowlistEntry, command: string, env: NodeJS.ProcessEnv = process.env): Drift {
  const recordedSha = entry.script_sha256_at_approval;
  const currentMtime = scriptMtime(command, env);
  const recordedMtime = typeof entry.script_mtime_at_approval === 'string' ? entry.script_mtime_at_approval : null;
  if (typeof recordedSha === 'string' && recordedSha !== '') {
    const currentSha = scriptSha256(command, env);
    if (currentSha !== null) {
      if (currentSha !== recordedSha) return { kind: 'content-changed', recorded: recordedSha, current: currentSha };
      const a = parseIsoMicros(recordedMtime);
      const b = parseIsoMicros(currentMtime);
      return { kind: 'content-same', mtimeMoved: a !== undefined && b !== undefined && a !== b, recordedMtime, currentMtime };
    }
  }
  const recorded = parseIsoMicros(recordedMtime);
  const current = parseIsoMicros(currentMtime);
  if (recorded === undefined || current === undefined) return { kind: 'unknown' };
  if (current > recorded) return { kind: 'mtime-later', recorded: recordedMtime!, current: currentMtime! };
  if (current === recorded) return { kind: 'mtime-same' };
  return { kind: 'unknown' };
}
