import { OpenAiTransport } from './openai-transport.ts';
import type { ModelTransport } from './model-transport.ts';
import { DEFAULT_REMOTE_MODEL, type ModelSettings } from './model-settings.ts';
import { StandInModel } from './stand-in-model.ts';

/**
 * The configured OpenAI-compatible endpoint, or the built-in local stand-in model when no
 * base URL is set (the embedded default: no account anywhere).
 *
 * @example
 * const transport = modelFromConfig(config.model); // StandInModel when HOOKGATE_MODEL_BASE_URL is unset
 */
export function modelFromConfig(settings: ModelSettings): ModelTransport {
  if (!settings.baseUrl) return new StandInModel();
  return new OpenAiTransport({
    model: settings.name ?? DEFAULT_REMOTE_MODEL,
    baseUrl: settings.baseUrl,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
}
