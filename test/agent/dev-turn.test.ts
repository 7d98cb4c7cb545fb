import { mkdir, readFile, symlink, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { enable, plugin, tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { until } from '../support/until.ts';
import { chatLocally } from '../support/local-chat.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

let home: TempHome;
let dev: DevRuntime;
const savedHome = process.env.HOOKGATE_HOME;

beforeAll(async () => {
  // A temp hooks home with the two example gateway hooks linked in from examples/ (their
  // logs land in the temp home), a plugin that notes each turn id, and one that adds
  // pre_llm_call context to every turn (as the examples' guardrail and git-status hooks do).
  home = await tempHome({
    'config.yaml': enable('turn-ids', 'guard-context'),
    ...plugin('guard-context', `ctx.register_hook('pre_llm_call', () => ({ context: 'Never delete files without asking.' }));`),
    ...plugin(
      'turn-ids',
      `
      const { appendFileSync } = await import('node:fs');
      const { join, dirname } = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'turn-ids.txt');
      ctx.register_hook('pre_tool_call', function turnIds(kwargs: any) { appendFileSync(file, kwargs.turn_id + '\\n'); });`,
    ),
  });
  await mkdir(join(home.path, 'hooks'), { recursive: true });
  for (const hook of ['long-task-alert', 'boot-checklist'])
    await symlink(join(EXAMPLES, 'hooks', hook), join(home.path, 'hooks', hook), 'dir');
  await copyFile(join(EXAMPLES, 'BOOT.md'), join(home.path, 'BOOT.md'));
  process.env.HOOKGATE_HOME = home.path;
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home.path };
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: (options) =>
      createHookEngine({ ...options, onRun: recordHookRun, print: () => {}, logger: createMemoryLogger() }),
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});
afterAll(async () => {
  await dev?.stop();
  await home?.remove();
  if (savedHome === undefined) delete process.env.HOOKGATE_HOME;
  else process.env.HOOKGATE_HOME = savedHome;
});

const chat = (chatId: string, text: string) => chatLocally(dev.url, chatId, text);

const eventually = <T>(read: () => Promise<T | undefined>) => until(read, 'a log line', { ignoreErrors: true });

describe('hookgate dev with the local stand-in model', () => {
  it('answers ordinary text with "You said: …"', async () => {
    expect(await chat('c1', 'hello there')).toBe('You said: hello there');
  });

  it('run: calls the terminal in the session workspace and answers with its result', async () => {
    expect(await chat('c2', 'run: echo hi from the stand-in')).toBe('hi from the stand-in');
    expect(await chat('c2', 'run: echo no >&2; exit 3')).toBe('no\n(exit code 3)');
  });

  it('write: then read: round-trips a file', async () => {
    expect(await chat('c3', 'write: notes.txt\nline one\nline two')).toBe('Wrote 17 bytes to notes.txt.');
    expect(await chat('c3', 'read: notes.txt')).toBe('line one\nline two');
  });

  it('delegate: runs a child on the task and answers with its result', async () => {
    expect(await chat('c4', 'delegate: run: echo from the child')).toBe(
      'Subtask "run: echo from the child" completed:\nfrom the child',
    );
  });

  it('the long-task-alert example fires at the 10th step', async () => {
    const lines = Array.from({ length: 11 }, (_, i) => `run: echo step ${i + 1}`).join('\n');
    expect(await chat('c5', lines)).toBe('step 11');
    const log = await eventually(
      async () => (await readFile(join(home.path, 'logs', 'long-task-alert.log'), 'utf8')) || undefined,
    );
    const alerts = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toBe('⚠️ Agent has been running for 10 steps. Last tools: terminal');
  });

  it('the boot-checklist example ran BOOT.md on startup with the stand-in', async () => {
    const log = await eventually(async () => {
      const text = await readFile(join(home.path, 'logs', 'boot-checklist.log'), 'utf8');
      return text.includes('completed') ? text : undefined;
    });
    expect(log).toMatch(/Running BOOT\.md \(\d+ chars\)/);
    expect(log).toContain('completed: deploy.log: no errors');
  });

  it('hookgate trace <turn_id> prints the turn’s hook calls from the running dev', async () => {
    await chat('c6', 'run: echo traced');
    const ids = (await readFile(join(home.path, 'turn-ids.txt'), 'utf8')).trim().split('\n');
    const turnId = ids.at(-1)!;
    const { code, stdout } = await runCliInProcess(['trace', turnId, '--home', home.path]);
    expect(code).toBe(0);
    // The in-process dev runtime may log a JSON line to stdout meanwhile: keep the CLI's own lines.
    const text = stdout
      .split('\n')
      .filter((line) => !line.startsWith('{'))
      .join('\n');
    expect(text).toMatch(/^HOOK\s+SOURCE\s+CALLBACK\s+DECISION\s+DURATION/);
    expect(text).toMatch(/pre_tool_call\s+plugin\s+[\w-]+:turnIds\s+allow\s+\d+ ms/);
    expect(text).toMatch(/transform_terminal_output\s+-\s+-\s+unchanged/);
    expect(text).toMatch(/agent:end\s+-\s+-\s+emitted/);
    expect(text).toContain(`hook call(s) in ${turnId}`);
  });

  it('hookgate trace of an unknown turn says so and exits 1', async () => {
    const { code, stderr } = await runCliInProcess(['trace', 'turn_nope', '--home', home.path]);
    expect(code).toBe(1);
    expect(stderr).toContain('no hook calls recorded for turn_nope');
  });
});
