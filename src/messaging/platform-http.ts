import { ReplyError } from './reply-error.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * The pause a platform asks for on 429/503: the `Retry-After` header (seconds or an HTTP
 * date; Slack, Discord), else Telegram's `parameters.retry_after`, else Discord's body
 * `retry_after` (seconds, fractional).
 */
export function retryAfterMs(headers: Headers, body: unknown, now: number = Date.now()): number | undefined {
  const header = headers.get('retry-after')?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return Math.ceil(Number(header) * 1000);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  if (body && typeof body === 'object') {
    const record = body as { parameters?: { retry_after?: unknown }; retry_after?: unknown };
    const seconds = record.parameters?.retry_after ?? record.retry_after;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  }
  return undefined;
}

/**
 * POSTs JSON to a platform API and returns the parsed answer; any transport failure or
 * non-2xx becomes a `ReplyError` carrying the status and the pause the platform asked for
 * (never the request's secrets).
 */
export async function postJson(
  platform: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    text = await response.text();
  } catch (error) {
    // No answer (refused, reset, timed out, cut mid-body): the caller may try again.
    throw new ReplyError(platform, errorText(error));
  }
  let json: unknown = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    throw new ReplyError(
      platform,
      `HTTP ${response.status} ${text.slice(0, 200)}`,
      response.status,
      retryAfterMs(response.headers, json),
    );
  }
  return json;
}
