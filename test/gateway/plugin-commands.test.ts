import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { createTurnConsumer } from '../../src/runtime/turn-consumer.ts';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { startDevRuntime, type DevRuntime } from '../../src/local/dev-runtime.ts';
import { tempHome, type TempHome } from '../hooks/support/temp-home.ts';
import { until } from '../support/until.ts';
import { chatLocally, localReplies } from '../support/local-chat.ts';

/**
 * Plugin slash commands through the running pipeline (`hookgate dev` in-process: the
 * gateway over HTTP, the emulators, the turn consumer and the stand-in model). The /metrics
 * plugin is the worked example of docs/reference/plugin-commands.md, read from the page.
 */
const DOC = new URL('../../docs/reference/plugin-commands.md', import.meta.url);

async function docExample(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const block = /<!-- example:session-metrics -->\s*```ts\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error('the worked example is missing from docs/reference/plugin-commands.md');
  return block[1]!;
}

const EXTRAS = `
export function register(ctx: any): void {
  ctx.register_command('metrics', () => 'second /metrics', 'taken');
  ctx.register_command('help', () => 'mine');
  ctx.register_command('/slash', () => 'x');
  ctx.register_command('two words', () => 'x');
  ctx.register_command('nohandler', 'not a function');
  ctx.register_command('boom', () => { throw new Error('secret internals'); }, 'always fails');
  ctx.register_command('slow', () => new Promise(() => {}), 'never answers');
  ctx.registerCommand('Echo', async (args: string, context: any) => \`echo [\${args}] from \${context.platform}:\${context.user_id}\`, 'repeat', 'TEXT');
  ctx.register_hook('pre_llm_call', function extrasStillLoaded() { return undefined; });
}
`;

const POLICY = `
import { appendFileSync } from 'node:fs';
export function handle(type: string, context: Record<string, unknown>) {
  appendFileSync(__LOG_PATH__, JSON.stringify({ type, context }) + '\\n');
  if (context.user_id === 'guest') return { decision: 'deny', message: 'Metrics are for operators.' };
  if (context.command === 'echo' && context.args === 'as metrics') return { decision: 'rewrite', command_name: 'metrics', raw_args: 'dias:1' };
  return undefined;
}
`;

let home: TempHome;
let dev: DevRuntime;
let engine: LoadedHookEngine;
const logger = createMemoryLogger();

beforeAll(async () => {
  home = await tempHome();
  const policyLog = join(home.path, 'policy.log');
  await home.write({
    'config.yaml': 'plugins:\n  enabled: [session-metrics, zz-extras]\n  callback_timeout: 1\n',
    'plugins/session-metrics/plugin.yaml': 'name: session-metrics\n',
    'plugins/session-metrics/index.ts': await docExample(),
    'plugins/zz-extras/plugin.yaml': 'name: zz-extras\n',
    'plugins/zz-extras/index.ts': EXTRAS,
    'hooks/policy/HOOK.yaml': 'name: policy\nevents:\n  - command:*\n',
    'hooks/policy/handler.ts': POLICY.replace('__LOG_PATH__', JSON.stringify(policyLog)),
  });
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: home.path };
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevRuntime({
    home: home.path,
    port: 0,
    env,
    print: () => {},
    createEngine: async (options) => {
      engine = await createHookEngine({ ...options, onRun: recordHookRun, print: () => {}, logger });
      return engine;
    },
    createTurnConsumer: (context) => createTurnConsumer(context),
  });
});
afterAll(async () => {
  await dev?.stop();
  await home?.remove();
});

const messages = (chatId: string) => localReplies(dev.url, chatId);
const chat = (chatId: string, text: string, userId = 'u1') => chatLocally(dev.url, chatId, text, { userId });

async function policyCalls(): Promise<{ type: string; context: Record<string, unknown> }[]> {
  const text = await readFile(join(home.path, 'policy.log'), 'utf8').catch(() => '');
  return text.trim() === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
}

describe('plugin slash commands in the running pipeline', () => {
  it('/metrics dias:7 raises command:metrics with args and raw_args, then the handler answers from the session traces', async () => {
    expect(await chat('m1', 'run: echo measured')).toBe('measured');
    // A turn stores its hook trace after its reply (src/agent/turn/run-turn.ts): ask until the turn is in it.
    const reply = await until(async () => {
      const answer = await chat('m1', '/metrics dias:7');
      return answer.startsWith('No hook calls') ? undefined : answer;
    }, 'the first turn in /metrics');
    const calls = (await policyCalls()).filter((c) => c.type === 'command:metrics');
    expect(calls.at(-1)!.context).toEqual({
      platform: 'local',
      user_id: 'u1',
      command: 'metrics',
      raw_command: 'metrics',
      args: 'dias:7',
      raw_args: 'dias:7',
    });
    expect(reply).toMatch(/^Session \S+, last 7 day\(s\): 1 turn\(s\), \d+ hook call\(s\)/);
    expect(reply).toMatch(/^pre_tool_call: 1 call\(s\), 0 blocked, 0 failed/m);
  });

  it('a command:* hook can deny it; the handler does not run', async () => {
    expect(await chat('m1', '/metrics dias:7', 'guest')).toBe('Metrics are for operators.');
  });

  it('a conversation without turns gets the handler’s own answer; bad arguments get its usage line', async () => {
    expect(await chat('m2', '/Metrics')).toBe('No turns in this conversation yet.');
    expect(await chat('m2', '/metrics forever')).toBe('Usage: /metrics [dias:N]');
  });

  it('a rewrite to a plugin command is dispatched to its handler without raising the hooks again', async () => {
    const before = (await policyCalls()).length;
    expect(await chat('m1', '/echo as metrics')).toMatch(/^Session \S+, last 1 day\(s\)/);
    expect((await policyCalls()).slice(before).map((c) => c.type)).toEqual(['command:echo']);
    expect(await chat('m3', '/echo   hello   world ')).toBe('echo [hello   world] from local:u1');
  });

  it('/help lists the plugin commands with their args hint and description', async () => {
    const help = await chat('m4', '/help');
    expect(help).toContain('/metrics dias:N — hook calls of this session (plugin session-metrics)');
    expect(help).toContain('/echo TEXT — repeat (plugin zz-extras)');
    expect(help).toContain('/boom — always fails (plugin zz-extras)');
    expect(help).not.toContain('second /metrics');
    expect(help.split('\n').filter((line) => line.startsWith('/help'))).toHaveLength(1);
  });

  it('a handler that throws or outlives plugins.callback_timeout answers a short error and logs a warning', async () => {
    expect(await chat('m5', '/boom')).toBe('⚠️ /boom failed.');
    expect(await chat('m5', '/slow')).toBe('⌛ /slow took too long and was stopped.');
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toContain('plugin zz-extras: command /boom raised: secret internals');
    expect(
      warnings.some((w) => /^plugin zz-extras: command \/slow did not answer within plugins\.callback_timeout \(1s/.test(w)),
    ).toBe(true);
    expect((await messages('m5')).map((m) => m.text).join('\n')).not.toContain('secret internals');
  });

  it('bad and duplicate names are load-time warnings naming the plugin; its other registrations load', () => {
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        "plugin zz-extras: register_command('metrics') duplicates /metrics, already registered by plugin session-metrics; command not registered",
        "plugin zz-extras: register_command('help') uses the name of the built-in command /help; command not registered",
        "plugin zz-extras: register_command('/slash') takes the name without the leading '/'; command not registered",
        "plugin zz-extras: register_command('two words') has a name with spaces; command not registered",
        "plugin zz-extras: register_command('nohandler') needs a handler function, got string; command not registered",
      ]),
    );
    const listing = engine.describeRegistry();
    expect(listing.commands.map((c) => `${c.plugin}:${c.name}`)).toEqual([
      'zz-extras:boom',
      'zz-extras:echo',
      'session-metrics:metrics',
      'zz-extras:slow',
    ]);
    expect(listing.callbacks.pre_llm_call).toEqual(['plugin:zz-extras:extrasStillLoaded']);
    expect(listing.plugins.map((p) => p.status)).toEqual(['loaded', 'loaded']);
  });
});
