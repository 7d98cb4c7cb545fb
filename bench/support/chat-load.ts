import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { startDevRuntime } from '../../src/local/dev-runtime.ts';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { startFakeModelServer } from '../../test/support/fake-model-server.ts';
import { startFakePlatforms } from '../../test/support/fake-platforms/fake-platform-server.ts';
import { queueDepth } from '../../test/support/queue-depth.ts';
import { summarise, type Samples } from '../harness.ts';
import type { OperationCount } from './aws-request-counter.ts';
import { priceAwsRequests } from './price-aws-requests.ts';
import { accountReplies, echoOf, type PostedMessage, type ReceivedReply } from './reply-accounting.ts';
import { OUTSIDE_TURNS, RequestsByTurn } from './requests-by-turn.ts';

export interface ChatLoadOptions {
  /** Distinct chats (each its own Telegram chat and user). */
  chats: number;
  /** Messages per chat, each posted once the previous one was acked (or answered: `pace`). */
  messages: number;
  /**
   * When a chat posts its next message: `ack`, once the previous one's webhook answered 2xx
   * (a burst the turns queue absorbs); `reply`, once its reply arrived (a person waiting for
   * the answer). Default `ack`.
   */
  pace?: 'ack' | 'reply';
  /** Chats posting at the same time. */
  concurrency: number;
  /** `disk`: the table in the home's state folder, as `hookgate dev` keeps it by default; `memory`: as `HOOKGATE_DEV_STATE=memory`. */
  state: 'disk' | 'memory';
  /** Give up waiting for replies after this long with none arriving (default 60 s). */
  quietMs?: number;
  /** Told of progress every few seconds. */
  progress?: (line: string) => void;
}

/** What the turns at one position in their chats (or a range of positions) cost, per turn. */
export interface TurnCostLine {
  /** `m3`, or `m1–m4` for a range. */
  label: string;
  turns: number;
  /** AWS requests per turn (SQS receives left out: see `RequestsByTurn`). */
  requests: number;
  readUnits: number;
  writeUnits: number;
  snsChunks: number;
  /** `priceAwsRequests` of those requests, per 1,000 turns. */
  dollarsPerThousand: number;
  /** Requests to the model per turn, and their bytes per turn. */
  modelCalls: number;
  modelBytes: number;
  /** AWS requests and DynamoDB units per turn by `<service> <Operation>`. */
  operations: Record<string, OperationLine>;
}

/** One operation's requests and DynamoDB units, per turn (or per message). */
export interface OperationLine {
  requests: number;
  readUnits: number;
  writeUnits: number;
}

export interface ChatLoadReport {
  options: Omit<ChatLoadOptions, 'progress' | 'quietMs' | 'pace'> & { pace: 'ack' | 'reply' };
  machine: { cpus: number; cpuModel: string; node: string; loadBefore: number[]; loadAfter: number[] };
  posted: number;
  acked: number;
  /** Posts that did not get a 2xx (the first few: status or error). */
  failedPosts: string[];
  replies: number;
  lost: number;
  duplicated: number;
  unexpected: number;
  outOfOrderChats: number;
  ackMs: Samples;
  replyMs: Samples;
  /** First post → last ack, and first post → last reply (or giving up). */
  ackWallMs: number;
  wallMs: number;
  acksPerSecond: number;
  repliesPerSecond: number;
  /** Replies per second once every message was acked: how fast the turns drain their queue alone. */
  repliesAfterAcksPerSecond: number;
  /** Per position in the chat, 1…messages. */
  perPosition: TurnCostLine[];
  /** The first and the last fifth of the positions. */
  firstFifth: TurnCostLine;
  lastFifth: TurnCostLine;
  /** Requests no turn sent (the gateway's, the pollers' deletes, the outbox sweeper's), per posted message. */
  outsideTurns: { requests: number; dollarsPerThousand: number; operations: Record<string, OperationLine> };
  /**
   * Resident memory (MB) of this process, where dev runs with its emulators: once dev has started,
   * the most seen while the load ran (sampled every second), and once the replies are in. It also holds
   * the fakes' records of every request, a few kB a message.
   */
  rssMb: { started: number; peak: number; end: number };
}

const WEBHOOK_SECRET = 'load-secret';
const BOT_TOKEN = '1:load';
/** Chat (and user) ids start here: clear of any id a test uses. */
const FIRST_CHAT_ID = 100_000;

/** The text of message `index` of chat `chat`; the echo model's reply names it (`echoOf`). */
const messageText = (chat: number, index: number) => `load c${chat} m${index}`;
const POSITION = /^load c\d+ m(\d+)$/;

/**
 * The load test of issue #30: `chats` Telegram chats × `messages` messages through the whole
 * `hookgate dev` pipeline (`startDevRuntime` wired as the CLI wires it: the hook engine over an
 * empty hooks home, the turn consumer, hot reload and the console on, the state on disk
 * unless `state: 'memory'`), against a fake OpenAI-style model that echoes each message
 * (`echoOf`) and a fake Telegram Bot API that records each reply. Every webhook goes through
 * the real route (`POST /webhooks/telegram` with the secret-token header). Chats run side by
 * side, `concurrency` at a time; within a chat each message is posted once the previous one
 * was acked (or, with `pace: 'reply'`, answered). Then it waits for the replies (until the turns queue is empty and every acked
 * message is answered, or `quietMs` pass with no reply), and accounts for them
 * (`accountReplies`) and for the AWS requests each turn made (`RequestsByTurn`).
 *
 * @example
 * const report = await runChatLoad({ chats: 5, messages: 3, concurrency: 5, state: 'memory' });
 * if (report.lost + report.duplicated > 0) process.exitCode = 1;
 */
export async function runChatLoad(options: ChatLoadOptions): Promise<ChatLoadReport> {
  const { chats, messages, concurrency, state } = options;
  const pace = options.pace ?? 'ack';
  const quietMs = options.quietMs ?? 60_000;
  const progress = options.progress ?? (() => {});
  const loadBefore = loadavg();
  const fake = await startFakePlatforms();
  const model = await startFakeModelServer({
    answer: (body) => {
      const user = body.messages.findLast((m) => m.role === 'user')?.content;
      return { content: echoOf(typeof user === 'string' ? user : '') };
    },
  });
  const home = await mkdtemp(join(tmpdir(), 'hookgate-load-'));
  const byTurn = new RequestsByTurn();
  let attached = false;
  const stops: (() => Promise<void> | void)[] = [
    () => rm(home, { recursive: true, force: true }),
    () => fake.close(),
    () => model.close(),
  ];
  try {
    const dev = await startDevRuntime({
      home,
      port: 0,
      env: {
        // The dev's info lines are a few per turn: thousands of lines that would bury the report.
        HOOKGATE_LOG_LEVEL: process.env.HOOKGATE_LOG_LEVEL ?? 'warn',
        HOOKGATE_MODEL: 'fake-echo',
        HOOKGATE_MODEL_BASE_URL: model.baseUrl,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_SECRET_TOKEN: WEBHOOK_SECRET,
        TELEGRAM_API_BASE_URL: `${fake.url}/telegram`,
      },
      print: () => {},
      watch: true,
      ...(state === 'disk' ? { state: { dir: join(home, '.hookgate', 'state') } } : {}),
      createEngine: (engineOptions) => createHookEngine({ ...engineOptions, print: () => {} }),
      createTurnConsumer: async (context) => {
        // Before the first turn: the turn consumer is built before the turns poller starts.
        if (!attached) await byTurn.attach(context.plane);
        attached = true;
        return byTurn.wrap(await createTurnConsumer(context), positionBucket);
      },
    });
    stops.unshift(() => dev.stop());
    const rss = () => process.memoryUsage.rss() / 1e6;
    const rssMb = { started: rss(), peak: rss(), end: 0 };
    const sampler = setInterval(() => {
      rssMb.peak = Math.max(rssMb.peak, rss());
    }, 1_000);
    stops.unshift(() => clearInterval(sampler));

    const posted: PostedMessage[] = [];
    const failedPosts: string[] = [];
    let updateId = 0;
    let nextChat = 1;
    const postChat = async (chat: number) => {
      const chatId = FIRST_CHAT_ID + chat;
      for (let index = 1; index <= messages; index++) {
        const text = messageText(chat, index);
        const body = JSON.stringify({
          update_id: ++updateId,
          message: {
            message_id: index,
            date: Math.floor(Date.now() / 1000),
            from: { id: chatId, is_bot: false, first_name: `Load ${chat}` },
            chat: { id: chatId, type: 'private' },
            text,
          },
        });
        const postedAt = performance.now();
        try {
          const res = await fetch(`${dev.url}/webhooks/telegram`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
            body,
          });
          await res.arrayBuffer();
          if (res.ok) posted.push({ chatId: String(chatId), index, text, postedAt, ackedAt: performance.now() });
          else failedPosts.push(`${text}: HTTP ${res.status}`);
        } catch (error) {
          failedPosts.push(`${text}: ${(error as Error).message}`);
        }
        // A reply that never comes is the accounting's to report: the chat goes on after `quietMs`.
        while (pace === 'reply' && !replied(String(chatId), text) && performance.now() - postedAt < quietMs) await delay(10);
      }
    };
    const sendMessages = () => fake.requests.filter((r) => r.path.endsWith('/sendMessage'));
    // The replies seen so far, as `<chat>\n<text>`, read on from where the last look stopped.
    const seenReplies = new Set<string>();
    let looked = 0;
    const replied = (chatId: string, text: string) => {
      for (; looked < fake.requests.length; looked++) {
        const request = fake.requests[looked]!;
        const json = request.json as { chat_id?: unknown; text?: unknown } | undefined;
        if (request.path.endsWith('/sendMessage')) seenReplies.add(`${json?.chat_id}\n${json?.text}`);
      }
      return seenReplies.has(`${chatId}\n${echoOf(text)}`);
    };
    const ticker = setInterval(
      () => progress(`acked ${posted.length}/${chats * messages}, replies ${sendMessages().length}`),
      5_000,
    );
    stops.unshift(() => clearInterval(ticker));

    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, chats) }, async () => {
        while (nextChat <= chats) await postChat(nextChat++);
      }),
    );
    const ackWallMs = performance.now() - t0;

    const sqs = new SQSClient({ region: dev.aws.region, credentials: dev.aws.credentials, endpoint: dev.aws.sqsEndpoint });
    stops.unshift(() => sqs.destroy());
    let seen = -1;
    let lastNews = performance.now();
    for (;;) {
      const count = sendMessages().length;
      if (count !== seen) [seen, lastNews] = [count, performance.now()];
      if (count >= posted.length && (await queueDepth(sqs, dev.aws.turnsQueueUrl)) === 0) break;
      if (performance.now() - lastNews > quietMs) break;
      await delay(100);
    }
    const wallMs = performance.now() - t0;
    // A duplicate sent right after the last reply is still seen.
    await delay(1_000);
    const loadAfter = loadavg();
    rssMb.end = rss();
    rssMb.peak = Math.max(rssMb.peak, rssMb.end);

    const replies: ReceivedReply[] = sendMessages().map((r) => {
      const json = r.json as { chat_id: string | number; text: string };
      return { chatId: String(json.chat_id), text: json.text, at: r.at };
    });
    const account = accountReplies(posted, replies);
    const buckets = byTurn.buckets();
    const turnsAt = (index: number) => posted.filter((m) => m.index === index).length;
    const modelAt = new Map<number, { calls: number; bytes: number }>();
    for (const request of model.requests) {
      const user = request.body.messages.findLast((m) => m.role === 'user')?.content;
      const index = Number(POSITION.exec(typeof user === 'string' ? user : '')?.[1] ?? 0);
      const at = modelAt.get(index) ?? { calls: 0, bytes: 0 };
      modelAt.set(index, { calls: at.calls + 1, bytes: at.bytes + request.bytes });
    }
    const costLine = (label: string, indexes: number[]): TurnCostLine => {
      const turns = indexes.reduce((sum, i) => sum + turnsAt(i), 0);
      const counts = sumCounts(indexes.map((i) => buckets[`m${i}`] ?? {}));
      return {
        label,
        turns,
        ...perUnit(counts, turns),
        modelCalls: indexes.reduce((sum, i) => sum + (modelAt.get(i)?.calls ?? 0), 0) / Math.max(1, turns),
        modelBytes: indexes.reduce((sum, i) => sum + (modelAt.get(i)?.bytes ?? 0), 0) / Math.max(1, turns),
      };
    };
    const positions = Array.from({ length: messages }, (_, i) => i + 1);
    const fifth = Math.max(1, Math.ceil(messages / 5));
    const range = (from: number, to: number) => (from === to ? `m${from}` : `m${from}–m${to}`);
    const outside = perUnit(buckets[OUTSIDE_TURNS] ?? {}, posted.length);
    return {
      options: { chats, messages, concurrency, state, pace },
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', node: process.version, loadBefore, loadAfter },
      posted: chats * messages,
      acked: posted.length,
      failedPosts: failedPosts.slice(0, 10),
      replies: replies.length,
      lost: account.lost.length,
      duplicated: account.duplicated.length,
      unexpected: account.unexpected.length,
      outOfOrderChats: account.outOfOrderChats.length,
      ackMs: summarise(account.ackMs),
      replyMs: summarise(account.replyMs),
      ackWallMs,
      wallMs,
      acksPerSecond: (posted.length / ackWallMs) * 1000,
      repliesPerSecond: (replies.length / wallMs) * 1000,
      repliesAfterAcksPerSecond: (replies.filter((r) => r.at > t0 + ackWallMs).length / Math.max(1, wallMs - ackWallMs)) * 1000,
      perPosition: positions.map((i) => costLine(`m${i}`, [i])),
      firstFifth: costLine(range(1, fifth), positions.slice(0, fifth)),
      lastFifth: costLine(range(messages - fifth + 1, messages), positions.slice(-fifth)),
      outsideTurns: {
        requests: outside.requests,
        dollarsPerThousand: outside.dollarsPerThousand,
        operations: outside.operations,
      },
      rssMb,
    };
  } finally {
    for (const stop of stops) await stop();
  }
}

/** The bucket of a turn's requests: its message's position in its chat (`m3`), or `other` (a timer, a command). */
function positionBucket(body: string): string {
  const text = (JSON.parse(body) as { event?: { text?: unknown } }).event?.text;
  const index = POSITION.exec(typeof text === 'string' ? text : '')?.[1];
  return index ? `m${index}` : 'other';
}

function sumCounts(list: Record<string, OperationCount>[]): Record<string, OperationCount> {
  const out: Record<string, OperationCount> = {};
  for (const counts of list) {
    for (const [key, c] of Object.entries(counts)) {
      const sum = (out[key] ??= { requests: 0, writeUnits: 0, readUnits: 0, billedChunks: 0, empty: 0, failedConditions: 0 });
      for (const field of Object.keys(sum) as (keyof OperationCount)[]) sum[field] += c[field];
    }
  }
  return out;
}

/** Counted requests divided by `units` (turns, messages). */
function perUnit(counts: Record<string, OperationCount>, units: number) {
  const n = Math.max(1, units);
  const all = Object.values(counts);
  const total = (field: keyof OperationCount) => all.reduce((sum, c) => sum + c[field], 0) / n;
  return {
    requests: total('requests'),
    readUnits: total('readUnits'),
    writeUnits: total('writeUnits'),
    snsChunks: total('billedChunks'),
    dollarsPerThousand: (priceAwsRequests(counts) / n) * 1000,
    operations: Object.fromEntries(
      Object.entries(counts).map(([key, c]): [string, OperationLine] => [
        key,
        { requests: c.requests / n, readUnits: c.readUnits / n, writeUnits: c.writeUnits / n },
      ]),
    ),
  };
}
