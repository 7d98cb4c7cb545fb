import { existsSync, readFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.ts';
import { enable, plugin, PLUGIN_HOME_PRELUDE } from '../hooks/support/temp-home.ts';
import {
  SLACK_BOT_TOKEN,
  startPipeline,
  TELEGRAM_TOKEN,
  WHATSAPP_ACCESS_TOKEN,
  type Pipeline,
} from './support/pipeline-harness.ts';

const fixture = (name: string): string => readFileSync(new URL(`../gateway/fixtures/${name}`, import.meta.url), 'utf8');

/** A 1×1 PNG. Telegram and WhatsApp say JPEG; the turn believes the bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A PNG just over the 5 MB image limit. */
const HUGE_PNG = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);

/**
 * pre_gateway_dispatch: notes the event's attachments, and skips the message when an
 * attachment's MIME type starts with the text of `block-mime.txt` (when there is one).
 * pre_llm_call: notes its attachments kwarg.
 */
const SEER = plugin(
  'seer',
  `
${PLUGIN_HOME_PRELUDE}  const note = (record: unknown) => appendFileSync(join(home, 'seen.jsonl'), JSON.stringify(record) + '\\n');
  ctx.register_hook('pre_gateway_dispatch', function gatekeeper(kwargs: any) {
    const attachments = kwargs.event.attachments ?? [];
    note({ hook: 'pre_gateway_dispatch', attachments });
    const file = join(home, 'block-mime.txt');
    if (!existsSync(file)) return undefined;
    const prefix = readFileSync(file, 'utf8').trim();
    const hit = attachments.find((a: any) => a.mime_type.startsWith(prefix));
    return hit ? { action: 'skip', reason: 'blocked ' + hit.mime_type } : undefined;
  });
  ctx.register_hook('pre_llm_call', function seer(kwargs: any) {
    note({ hook: 'pre_llm_call', user_message: kwargs.user_message, attachments: kwargs.attachments ?? null });
  });`,
);

let p: Pipeline;
let n = 0;

beforeAll(async () => {
  p = await startPipeline(
    {
      ...SEER,
      // A shell hook keeps the stdin payload it gets (hook-semantics §3.6).
      'agent-hooks/keep-payload.sh':
        '#!/bin/sh\ncat >> "$(dirname "$0")/../shell-payloads.jsonl"\necho >> "$(dirname "$0")/../shell-payloads.jsonl"\nprintf "{}"\n',
    },
    {
      acceptHooks: true,
      prepare: async (home) => {
        await writeFile(
          join(home, 'config.yaml'),
          `${enable('seer')}hooks:\n  pre_llm_call:\n    - command: ${home}/agent-hooks/keep-payload.sh\n`,
        );
        await chmod(join(home, 'agent-hooks/keep-payload.sh'), 0o755);
      },
    },
  );
});
afterAll(async () => {
  await p?.close();
});

const seen = (): Record<string, any>[] => {
  const file = join(p.home.path, 'seen.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : [];
};

interface PlatformCase {
  platform: 'telegram' | 'slack' | 'discord' | 'whatsapp' | 'teams';
  /** The documented payload with fresh delivery ids (and Teams' serviceUrl at the fake). */
  body(): string;
  /** Makes the platform's download API hand out `bytes` for the payload's attachment. */
  serve(bytes: Uint8Array): void;
  /** The requests that carry the turn's reply, and the reply's text in one. */
  replies(): { json?: unknown }[];
  text(json: any): string;
  /** The name the adapter gives the attachment. */
  name: string;
  /** A download request that must carry the platform's credential. */
  download?: { path: string; authorization: string };
}

const teamsBase = () => `${p.fake.url}/teams-service/amer/`;
const CASES: PlatformCase[] = [
  {
    platform: 'telegram',
    body: () => fixture('telegram-photo.bot-api.json').replace('"update_id": 20000', `"update_id": ${20000 + ++n}`),
    serve(bytes) {
      p.fake.serve(`/telegram/bot${TELEGRAM_TOKEN}/getFile?file_id=AgACAgQAAxkBAAIBY2Large`, {
        ok: true,
        result: {
          file_id: 'AgACAgQAAxkBAAIBY2Large',
          file_unique_id: 'AQADlarge',
          file_size: bytes.length,
          file_path: 'photos/file_7.jpg',
        },
      });
      p.fake.serve(`/telegram/file/bot${TELEGRAM_TOKEN}/photos/file_7.jpg`, bytes);
    },
    replies: () => p.fake.received(`/telegram/bot${TELEGRAM_TOKEN}/sendMessage`),
    text: (json) => json.text,
    name: 'photo_AQADlarge.jpg',
  },
  {
    platform: 'slack',
    body: () =>
      fixture('slack-file-share.library-tests.json').replaceAll(
        '1670631527.874149',
        `1670631527.${String(++n).padStart(6, '0')}`,
      ),
    serve: (bytes) => p.fake.serve('/slack/files-pri/T043DB835ML-F04EEHX1EES/download/picture.png', bytes, 'image/png'),
    replies: () => p.fake.received('/slack/chat.postMessage'),
    text: (json) => json.text,
    name: 'picture.png',
    download: { path: '/slack/files-pri/', authorization: `Bearer ${SLACK_BOT_TOKEN}` },
  },
  {
    platform: 'discord',
    body: () =>
      fixture('discord-attachment-option.docs.json').replace(
        '"786008729715212400"',
        `"7860087297152124${String(++n).padStart(2, '0')}"`,
      ),
    serve: (bytes) =>
      p.fake.serve('/discord/ephemeral-attachments/771825006014889985/1054318419245736027/picture.png', bytes, 'image/png'),
    replies: () => p.fake.received('/discord/webhooks/999/A_UNIQUE_TOKEN_ATTACH'),
    text: (json) => json.content,
    name: 'picture.png',
  },
  {
    platform: 'whatsapp',
    body: () =>
      fixture('whatsapp-image-message.docs.json').replace(
        'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        `wamid.${++n}`,
      ),
    serve(bytes) {
      const url = 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1003383421387256&ext=1750090702&hash=ATuD';
      p.fake.serve('/whatsapp/1003383421387256', {
        messaging_product: 'whatsapp',
        url,
        mime_type: 'image/jpeg',
        sha256: 'x',
        file_size: bytes.length,
        id: '1003383421387256',
      });
      p.fake.serve('/whatsapp/whatsapp_business/attachments/?mid=1003383421387256&ext=1750090702&hash=ATuD', bytes, 'image/jpeg');
    },
    replies: () => p.fake.received('/whatsapp/555/messages'), // WHATSAPP_PHONE_NUMBER_ID
    text: (json) => json.text.body,
    name: 'image_1003383421387256',
    download: { path: '/whatsapp/whatsapp_business/attachments/', authorization: `Bearer ${WHATSAPP_ACCESS_TOKEN}` },
  },
  {
    platform: 'teams',
    body: () =>
      fixture('teams-image-activity.docs.json')
        .replaceAll('https://smba.trafficmanager.net/amer/', teamsBase())
        .replace('"1485983408511"', `"14859834085${String(++n).padStart(2, '0')}"`),
    serve: (bytes) =>
      p.fake.serve(
        '/teams-service/amer/v3/attachments/0-cus-d1-1aa2a9a7d27bd5b21ef1e6d6bf7d8c39/views/original',
        bytes,
        'image/png',
      ),
    replies: () => p.fake.received('/teams-service/amer/v3/conversations/'),
    text: (json) => json.text,
    name: 'image',
    download: { path: '/teams-service/amer/v3/attachments/', authorization: 'Bearer fake-bot-token' },
  },
];

/** Posts `body`, waits for the turn's reply through the platform's API, and returns its text. */
async function turnOf(c: PlatformCase, body: string): Promise<string> {
  const before = c.replies().length;
  const res = await p.post(c.platform, body);
  expect(res.status).toBe(200);
  await until(() => c.replies().length > before, `the ${c.platform} reply`);
  return c.text(c.replies().at(-1)!.json);
}

describe.each(CASES)("$platform's documented attachment payload, through the running pipeline", (c) => {
  it('a photo reaches the model as an image part, and pre_llm_call sees it with a short-lived URL', async () => {
    c.serve(PNG);
    p.model.script({ content: `a dot (${c.platform})` });
    expect(await turnOf(c, c.body())).toBe(`a dot (${c.platform})`);

    const user = p.model.requests.at(-1)!.body.messages.findLast((m) => m.role === 'user')!;
    const content = user.content as unknown as { type: string; text?: string; image_url?: { url: string } }[];
    expect(content[0]).toEqual({ type: 'text', text: expect.stringContaining(`[image ${c.name} (image/png, 70 B) attached]`) });
    expect(content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });

    const gate = seen().findLast((s) => s.hook === 'pre_gateway_dispatch')!;
    // WhatsApp and Teams do not say a size in the webhook.
    const claimed = c.platform === 'whatsapp' || c.platform === 'teams' ? null : expect.any(Number);
    expect(gate.attachments).toEqual([
      { kind: 'image', mime_type: expect.stringMatching(/^image\//), size: claimed, name: c.name },
    ]);
    // The download went through the platform's configured API base, with the platform's credential where it needs one.
    if (c.download) expect(p.fake.received(c.download.path).at(-1)!.headers.authorization).toBe(c.download.authorization);
    const llm = seen().findLast((s) => s.hook === 'pre_llm_call')!;
    expect(llm.user_message).toBe(c.platform === 'discord' ? '/ask 1054318419245736027' : 'What is in this picture?');
    expect(llm.attachments).toEqual([
      { kind: 'image', mime_type: 'image/png', size: PNG.length, name: c.name, url: expect.stringMatching(/^http/) },
    ]);
    const fetched = await fetch(llm.attachments[0].url);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(PNG);
  });

  it('an oversized file is refused with a reply, and the model is not asked', async () => {
    c.serve(HUGE_PNG);
    const asked = p.model.requests.length;
    expect(await turnOf(c, c.body())).toBe(
      `⚠️ ${c.name} is too large (over 5 MB); images may be at most 5 MB. Your message was not passed on.`,
    );
    expect(p.model.requests.length).toBe(asked);
  });

  it('a hook blocks the message by its MIME type', async () => {
    c.serve(PNG);
    await writeFile(join(p.home.path, 'block-mime.txt'), 'image/');
    try {
      const res = await p.post(c.platform, c.body());
      expect(res.status).toBe(200);
      // Skipped at the gateway, before the answer: Discord gets the deferral nobody sees.
      if (c.platform === 'discord') expect(await res.json()).toEqual({ type: 5, data: { flags: 64 } });
      expect(seen().at(-1)).toMatchObject({ hook: 'pre_gateway_dispatch', attachments: [{ kind: 'image' }] });
    } finally {
      await rm(join(p.home.path, 'block-mime.txt'));
    }
    // Nothing was queued for it: the next turn in the pipeline is the only one the model sees.
    const asked = p.model.requests.length;
    p.model.script({ content: 'after the block' });
    expect(await localTurn('after-block', { text: 'next' })).toBe('after the block');
    expect(p.model.requests.length).toBe(asked + 1);
  });
});

async function localTurn(chatId: string, message: Record<string, unknown>): Promise<string> {
  const outbox = async () =>
    (await (await fetch(`${p.dev.url}/webhooks/local/messages?chat_id=${chatId}`)).json()) as { text: string }[];
  const before = (await outbox()).length;
  const res = await p.post('local', JSON.stringify({ chat_id: chatId, user_id: 'u1', ...message }));
  expect(res.status).toBe(202);
  let out: { text: string }[] = [];
  await until(async () => (out = await outbox()).length > before, `a reply in ${chatId}`);
  return out.at(-1)!.text;
}

describe('the local adapter', () => {
  it('carries a PNG end to end: stored under the session, an image part for the model, a URL for the hooks', async () => {
    p.model.script({ content: 'I see a dot' });
    const reply = await localTurn('png', {
      text: 'look',
      attachments: [{ name: 'dot.png', mime_type: 'image/png', data_base64: PNG.toString('base64') }],
    });
    expect(reply).toBe('I see a dot');
    const user = p.model.requests.at(-1)!.body.messages.findLast((m) => m.role === 'user')!;
    expect(user.content).toEqual([
      { type: 'text', text: 'look\n\n[image dot.png (image/png, 70 B) attached]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
    const llm = seen().findLast((s) => s.hook === 'pre_llm_call')!;
    expect(llm.attachments).toEqual([
      { kind: 'image', mime_type: 'image/png', size: 70, name: 'dot.png', url: expect.stringContaining('payloads/attachments/') },
    ]);
    // A shell hook finds the same list in its payload's extra.
    const payloads = readFileSync(join(p.home.path, 'shell-payloads.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(payloads.at(-1)).toMatchObject({
      hook_event_name: 'pre_llm_call',
      extra: { user_message: 'look', attachments: [{ kind: 'image', mime_type: 'image/png', size: 70, name: 'dot.png' }] },
    });
  });

  it('gives a text file to the model as text and a binary file as a note; the MIME type is the bytes’, not the claim', async () => {
    p.model.script({ content: 'read it' });
    const attachments = [
      { name: 'notes.md', mime_type: 'image/png', data_base64: Buffer.from('# Plan\nship it\n').toString('base64') },
      { name: 'blob.bin', mime_type: 'text/plain', data_base64: Buffer.from([0, 1, 2, 3, 255]).toString('base64') },
    ];
    expect(await localTurn('docs', { text: '', attachments })).toBe('read it');
    const user = p.model.requests.at(-1)!.body.messages.findLast((m) => m.role === 'user')!;
    expect(user.content).toBe(
      '[file notes.md (text/plain, 15 B) attached; its text follows]\n# Plan\nship it\n\n\n' +
        '[file blob.bin (application/octet-stream, 5 B) attached: not read (only text files are given to the model)]',
    );
  });

  it('refuses a message with neither text nor attachments, and a bad attachment, with 400', async () => {
    expect((await p.post('local', JSON.stringify({ chat_id: 'x', user_id: 'u' }))).status).toBe(400);
    const bad = await p.post(
      'local',
      JSON.stringify({
        chat_id: 'x',
        user_id: 'u',
        text: 'hi',
        attachments: [{ name: 'a', mime_type: 'image/png', data_base64: '%%%' }],
      }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/base64/);
  });
});
