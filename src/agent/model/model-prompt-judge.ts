import { judgeInstruction, type PromptJudge } from '../../hooks/prompt/prompt-judge.ts';
import { DEFAULT_REMOTE_MODEL, type ModelSettings } from './model-settings.ts';
import type { OpenAiTransport } from './openai-transport.ts';

/**
 * The judge of `type: prompt` hooks on the deployment's model (hook-semantics §5.10): the
 * instruction and the entry's prompt as the system message, the hook input as the user
 * message, the entry's `model:` (else the deployment's). Undefined when no model endpoint is
 * configured: the engine then uses the local stand-in judge.
 *
 * @example
 * const promptJudge = modelPromptJudge(config.model); // pass to createHookEngine({ promptJudge })
 */
export function modelPromptJudge(settings: ModelSettings): PromptJudge | undefined {
  const { baseUrl } = settings;
  if (!baseUrl) return undefined;
  const transports = new Map<string, OpenAiTransport>();
  return async (request) => {
    const model = request.model ?? settings.name ?? DEFAULT_REMOTE_MODEL;
    let transport = transports.get(model);
    if (!transport) {
      // The transport and its wire schemas load with the first prompt hook, not at every cold start.
      const { OpenAiTransport } = await import('./openai-transport.ts');
      transport =
        transports.get(model) ?? new OpenAiTransport({ model, baseUrl, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
      transports.set(model, transport);
    }
    const completion = await transport.send(
      {
        model,
        messages: [
          { role: 'system', content: judgeInstruction(request) },
          { role: 'user', content: request.input },
        ],
        max_tokens: 300,
      },
      request.signal,
    );
    return completion.choices[0]?.message.content ?? '';
  };
}
