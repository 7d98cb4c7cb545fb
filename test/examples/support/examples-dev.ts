import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startDevChild } from '../../support/dev-child.ts';
import { until } from '../../support/until.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');

/** What running the examples leaves in examples/ (git-ignored): never part of a copy. */
const RUN_STATE = /^(shell-hooks-allowlist\.json(\..*)?|\.hookgate|logs)$/;
const shipped = (source: string): boolean => !RUN_STATE.test(relative(EXAMPLES, source).split(sep)[0] ?? '');

export interface ExamplesDev {
  /** The temp copy of examples/ that the server runs with (its logs land in `<home>/logs`). */
  home: string;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Posts through the local adapter and waits for the chat's next reply. */
  chat(chatId: string, text: string, userId?: string): Promise<string>;
  /** Posts through the local adapter without waiting (for messages that get no reply). */
  post(chatId: string, text: string, userId?: string): Promise<void>;
  replies(chatId: string): Promise<string[]>;
  /** The text of `<home>/logs/<name>` once `check` holds for it. */
  logWhen(name: string, check: (text: string) => boolean, what?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the real `hookgate dev` binary (emulators, gateway, turn and observer consumers,
 * the built-in stand-in model) on a temp copy of examples/, so the example hooks fire through
 * the whole pipeline and write their logs into the copy. `enable` adds plugins to the copy's
 * `plugins.enabled`, the way a user would turn on an example that is off by default.
 *
 * @example
 * const dev = await startExamplesDev({ env: { SESSION_WEBHOOK_URL: receiver.url } });
 * expect(await dev.chat('c1', 'hi')).toBe('You said: hi');
 * await dev.stop();
 */
export async function startExamplesDev(
  options: {
    enable?: string[];
    env?: Record<string, string> /** Files of the copy to delete, e.g. BOOT.md. */;
    remove?: string[];
  } = {},
): Promise<ExamplesDev> {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-examples-'));
  await cp(EXAMPLES, home, { recursive: true, filter: shipped });
  for (const file of options.remove ?? []) await rm(join(home, file), { recursive: true, force: true });
  if (options.enable?.length) {
    const configFile = join(home, 'config.yaml');
    const config = parse(await readFile(configFile, 'utf8')) as { plugins: { enabled: string[] } };
    config.plugins.enabled.push(...options.enable);
    await writeFile(configFile, stringify(config));
  }
  // Info level: the examples' tests read the lines dev logs (a skipped message, a hook's own line).
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_DEV_STATE: 'memory', HOOKGATE_LOG_LEVEL: 'info', ...options.env };
  for (const name of [
    'HOOKGATE_HOME',
    'HERMES_HOME',
    'HOOKGATE_MODEL_BASE_URL',
    'SESSION_WEBHOOK_URL',
    'MEMORY_API_URL',
    'APPROVAL_NOTIFIER_URL',
    'SPONGEBOB_MODE',
    'DM_ALLOWED_USERS',
  ]) {
    if (!options.env || !(name in options.env)) delete env[name];
  }
  // The cwd is the copy: nothing the server writes (state, endpoints) lands in the repository.
  const dev = await startDevChild(['--home', home], { cwd: home, env, timeoutMs: 60_000 });
  const { child, url } = dev;
  const eventually = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000) =>
    until(
      async () => {
        const value = await probe().catch(() => undefined);
        if (value === undefined && child.exitCode !== null)
          throw new Error(
            `hookgate dev exited (${child.exitCode}) while waiting for ${what}\nstdout:\n${dev.stdout()}\nstderr:\n${dev.stderr()}`,
          );
        return value;
      },
      what,
      { timeoutMs, everyMs: 50, context: () => `stdout:\n${dev.stdout()}\nstderr:\n${dev.stderr()}` },
    );

  const replies = async (chatId: string): Promise<string[]> => {
    const list = (await (await fetch(`${url}/webhooks/local/messages?chat_id=${encodeURIComponent(chatId)}`)).json()) as {
      text: string;
    }[];
    return list.map((m) => m.text);
  };
  const post = async (chatId: string, text: string, userId = 'me'): Promise<void> => {
    const res = await fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, user_id: userId, text }),
    });
    if (res.status !== 202) throw new Error(`POST /webhooks/local answered ${res.status}: ${await res.text()}`);
  };
  return {
    home,
    url,
    stdout: dev.stdout,
    stderr: dev.stderr,
    replies,
    post,
    async chat(chatId, text, userId) {
      const before = (await replies(chatId)).length;
      await post(chatId, text, userId);
      return eventually(async () => (await replies(chatId))[before], `a reply to ${JSON.stringify(text)} in ${chatId}`);
    },
    logWhen(name, check, what = name) {
      const file = join(home, 'logs', name);
      return eventually(async () => {
        if (!existsSync(file)) return undefined;
        const text = await readFile(file, 'utf8');
        return check(text) ? text : undefined;
      }, what);
    },
    async stop() {
      await dev.stop('SIGINT', { killAfterMs: 8_000 });
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** One request a {@link Receiver} got. */
export interface Received {
  path: string;
  body: unknown;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` — pass as the example's URL variable. */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for what an example calls out to (a webhook
 * receiver, a memory service, a notifier): records every JSON body, answers with `answer`.
 */
export async function startReceiver(answer: (request: Received) => unknown = () => ({ ok: true })): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      const request = { path: req.url ?? '', body };
      received.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(request)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `check` gives a value (no timing is asserted, only an upper bound). */
export const waitFor = <T>(check: () => T | undefined | false, what: string, timeoutMs = 30_000) =>
  until(check, what, { timeoutMs, everyMs: 50 });
