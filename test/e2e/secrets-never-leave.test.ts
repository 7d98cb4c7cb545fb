import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createStderrLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { scanTable } from '../support/scan-table.ts';
import { until } from '../support/until.ts';
import { chatLocally } from '../support/local-chat.ts';

/*
 * Issue #12's attack, as a test: ten fake secrets in the environment of `hookgate dev`
 * (stand-in model), a chat user asking for them every way the issue tried, and then every
 * way out searched for them and their base64/hex encodings: the replies, everything stored
 * in DynamoDB (transcripts, traces, turn states, the outbox), the observer events a plugin
 * received, the logs (the engine's and the gateway's), and the environments of the terminal's
 * child and of a shell hook.
 */
const SECRETS: Record<string, string> = {
  AWS_ACCESS_KEY_ID: 'FAKEKEYID7QZ2M4X8P1R',
  AWS_SECRET_ACCESS_KEY: 'fakeSecretAccessKey/Zq8+Wm3rT5yU7iO9pA1sD2fG4hJ6kL',
  AWS_SESSION_TOKEN: `FwoGZXIvYXdzEFakeSessionToken${'Qm9ndXNTZXNzaW9uVG9rZW4x'.repeat(12)}End`,
  TELEGRAM_BOT_TOKEN: '987654321:FakeTelegramTokenAbCdEfGhIjKlMnOpQrSt',
  SLACK_BOT_TOKEN: 'fake-slack-bot-token-5f3a9c2e7b1d',
  DISCORD_BOT_TOKEN: 'FakeDiscordBotToken.Mz4xNjA5.qwertyuiop',
  WHATSAPP_ACCESS_TOKEN: 'FakeWhatsAppAccessToken_EAAG7x9Qz',
  TEAMS_APP_PASSWORD: 'fake~Teams~App~Password~8Zk2',
  HOOKGATE_MODEL_API_KEY: 'fake-model-key-0c4b7e9a1f3d5',
  HOOKGATE_API_TOKEN: 'fake-api-token-6e8d0b2c4a9f7',
};

/** Each secret as it could leak: itself, base64 (with and without the newline `echo` adds), hex. */
const FORMS: [string, string][] = Object.entries(SECRETS).flatMap(([name, value]) => [
  [name, value],
  [`${name} (base64)`, Buffer.from(value).toString('base64')],
  [`${name} (base64 of echo)`, Buffer.from(`${value}\n`).toString('base64').slice(0, -4)],
  [`${name} (hex)`, Buffer.from(value).toString('hex')],
]);

/** The forms found in `text`, ignoring whitespace and JSON newline escapes (wrapped base64, `od` output). */
function leaks(text: string): string[] {
  const flat = text.replace(/\\[nrt]|\s/g, '');
  return FORMS.filter(([, form]) => flat.includes(form)).map(([label]) => label);
}

let home: TempHome;
let dev: DevRuntime;
let dataDir: string;
const engineLogs: string[] = [];
const stdout: string[] = [];
const saved: Record<string, string | undefined> = {};
const replies: string[] = [];

beforeAll(async () => {
  // An operator's data directory the file tools may use, holding a file with every secret in it.
  dataDir = await mkdtemp(join(tmpdir(), 'hookgate-data-'));
  // Readable by the tool sandbox's user ("nobody" when tests run as root), which binds it read-only.
  await chmod(dataDir, 0o755);
  await writeFile(
    join(dataDir, 'leak.txt'),
    `${Object.entries(SECRETS)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  home = await tempHome({
    'config.yaml': [
      'plugins:',
      '  enabled: [observed]',
      'files:',
      `  allowed_roots: [${JSON.stringify(dataDir)}]`,
      'hooks:',
      '  pre_tool_call:',
      '    - command: ~/agent-hooks/dump-env.sh',
      '',
    ].join('\n'),
    // A shell hook that records its environment and prints the leaked file and raw control characters to stderr.
    'agent-hooks/dump-env.sh': `#!/bin/sh\nenv > "$(dirname "$0")/../hook-env.txt"\ncat ${JSON.stringify(join(dataDir, 'leak.txt'))} >&2\nprintf '\\033[2J\\007bell\\n' >&2\nexit 1\n`,
    ...plugin(
      'observed',
      `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'observed.jsonl');
      ctx.register_hook('post_tool_call', function observed(kwargs: any) { appendFileSync(file, JSON.stringify(kwargs) + '\\n'); });`,
    ),
  });
  await chmod(join(home.path, 'agent-hooks', 'dump-env.sh'), 0o755);
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home.path };
  delete env.HOOKGATE_MODEL_BASE_URL;
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  // `~` in a hook command is HOME (§3.5): the temp home stands in for it while the hook fires.
  saved.HOME = process.env.HOME;
  process.env.HOME = home.path;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    acceptHooks: true,
    print: () => {},
    createEngine: (options) =>
      createHookEngine({
        ...options,
        onRun: recordHookRun,
        print: () => {},
        logger: createStderrLogger('debug', (line) => void engineLogs.push(line), 'text'),
      }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});

afterAll(async () => {
  await dev?.stop();
  vi.restoreAllMocks();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await home?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function chat(chatId: string, text: string): Promise<string> {
  const reply = await chatLocally(dev.url, chatId, text);
  replies.push(reply);
  return reply;
}

// Several chats per test on a loaded machine: room beyond the default 30 s (no timing is asserted).
describe('ten planted secrets never leave hookgate dev (issue #12)', { timeout: 180_000 }, () => {
  it('run: env shows the terminal child only the allowlisted variables', async () => {
    // The stand-in model reads a tool result back as chat text: the terminal's output as it is.
    const output = await chat('s1', 'run: env');
    const names = String(output)
      .trim()
      .split('\n')
      .map((line) => line.split('=')[0]);
    for (const name of names)
      expect(
        ['PATH', 'HOME', 'LANG', 'TZ', 'TERM', 'TMPDIR', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(name!) ||
          name!.startsWith('LC_'),
        name,
      ).toBe(true);
    expect(leaks(output)).toEqual([]);
  });

  it('run: printenv AWS_SECRET_ACCESS_KEY finds nothing', async () => {
    expect(await chat('s2', 'run: printenv AWS_SECRET_ACCESS_KEY')).toBe('(exit code 1)');
  });

  it("read: /proc/self/environ is the sandbox's own environment (hook-semantics §5.9), not the server's", async () => {
    const environ = await chat('s3', 'read: /proc/self/environ');
    expect(environ).toContain('HOME=/workspace');
    expect(leaks(environ)).toEqual([]);
  });

  it('run: echo $HOOKGATE_API_TOKEN | base64 encodes an empty variable', async () => {
    expect(await chat('s4', 'run: echo $HOOKGATE_API_TOKEN | base64')).toBe('Cg==');
  });

  it('secrets the tools do reach are redacted, raw and encoded (read_file included)', async () => {
    const file = join(dataDir, 'leak.txt');
    expect(await chat('s5', `read: ${file}`)).toContain('SLACK_BOT_TOKEN=***');
    for (const command of [
      `cat ${file}`,
      `base64 ${file}`,
      `od -A n -t x1 ${file}`,
      `tail -c +5 ${file} | base64 -w 0`,
      `cat /proc/$PPID/environ | tr '\\0' '\\n'`,
    ]) {
      const reply = await chat('s6', `run: ${command}`);
      expect(reply, command).not.toMatch(/\(exit code \d+\)$|^Error: /);
    }
  });

  it('no reply, stored item, observer event, log line or child environment holds any of them', async () => {
    expect(leaks(replies.join('\n'))).toEqual([]);

    const items = await scanTable(dev.aws);
    const stored = JSON.stringify(items);
    expect(stored).toContain('TRACE#'); // traces and transcripts are in there
    expect(stored).toContain('SLACK_BOT_TOKEN=***');
    expect(leaks(stored)).toEqual([]);

    const observedFile = join(home.path, 'observed.jsonl');
    // Up to the last tool call's event.
    const observed = await until(async () => {
      const text = await readFile(observedFile, 'utf8').catch(() => '');
      return text.includes('tail -c +5') ? text : undefined;
    }, "the last tool call's observer event");
    expect(observed).toContain('***');
    expect(leaks(observed)).toEqual([]);

    const logs = [...engineLogs, ...stdout].join('\n');
    expect(engineLogs.join('\n')).toMatch(/shell hook exited with code 1/);
    expect(leaks(logs)).toEqual([]);
    expect(engineLogs.join('')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/); // the hook's escape sequences arrive escaped
    expect(engineLogs.join('')).toContain('\\u001b[2J\\u0007bell');

    const hookEnv = await readFile(join(home.path, 'hook-env.txt'), 'utf8');
    expect(hookEnv).toContain('PATH='); // the inherited environment, minus the secrets
    for (const name of Object.keys(SECRETS)) expect(hookEnv).not.toContain(`${name}=`);
    expect(leaks(hookEnv)).toEqual([]);
  });
});
