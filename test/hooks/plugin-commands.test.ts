import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/gateway/commands/slash-command.ts';
import { resolveSlashCommand } from '../../src/gateway/commands/slash-command.ts';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../../src/hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { readCallbackTimeoutSeconds } from '../../src/hooks/plugins/callback-timeout.ts';
import {
  PluginCommandRegistry,
  RESERVED_COMMAND_NAMES,
  type PluginCommandContext,
} from '../../src/hooks/plugins/plugin-commands.ts';
import { enable, plugin, tempHome, type TempHome } from './support/temp-home.ts';

const context: PluginCommandContext = {
  command: 'x',
  raw_command: 'x',
  platform: 'local',
  user_id: 'u',
  chat_id: 'c',
  session_key: 'local:c',
  session_id: null,
  traces: async () => [],
};

let home: TempHome | undefined;
afterEach(async () => {
  await home?.remove();
  home = undefined;
});

describe('plugin command registry', () => {
  it('reserves exactly the gateway built-ins and their aliases', () => {
    const builtins = Object.entries(BUILTIN_COMMANDS).flatMap(([name, def]) => [name, ...def.aliases]);
    expect([...RESERVED_COMMAND_NAMES].sort()).toEqual(builtins.sort());
  });

  it('answers text, nothing for undefined/null/"", and a short error for a non-text answer', async () => {
    const logger = createMemoryLogger();
    const commands = new PluginCommandRegistry(logger, 30);
    commands.register('p', { name: 'Text', handler: async (args: string) => `got ${args}` });
    commands.register('p', { name: 'none', handler: () => undefined });
    commands.register('p', { name: 'empty', handler: () => '' });
    commands.register('p', { name: 'object', handler: () => ({ text: 'no' }) });
    expect(await commands.run('TEXT', 'a b', context)).toEqual({ reply: 'got a b' });
    expect(await commands.run('none', '', context)).toEqual({});
    expect(await commands.run('empty', '', context)).toEqual({});
    expect(await commands.run('object', '', context)).toEqual({ reply: '⚠️ /object failed.', failed: 'bad-result' });
    expect(logger.lines.at(-1)?.message).toBe('plugin p: command /object returned object, not reply text; nothing sent');
    expect(await commands.run('unknown', '', context)).toEqual({});
  });

  it('resolves built-ins first, then plugin commands, case-insensitively; unknown commands go to the agent', () => {
    const commands = new PluginCommandRegistry(createMemoryLogger(), 30);
    commands.register('p', { name: 'metrics', handler: () => 'x' });
    expect(resolveSlashCommand('/Metrics@bot  dias:7 ', commands)).toEqual({
      plugin: true,
      command: 'metrics',
      rawCommand: 'Metrics',
      args: 'dias:7',
    });
    expect(resolveSlashCommand('/status', commands)).toEqual({ command: 'status', rawCommand: 'status', args: '' });
    expect(resolveSlashCommand('/other', commands)).toBeUndefined();
    expect(resolveSlashCommand('/metrics', undefined)).toBeUndefined();
  });

  it('plugins.callback_timeout: a positive number of seconds, else a warning and 30', () => {
    const logger = createMemoryLogger();
    expect(readCallbackTimeoutSeconds({}, logger)).toBe(30);
    expect(readCallbackTimeoutSeconds({ plugins: { callback_timeout: 2.5 } }, logger)).toBe(2.5);
    expect(logger.lines).toEqual([]);
    expect(readCallbackTimeoutSeconds({ plugins: { callback_timeout: 0 } }, logger)).toBe(30);
    expect(readCallbackTimeoutSeconds({ plugins: { callback_timeout: 'soon' } }, logger)).toBe(30);
    expect(logger.lines.map((l) => l.level)).toEqual(['warn', 'warn']);
  });
});

describe('plugin commands in the engine', () => {
  it('come with their plugin on the bundle path (description + static modules), and a forced re-discovery does not duplicate them', async () => {
    home = await tempHome({
      'config.yaml': enable('stats'),
      ...plugin('stats', "ctx.register_command('metrics', (a: string) => 'm ' + a, 'metrics', 'dias:N');"),
    });
    const description = JSON.parse(JSON.stringify(await discoverHooksHome(home.path, { gatewayHooks: true })));
    const mod = {
      register: (ctx: { register_command: (...a: unknown[]) => void }) =>
        ctx.register_command('metrics', (a: string) => `bundled ${a}`, 'metrics', 'dias:N'),
    };
    const logger = createMemoryLogger();
    const bundled = await createHookEngine({
      description,
      modules: { 'plugins/stats/index.ts': mod },
      gatewayHooks: true,
      env: {},
      logger,
      print: () => {},
    });
    expect(bundled.describeRegistry().commands).toEqual([
      { name: 'metrics', plugin: 'stats', description: 'metrics', args_hint: 'dias:N' },
    ]);
    expect(await bundled.pluginCommands!.run('metrics', 'dias:7', context)).toEqual({ reply: 'bundled dias:7' });
    await bundled.discoverPlugins({ force: true });
    expect(bundled.describeRegistry().commands).toHaveLength(1);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);

    const fromDisk = await createHookEngine({ home: home.path, env: {}, logger: createMemoryLogger(), print: () => {} });
    expect(fromDisk.describeRegistry().commands).toEqual(bundled.describeRegistry().commands);
    expect(await fromDisk.pluginCommands!.run('metrics', 'dias:7', context)).toEqual({ reply: 'm dias:7' });
  });
});
