import { cp, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandDecision } from '../../src/hooks/aggregate/index.ts';
import { createHookEngine, loadHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../../src/hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
// The static path: what the Lambda bundle does, with every entry module imported up front.
import * as activityLogger from '../../examples/hooks/activity-logger/handler.ts';
import * as commandPolicy from '../../examples/hooks/command-policy/handler.ts';
import * as guardrailContext from '../../examples/plugins/guardrail-context/index.ts';
import * as redactSecrets from '../../examples/plugins/redact-secrets/index.ts';
import * as toolAuditLog from '../../examples/plugins/tool-audit-log/index.ts';
import { tempHome, type TempHome } from './support/temp-home.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

/**
 * What running the examples leaves in examples/ (ignored by git): the allowlist that
 * `--accept-hooks` or `hooks approve` wrote, its lock, a running dev's endpoints, logs. The
 * copy leaves them out, so this test sees the examples as shipped, whatever was run before.
 */
const RUN_STATE = /^(shell-hooks-allowlist\.json(\..*)?|\.hookgate|logs)$/;
const shipped = (source: string): boolean => !RUN_STATE.test(relative(EXAMPLES, source).split(sep)[0] ?? '');

let home: TempHome;
let engine: LoadedHookEngine;
const lines: string[] = [];
const savedHome = process.env.HOOKGATE_HOME;

beforeAll(async () => {
  // A copy, so the examples' log files land in a temp hooks home, not in the repository.
  home = await tempHome();
  await cp(EXAMPLES, home.path, { recursive: true, filter: shipped });
  process.env.HOOKGATE_HOME = home.path;
  engine = await loadHookEngine({ home: home.path, logger: createMemoryLogger(), env: {}, print: (line) => lines.push(line) });
});
afterAll(async () => {
  await engine.close();
  await home.remove();
  if (savedHome === undefined) delete process.env.HOOKGATE_HOME;
  else process.env.HOOKGATE_HOME = savedHome;
});

describe('the examples/ hooks home, loaded from disk', () => {
  it('loads the enabled plugins, leaves the three chat-changing ones off, and loads the gateway hooks', () => {
    const listing = engine.describeRegistry();
    // Off in examples/config.yaml: they change every chat's answers (their tests enable them in a copy).
    const off = ['ambient-buffer', 'deny-unauthorised-dms', 'response-transform'];
    expect(listing.plugins.filter((p) => p.status !== 'loaded').map((p) => [p.name, p.status])).toEqual(
      off.map((name) => [name, 'not-enabled']),
    );
    expect(listing.plugins.filter((p) => p.status === 'loaded').map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'guardrail-context',
        'redact-secrets',
        'tool-audit-log',
        'tool-metrics',
        'memory-recall',
        'approval-notifier',
      ]),
    );
    expect(listing.callbacks.pre_tool_call).toEqual([
      'plugin:dangerous-tool-warning:warnDangerous',
      'plugin:tool-audit-log:auditToolCall',
    ]);
    expect(lines).toContain("[hooks] Loaded hook 'activity-logger' for events: ['agent:start', 'agent:end', 'agent:step']");
    expect(lines).toContain("[hooks] Loaded hook 'command-policy' for events: ['command:*']");
  });

  it('tool-call audit log: writes a TOOL_CALL line and never blocks', async () => {
    const answer = await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' }, task_id: 't-1' });
    expect(answer).toEqual({ action: 'allow' });
    const log = await readFile(join(home.path, 'logs', 'tool-audit.log'), 'utf8');
    expect(log).toMatch(/TOOL_CALL session=t-1 tool=terminal args=\{"command":"ls"\}\n$/);
  });

  it('guardrail context: pre_llm_call answers the policy as context', async () => {
    expect(await engine.invoke('pre_llm_call', { user_message: 'hi' })).toEqual({ context: guardrailContext.POLICY });
  });

  it('redact secrets: replaces sk- keys, leaves clean results unchanged', async () => {
    const key = `sk-${'a1'.repeat(20)}`;
    expect(await engine.invoke('transform_tool_result', { tool_name: 'read_file', result: `token=${key};` })).toEqual({
      result: 'token=[REDACTED];',
    });
    expect(await engine.invoke('transform_tool_result', { tool_name: 'read_file', result: 'nothing secret' })).toEqual({});
  });

  it('activity logger: one JSON line per agent event with the context spread in', async () => {
    await engine.emit('agent:start', { platform: 'local', user_id: 'u1', session_id: 's1', message: 'hello' });
    const [line] = (await readFile(join(home.path, 'logs', 'activity.log'), 'utf8')).trim().split('\n');
    expect(JSON.parse(line!)).toMatchObject({ event: 'agent:start', platform: 'local', user_id: 'u1', message: 'hello' });
  });

  it('command policy: deny, rewrite, handled and pass-through decisions', async () => {
    const decide = async (command: string, args = '') =>
      commandDecision(
        await engine.emitCollect(`command:${command}`, {
          platform: 'local',
          user_id: 'u',
          command,
          raw_command: command,
          args,
          raw_args: args,
        }),
        command,
      );
    expect(await decide('stop')).toEqual({ kind: 'deny', reply: 'Only admins may /stop a running turn.' });
    expect(await decide('reset', 'now')).toEqual({ kind: 'rewrite', text: '/new now' });
    expect(await decide('model')).toEqual({ kind: 'handled', reply: 'Usage: /model <name>' });
    expect(await decide('model', 'gpt-4')).toEqual({ kind: 'run' });
    expect(await decide('help')).toEqual({ kind: 'run' });
  });
});

describe('disk path and static-module path give the same registry (architecture §3)', () => {
  it('compares describeRegistry() of both engines over the same home and description', async () => {
    const description = await discoverHooksHome(home.path, { gatewayHooks: true });
    // The description is plain JSON: the bundle carries it, serialised, next to the modules.
    const bundled = JSON.parse(JSON.stringify(description));
    const modules: Record<string, unknown> = {
      'plugins/tool-audit-log/index.ts': toolAuditLog,
      'plugins/guardrail-context': guardrailContext,
      'plugins/redact-secrets/index.ts': redactSecrets,
      'hooks/activity-logger/handler.ts': activityLogger,
      'hooks/command-policy': commandPolicy,
    };
    // Entries other helpers add to examples/ later are imported up front here too.
    const entries = [
      ...description.plugins.map((p) => p.entry),
      ...description.gatewayHooks.flatMap((h) => (h.kind === 'hook' ? [h.handler] : [])),
    ];
    for (const entry of entries) {
      const dirKey = entry.slice(0, entry.lastIndexOf('/'));
      if (!(entry in modules) && !(dirKey in modules)) modules[entry] = await import(join(EXAMPLES, entry));
    }
    const staticLines: string[] = [];
    const fromBundle = await createHookEngine({
      description: bundled,
      gatewayHooks: true,
      env: {},
      logger: createMemoryLogger(),
      print: (line) => staticLines.push(line),
      modules,
    });
    expect(fromBundle.describeRegistry()).toEqual(engine.describeRegistry());
    expect(staticLines).toEqual(lines.filter((l) => l.startsWith('[hooks] ')));
    expect(await fromBundle.invoke('pre_llm_call', {})).toEqual({ context: guardrailContext.POLICY });
    await fromBundle.close();
  });

  it('an entry missing from the static list fails that plugin only, with a clear message', async () => {
    const logger = createMemoryLogger();
    const partial = await createHookEngine({
      home: home.path,
      env: {},
      logger,
      print: () => {},
      modules: { 'plugins/guardrail-context/index.ts': guardrailContext },
    });
    const statuses = Object.fromEntries(partial.describeRegistry().plugins.map((p) => [p.name, p.status]));
    expect(statuses['guardrail-context']).toBe('loaded');
    expect(statuses['redact-secrets']).toBe('failed');
    expect(statuses['tool-audit-log']).toBe('failed');
    expect(logger.lines.some((l) => l.message.includes('not in the static module list'))).toBe(true);
  });
});
