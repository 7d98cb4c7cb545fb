import { redactingReplier } from '../../messaging/redacting-replier.ts';
import { redactSecretsDeep } from '../../secrets/redact-secrets.ts';
import type { TurnRuntimeDeps } from './turn-runtime-deps.ts';

/**
 * The turn runtime's deps with every way out redacted (hook-semantics §5.8): replies, the
 * transcript it appends and the trace records it stores go through `redactSecrets` (known
 * secrets and their encodings, common secret shapes). Tool results are redacted where they
 * are made (`executeToolCall`), so the model and the observer events never see them either.
 *
 * @example
 * const handler = createTurnHandler(deps); // wraps withRedactedOutputs(deps) itself
 */
export function withRedactedOutputs(deps: TurnRuntimeDeps): TurnRuntimeDeps {
  const { transcripts, traces } = deps;
  return {
    ...deps,
    replier: redactingReplier(deps.replier),
    transcripts: {
      load: (sessionId) => transcripts.load(sessionId),
      loadRecent: (sessionId, window) => transcripts.loadRecent(sessionId, window),
      loadRange: (sessionId, fromSeq, toSeq) => transcripts.loadRange(sessionId, fromSeq, toSeq),
      append: (sessionId, messages) => transcripts.append(sessionId, redactSecretsDeep(messages)),
    },
    ...(traces
      ? {
          traces: {
            append: (records, sessionId) => traces.append(redactSecretsDeep(records), sessionId),
            list: (turnId) => traces.list(turnId),
            listSession: (sessionId) => traces.listSession(sessionId),
          },
        }
      : {}),
  };
}
