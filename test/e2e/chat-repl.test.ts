import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));

let home: string;
/** dev's and chat's own temp dir: the running-dev pointers in it are this test's only (other files start devs too). */
let tmp: string;
let dev: DevChild;
let url: string;

const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_API_TOKEN: 'chat-token-0123456789',
    HOOKGATE_DEV_STATE: 'memory',
    HOOKGATE_LOG_LEVEL: 'warn',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NO_COLOR: '1',
    TMPDIR: tmp,
  };
  delete e.HOOKGATE_HOME;
  delete e.HERMES_HOME;
  delete e.HOOKGATE_MODEL_BASE_URL;
  return e;
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-chat-'));
  tmp = await mkdtemp(join(tmpdir(), 'hookgate-chat-tmp-'));
  // One plugin whose pre_llm_call hook adds context: the summary line must name it.
  await mkdir(join(home, 'plugins', 'greeter'), { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [greeter]\n');
  await writeFile(join(home, 'plugins', 'greeter', 'plugin.yaml'), 'name: greeter\nprovides_hooks: [pre_llm_call]\n');
  await writeFile(
    join(home, 'plugins', 'greeter', 'index.ts'),
    "export function register(ctx) { ctx.register_hook('pre_llm_call', function greet() { return { context: 'be kind' }; }); }\n",
  );
  dev = await startDevChild(['--home', home], { cwd: process.cwd(), env: env(), timeoutMs: 40_000 });
  url = dev.url;
}, 60_000);

afterAll(async () => {
  await dev?.stop('SIGKILL');
  await rm(home, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

/** `hookgate chat` as a child process, driven through stdin; resolves with its output once it exits. */
function startChat(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'chat', ...args], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, exited, out: () => out, err: () => err };
}

describe('hookgate chat (a REPL over the running hookgate dev)', () => {
  it('prints each reply and a summary of the hooks that fired, line after line', async () => {
    const chat = startChat(['--url', url, '--chat', 'repl-test']);
    await until(() => chat.out().includes('Ctrl+D to leave'), `the chat banner\n${chat.out()}\n${chat.err()}`, { everyMs: 50 });
    chat.child.stdin.write('hello repl\n');
    await until(() => chat.out().includes('hook call'), `the first summary\n${chat.out()}\n${chat.err()}`, { everyMs: 50 });
    expect(chat.out()).toContain('bot> You said: hello repl');
    const summary = chat
      .out()
      .split('\n')
      .find((l) => l.includes('hook call'))!;
    expect(summary).toMatch(/1 hook call: pre_llm_call plugin greet → context \(7 chars\); emitted .*agent:start.*\[turn_/);
    // The reply came before its summary.
    expect(chat.out().indexOf('You said: hello repl')).toBeLessThan(chat.out().indexOf('hook call'));

    // A slash command the gateway answers itself (no turn), then end of input.
    chat.child.stdin.end('/help\nsecond line\n');
    expect(await chat.exited).toBe(0);
    expect(chat.out()).toContain('/new — start a new session');
    expect(chat.out()).toContain('bot> You said: second line');
    expect(
      chat
        .out()
        .split('\n')
        .filter((l) => l.includes('hook call')),
    ).toHaveLength(2);
    // What the gateway answered stays in the local platform's history of that chat.
    const history = (await (await fetch(`${url}/webhooks/local/messages?chat_id=repl-test`)).json()) as { text: string }[];
    expect(history.map((m) => m.text)).toContain('You said: second line');
  }, 60_000);

  it('finds the only running dev, on whatever port and home, with no --url or --home', async () => {
    const chat = startChat(['--chat', 'found']);
    chat.child.stdin.end('found it\n');
    expect(await chat.exited).toBe(0);
    expect(chat.out()).toContain('bot> You said: found it');
  }, 60_000);

  it('shows control characters of a reply as escapes, never as terminal sequences', async () => {
    const chat = startChat(['--url', url, '--chat', 'controls']);
    // The stand-in model echoes the message: an OSC 52 (clipboard write), a C1 OSC, a bidi override, a tab.
    chat.child.stdin.end('a\x1b]52;c;aGk=\x07b \u009d52;c;aGk=\x07 \u202eexe.txt\tend\n');
    expect(await chat.exited).toBe(0);
    const reply = chat
      .out()
      .split('\n')
      .find((l) => l.startsWith('bot> You said:'));
    expect(reply).toBe('bot> You said: a\\u001b]52;c;aGk=\\u0007b \\u009d52;c;aGk=\\u0007 \\u202eexe.txt\\tend');
    expect(chat.out()).not.toMatch(/[\u001b\u0007\u009d\u202e]/);
  }, 60_000);

  it('says clearly when no hookgate dev is running', async () => {
    const chat = startChat(['--url', 'http://127.0.0.1:9']);
    chat.child.stdin.end();
    expect(await chat.exited).toBe(1);
    expect(chat.err()).toContain('no hookgate dev is running at http://127.0.0.1:9');
  }, 30_000);
});
