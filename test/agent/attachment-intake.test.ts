import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeInAttachments, type AttachmentBytesStore } from '../../src/agent/attachments/take-in-attachments.ts';
import { createTranscriber } from '../../src/agent/attachments/transcribe-audio.ts';
import { createAttachmentDownloader } from '../../src/platforms/attachment-download.ts';
import type { Attachment } from '../../src/messaging/attachment.ts';

/** An in-memory stand-in for the payload bucket (the pipeline tests use the S3 emulator). */
function memoryStore(): AttachmentBytesStore & { objects: Map<string, Uint8Array> } {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    async put(sessionId, name, body) {
      const key = `payloads/attachments/${sessionId}/${objects.size}/${name}`;
      objects.set(key, body);
      return { key };
    },
    async get(key) {
      return objects.get(key)!;
    },
    async presignedUrl(key) {
      return `memory://${key}`;
    },
  };
}

/** An OggS page header is enough for file-type to say audio/ogg. */
const OGG = Buffer.concat([
  Buffer.from('OggS\0\x02', 'binary'),
  Buffer.alloc(22),
  Buffer.from('\x01\x1evorbis', 'binary'),
  Buffer.alloc(40),
]);
const local = (name: string, mime: string, bytes: Uint8Array, kind: Attachment['kind'] = 'audio'): Attachment => ({
  kind,
  mime_type: mime,
  size: bytes.length,
  name,
  source: { platform: 'local', data_base64: Buffer.from(bytes).toString('base64') },
});

let server: Server;
let url: string;
const received: { authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('latin1') });
      if (req.url !== '/v1/audio/transcriptions') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'please book a table for two' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('takeInAttachments', () => {
  it('transcribes a voice note where a transcription endpoint is configured', async () => {
    const store = memoryStore();
    const transcribe = createTranscriber({ baseUrl: url, model: 'whisper-1', apiKey: 'sk-test' });
    const intake = await takeInAttachments([local('voice.ogg', 'audio/ogg', OGG)], 's1', {
      downloader: createAttachmentDownloader({ platforms: {} }),
      store,
      transcribe,
    });
    expect(intake).toEqual({
      kind: 'taken',
      attachments: [
        expect.objectContaining({
          kind: 'audio',
          mime_type: 'audio/ogg',
          note: expect.stringMatching(/^\[audio voice\.ogg \(audio\/ogg, .*\) attached; its transcript follows\]$/),
          text: 'please book a table for two',
        }),
      ],
    });
    expect(received.at(-1)!.authorization).toBe('Bearer sk-test');
    expect(received.at(-1)!.body).toContain('name="model"\r\n\r\nwhisper-1');
    expect(received.at(-1)!.body).toContain('filename="voice.ogg"');
  });

  it('notes a voice note as not transcribed without one, and a failed transcription as failed', async () => {
    const deps = { downloader: createAttachmentDownloader({ platforms: {} }), store: memoryStore() };
    const plain = await takeInAttachments([local('voice.ogg', 'audio/ogg', OGG)], 's1', deps);
    expect(plain.kind === 'taken' && plain.attachments[0]!.note).toMatch(
      /not transcribed \(no transcription endpoint is configured\)/,
    );
    const broken = await takeInAttachments([local('voice.ogg', 'audio/ogg', OGG)], 's1', {
      ...deps,
      transcribe: createTranscriber({ baseUrl: `${url}/nowhere`, model: 'm' }),
    });
    expect(broken.kind === 'taken' && broken.attachments[0]!.note).toMatch(
      /the transcription failed \(the transcription endpoint answered 404/,
    );
  });

  it("refuses by the platform's claimed size before downloading anything", async () => {
    const intake = await takeInAttachments([{ ...local('film.mp4', 'video/mp4', OGG, 'video'), size: 21 * 1024 * 1024 }], 's1', {
      downloader: createAttachmentDownloader({ platforms: {} }),
      store: memoryStore(),
    });
    expect(intake).toEqual({
      kind: 'refused',
      reason: `film.mp4: ${21 * 1024 * 1024} bytes, limit ${20 * 1024 * 1024}`,
      reply: '⚠️ film.mp4 is too large (over 20 MB); videos may be at most 20 MB. Your message was not passed on.',
    });
  });

  it('records a download that fails and goes on', async () => {
    const intake = await takeInAttachments(
      [
        {
          kind: 'image',
          mime_type: 'image/png',
          size: 10,
          name: 'x.png',
          source: { platform: 'slack', url: 'https://files.slack.com/x.png' },
        },
      ],
      's1',
      { downloader: createAttachmentDownloader({ platforms: {} }), store: memoryStore() },
    );
    expect(intake).toEqual({
      kind: 'taken',
      attachments: [
        expect.objectContaining({
          key: null,
          note: '[image x.png attached: it could not be downloaded (slack is not enabled here; its attachment cannot be downloaded)]',
        }),
      ],
    });
  });
});
