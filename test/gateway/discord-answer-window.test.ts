import { describe, expect, it } from 'vitest';
import { DISCORD_ANSWER_WINDOW_SECONDS, discordAnswerWindowWarning } from '../../src/gateway/dispatch/discord-answer-window.ts';
import { enable, plugin } from '../hooks/support/temp-home.ts';
import { tempEngines } from '../hooks/support/temp-engine.ts';

/** What runs before a Discord interaction is answered, read from a real engine over a real hooks home. */
describe('discordAnswerWindowWarning', () => {
  const load = tempEngines({ gatewayHooks: true });
  const engineOver = async (files: Record<string, string>) => (await load(files)).engine;

  it('names every kind of hook that runs before the answer: pre_gateway_dispatch, command hooks, plugin commands', async () => {
    const loaded = await engineOver({
      'config.yaml': enable('gate'),
      ...plugin(
        'gate',
        `ctx.register_hook('pre_gateway_dispatch', () => undefined);
         ctx.register_command('metrics', () => 'ok');`,
      ),
      'hooks/policy/HOOK.yaml': 'name: policy\nevents:\n  - command:new\n  - command:metrics\n',
      'hooks/policy/handler.mjs': 'export function handle() {}\n',
    });
    const warning = discordAnswerWindowWarning(loaded, ['telegram', 'discord']);
    expect(warning).toBe(
      `discord: an interaction not answered within ${DISCORD_ANSWER_WINDOW_SECONDS} s fails, and the reply cannot follow it; ` +
        'these run before the answer: pre_gateway_dispatch hooks; gateway hooks on command:new, command:metrics; plugin commands /metrics. ' +
        'Keep each well inside it (docs/gateway.md#discords-3-second-window)',
    );
  });

  it('a command:* hook covers every command', async () => {
    const loaded = await engineOver({
      'hooks/log/HOOK.yaml': 'name: log\nevents:\n  - command:*\n',
      'hooks/log/handler.mjs': 'export function handle() {}\n',
    });
    expect(discordAnswerWindowWarning(loaded, ['discord'])).toContain(
      'gateway hooks on command:new, command:stop, command:status, command:help, command:tools, command:model, command:approve, command:deny.',
    );
  });

  it('says nothing without Discord, or with no hook before the answer', async () => {
    const loaded = await engineOver({
      'config.yaml': enable('observer'),
      ...plugin('observer', `ctx.register_hook('post_tool_call', () => undefined);`),
      'hooks/start/HOOK.yaml': 'name: start\nevents:\n  - agent:start\n',
      'hooks/start/handler.mjs': 'export function handle() {}\n',
    });
    expect(discordAnswerWindowWarning(loaded, ['discord', 'slack'])).toBeUndefined();
    expect(discordAnswerWindowWarning(loaded, [])).toBeUndefined();
    const withDispatch = await engineOver({
      'config.yaml': enable('gate'),
      ...plugin('gate', `ctx.register_hook('pre_gateway_dispatch', () => undefined);`),
    });
    expect(discordAnswerWindowWarning(withDispatch, ['telegram', 'slack'])).toBeUndefined();
  });
});
