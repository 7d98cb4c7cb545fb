import * as z from '../../validation/zod.ts';
import { HookgateError } from '../../errors/hookgate-error.ts';
import { logExcerpt } from '../../secrets/log-excerpt.ts';
import { errorText } from '../../errors/error-text.ts';

/** Turns an audio file's bytes into text. */
export type Transcriber = (bytes: Uint8Array, mime: string, name: string, signal?: AbortSignal) => Promise<string>;

export class TranscriptionError extends HookgateError {
  override readonly name = 'TranscriptionError';
}

const TranscriptionAnswer = z.looseObject({ text: z.string() });

/**
 * An OpenAI-compatible transcription endpoint: `POST {baseUrl}/audio/transcriptions`, multipart
 * `file` + `model`, answer `{"text"}` (validated). Configured with `HOOKGATE_TRANSCRIPTION_BASE_URL`;
 * without it audio is noted, not transcribed (docs/attachments.md).
 *
 * @example
 * const transcribe = createTranscriber({ baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey });
 * const text = await transcribe(oggBytes, 'audio/ogg', 'voice.ogg');
 */
export function createTranscriber(options: { baseUrl: string; model: string; apiKey?: string; timeoutMs?: number }): Transcriber {
  return async (bytes, mime, name, signal) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: mime }), name);
    form.append('model', options.model);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}/audio/transcriptions`, {
        method: 'POST',
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new TranscriptionError(`no answer from the transcription endpoint (${errorText(error)})`);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok)
      throw new TranscriptionError(`the transcription endpoint answered ${response.status}: ${logExcerpt(text, 200)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TranscriptionError('the transcription answer is not JSON');
    }
    const parsed = TranscriptionAnswer.safeParse(body);
    if (!parsed.success) throw new TranscriptionError('the transcription answer has no text');
    return parsed.data.text;
  };
}
