import { ReplyError } from './reply-error.ts';

/**
 * POSTs JSON to a platform API and returns the parsed answer; any transport failure or
 * non-2xx becomes a `ReplyError` carrying the status (never the request's secrets).
 */
export async function postJson(
  platform: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new ReplyError(platform, (error as Error).message ?? String(error));
  }
  const text = await response.text();
  if (!response.ok) throw new ReplyError(platform, `HTTP ${response.status} ${text.slice(0, 200)}`, response.status);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}
