import { createInterface } from 'node:readline';
import { HookgateError } from '../../errors/hookgate-error.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { explicitDevHome, findRunningDev } from '../../local/dev-endpoints.ts';
import type { TraceRecord } from '../../store/trace-store.ts';
import type { CommandInstaller } from '../main.ts';
import { readServerSentEvents } from '../server-sent-events.ts';
import { bold, cyan } from './hooks-output.ts';
import type { ConsoleEvent, DeliveryStatus } from '../../console/console-hub.ts';
import { errorText } from '../../errors/error-text.ts';
import { escapeControlsKeepingLines } from '../../logging/escape-control-characters.ts';

/** Where `hookgate dev` listens unless told otherwise (`hookgate dev --port`). */
export const DEFAULT_DEV_URL = 'http://127.0.0.1:8787';
/** The chat and user `hookgate chat` speaks as by default: one stable conversation per machine user. */
export const DEFAULT_CHAT_ID = 'cli';
export const DEFAULT_USER_ID = 'cli';

interface ChatOptions {
  chat: string;
  user: string;
  url?: string;
  home?: string;
}

/** A reply or a finished turn, as `/console/events` reports them (the console hub's own types). */
type StreamEvent = Extract<ConsoleEvent, { kind: 'reply' | 'turn-done' }>;

/** Ends the chat with a message and exit status 1. */
export class ChatStoppedError extends HookgateError {
  override readonly name = 'ChatStoppedError';
}

/**
 * The URL of the `hookgate dev` to talk to: `--url`, else the one running for the hooks home
 * named (`--home`, HOOKGATE_HOME, HERMES_HOME), else the default home's or the only one running
 * (as `trace`, `dlq` and `replay` find it), else {@link DEFAULT_DEV_URL}.
 */
async function devUrl(options: ChatOptions): Promise<string> {
  if (options.url) return options.url.replace(/\/+$/, '');
  const found = await findRunningDev({ ...explicitDevHome(options.home, process.env), defaultHome: resolveHooksHome() });
  return 'why' in found ? DEFAULT_DEV_URL : found.endpoints.gatewayUrl;
}

/**
 * One line naming the hooks that ran inline in a turn (from its trace: hook, system, callback,
 * decision), then the observer events it emitted (their plugin and gateway hooks run in the
 * observer consumer, after the reply). Hook points where nothing was registered are left out.
 *
 * @example
 * hookSummary(records); // "1 hook call: pre_llm_call plugin guard → context (42 chars); emitted agent:start, agent:end"
 */
export function hookSummary(records: readonly TraceRecord[]): string {
  // The turn's own calls only (each has its call number). The observer consumer adds rows of its
  // own, with none, whenever it gets to the events: read with them, one summary of the same turn
  // would differ from the next.
  const fired = records.filter((r) => r.source !== '-' && r.call !== undefined);
  const parts = fired.map((r) => `${r.hook} ${r.source} ${r.callback} → ${r.decision.replace(/\s+/g, ' ').slice(0, 60)}`);
  const shown = parts.slice(0, 8);
  if (parts.length > shown.length) shown.push(`+${parts.length - shown.length} more`);
  const emitted = new Map<string, number>();
  for (const r of records) if (r.source === '-' && r.decision === 'emitted') emitted.set(r.hook, (emitted.get(r.hook) ?? 0) + 1);
  const events = [...emitted].map(([hook, n]) => (n > 1 ? `${hook}×${n}` : hook));
  const inline =
    fired.length === 0 ? 'no hook ran inline' : `${fired.length} hook call${fired.length === 1 ? '' : 's'}: ${shown.join(' · ')}`;
  return events.length > 0 ? `${inline}; emitted ${events.join(', ')}` : inline;
}

/** The console's event stream, read in the background; waiters are woken by each event. */
class EventFeed {
  private readonly seen: StreamEvent[] = [];
  private wake: (() => void) | undefined;
  private ended: Error | undefined;

  constructor(
    private readonly onEvent: (event: StreamEvent) => void,
    private readonly abort: AbortController,
  ) {}

  async open(url: string): Promise<void> {
    const response = await fetch(`${url}/console/events`, {
      signal: this.abort.signal,
      headers: { accept: 'text/event-stream' },
    });
    if (!response.ok || !response.body) {
      throw new ChatStoppedError(
        `${url} answered ${response.status} for /console/events: is it a hookgate dev with its console on?`,
      );
    }
    const events = readServerSentEvents(response.body);
    // The server says hello once subscribed: nothing sent after that is missed.
    const first = await events.next();
    if (first.done || first.value.event !== 'hello')
      throw new ChatStoppedError(`${url}/console/events did not start an event stream`);
    void this.pump(events);
  }

  private async pump(events: AsyncGenerator<{ event: string; data: string }>): Promise<void> {
    try {
      for await (const { event, data } of events) {
        if (event !== 'reply' && event !== 'turn-done') continue;
        const parsed = JSON.parse(data) as StreamEvent;
        this.seen.push(parsed);
        this.onEvent(parsed);
        this.wake?.();
      }
      this.ended = new ChatStoppedError('hookgate dev closed the event stream (stopped?)');
    } catch (error) {
      this.ended = this.abort.signal.aborted
        ? new ChatStoppedError('closed')
        : new ChatStoppedError(`lost the event stream: ${errorText(error)}`);
    }
    this.wake?.();
  }

  /** Resolves once `check` holds over the events seen so far; rejects when the stream ends first. */
  async until(check: (seen: readonly StreamEvent[]) => boolean): Promise<void> {
    for (;;) {
      if (check(this.seen)) return;
      if (this.ended) throw this.ended;
      await new Promise<void>((done) => {
        this.wake = done;
      });
      this.wake = undefined;
    }
  }
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new ChatStoppedError(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Sends one line as the local platform's user and waits until it is answered: every reply
 * the gateway itself sent (a slash command, a refusal) or, when a turn was queued, the end of
 * that turn. Then prints the turn's hook summary.
 */
async function sendLine(
  url: string,
  options: ChatOptions,
  feed: EventFeed,
  text: string,
  print: (line: string) => void,
): Promise<void> {
  const response = await fetch(`${url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: options.chat, user_id: options.user, text }),
  });
  const body = (await response.json().catch(() => ({}))) as { delivery_id?: string; error?: string };
  if (response.status !== 202 || !body.delivery_id) {
    print(`hookgate chat: not sent (${response.status}${body.error ? `: ${body.error}` : ''})`);
    return;
  }
  const id = body.delivery_id;
  const status = await getJson<DeliveryStatus>(`${url}/console/api/deliveries/${encodeURIComponent(id)}`);
  const mine = (e: StreamEvent) => e.delivery_id === id;
  if (!status.queued) {
    // Answered (or dropped) by the gateway before the 202: wait only for those replies to show.
    await feed.until((seen) => seen.filter((e) => e.kind === 'reply' && mine(e)).length >= status.replies);
    if (status.replies === 0) print(cyan('  (no reply: the gateway dropped or skipped this message; see the dev log)'));
    return;
  }
  await feed.until((seen) => seen.some((e) => e.kind === 'turn-done' && mine(e)));
  const turnId = (await getJson<DeliveryStatus>(`${url}/console/api/deliveries/${encodeURIComponent(id)}`)).turn_id;
  if (!turnId) {
    print(cyan('  (the turn ended without a turn id: see the dev log)'));
    return;
  }
  const records = await getJson<TraceRecord[]>(`${url}/console/api/turns/${encodeURIComponent(turnId)}`);
  print(cyan(`  ⚙ ${hookSummary(records)}  [${turnId}]`));
}

/**
 * `hookgate chat [--chat ID] [--user ID] [--url URL] [--home DIR]`: a REPL over the local
 * platform of a running `hookgate dev`. Each line is posted to `/webhooks/local`; replies are
 * printed as they arrive (the console's server-sent events), then one line naming the hooks
 * that ran in that turn. Ctrl+D (end of input) or Ctrl+C ends it.
 *
 * @example
 * installChatCommand(program, flags); // then: hookgate chat --chat demo
 */
export const installChatCommand: CommandInstaller = (program) => {
  program
    .command('chat')
    .description('chat with the running hookgate dev through its local platform; prints each reply and the hooks that fired')
    .option('--chat <id>', 'the chat id to speak in', DEFAULT_CHAT_ID)
    .option('--user <id>', 'the user id to speak as (the identity approvals check)', DEFAULT_USER_ID)
    .option('--url <url>', `the hookgate dev to talk to (default: the one running for the hooks home, else ${DEFAULT_DEV_URL})`)
    .option('--home <dir>', 'hooks home whose running hookgate dev to find (default: $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes)')
    .action(async (options: ChatOptions) => {
      process.exitCode = await runChat(options);
    });
};

async function runChat(options: ChatOptions): Promise<number> {
  const url = await devUrl(options);
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: interactive });
  // Taken now: lines read while the event stream opens would otherwise be lost.
  const lines = rl[Symbol.asyncIterator]();
  rl.setPrompt(bold('you> '));
  // Replies may arrive while the user types: print them above the prompt line.
  const print = (line: string) => {
    if (interactive) {
      process.stdout.write('\r\x1b[K');
      process.stdout.write(`${line}\n`);
      rl.prompt(true);
    } else process.stdout.write(`${line}\n`);
  };
  const abort = new AbortController();
  const feed = new EventFeed((event) => {
    if (event.kind === 'reply' && event.platform === 'local' && event.chat_id === options.chat) {
      // Control characters as escapes: a reply can carry a command's output, which the chat chose; raw, it could
      // retitle the terminal, move the cursor or write the operator's clipboard (OSC 52).
      print(`${bold('bot>')} ${escapeControlsKeepingLines(event.text, '     ')}`);
    }
  }, abort);
  try {
    await feed.open(url);
  } catch (error) {
    rl.close();
    if (!(error instanceof ChatStoppedError)) {
      process.stderr.write(
        `hookgate chat: no hookgate dev is running at ${url}. Start one (npm start, or npx hookgate dev), or pass --url.\n`,
      );
    } else {
      process.stderr.write(`hookgate chat: ${errorText(error)}\n`);
    }
    return 1;
  }
  process.stdout.write(`hookgate chat: ${url}, chat ${options.chat} as user ${options.user}. Ctrl+D to leave.\n`);
  if (interactive) rl.prompt();
  let status = 0;
  try {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const line = next.value;
      const text = line.trim();
      if (text !== '') await sendLine(url, options, feed, text, print);
      if (interactive) rl.prompt();
    }
  } catch (error) {
    process.stderr.write(`hookgate chat: ${errorText(error)}\n`);
    status = 1;
  } finally {
    abort.abort();
    rl.close();
  }
  return status;
}
