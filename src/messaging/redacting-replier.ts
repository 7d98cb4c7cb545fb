import { redactSecrets } from '../secrets/redact-secrets.ts';
import type { Replier } from './replier.ts';

/**
 * A `Replier` whose every message is redacted first (`redactSecrets`: known secrets and their
 * encodings, common secret shapes): the one door through which the bot's text reaches a
 * platform.
 *
 * @example
 * const replier = redactingReplier(createReplier(config));
 */
export function redactingReplier(replier: Replier): Replier {
  return { send: (target, text) => replier.send(target, redactSecrets(text)) };
}
