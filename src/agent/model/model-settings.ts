/** The model settings of the deployment config (`HOOKGATE_MODEL`, `_BASE_URL`, `_API_KEY`). */
export interface ModelSettings {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
}

/**
 * Used with a base URL but no `HOOKGATE_MODEL`.
 *
 * @example
 * const model = settings.name ?? DEFAULT_REMOTE_MODEL;
 */
export const DEFAULT_REMOTE_MODEL = 'gpt-4o-mini';
