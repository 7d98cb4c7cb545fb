import { AttachmentDownloadError, AttachmentTooLargeError } from './attachment-download-errors.ts';
import { errorText } from '../errors/error-text.ts';

/** One download may take this long (each request). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** An `Authorization: Bearer` header. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** `https://files.slack.com/files-pri/T-F/x.png` at base `http://proxy/slack` → `http://proxy/slack/files-pri/T-F/x.png`. */
export function rebased(url: string, base: string | undefined): string {
  if (!base) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AttachmentDownloadError('the attachment URL is not a URL');
  }
  return `${base}${parsed.pathname}${parsed.search}`;
}

/** GET `url` (at most 1 MiB) and parse it as JSON. */
export async function fetchJson(
  url: string,
  headers: Record<string, string>,
  what: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const bytes = await fetchBounded(url, headers, 1024 * 1024, what, signal);
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new AttachmentDownloadError(`${what}: the answer is not JSON`);
  }
}

/** GET `url`; the body is read up to `maxBytes` and the request dropped past it. */
export async function fetchBounded(
  url: string,
  headers: Record<string, string>,
  maxBytes: number,
  what: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'follow', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throw new AttachmentDownloadError(`${what}: no answer (${errorText(error)})`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new AttachmentDownloadError(`${what}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new AttachmentTooLargeError(declared, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new AttachmentTooLargeError(total, maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof AttachmentTooLargeError) throw error;
    throw new AttachmentDownloadError(`${what}: the download broke off (${errorText(error)})`);
  }
  return Buffer.concat(chunks);
}
