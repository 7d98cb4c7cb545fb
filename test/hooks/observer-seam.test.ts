import { chmod, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import type { HookRunRecord } from '../../src/hooks/hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { ObserverEvent, ObserverSink } from '../../src/hooks/observer-sink.ts';
import { enable, plugin, tempHome, type TempHome } from './support/temp-home.ts';

let home: TempHome | undefined;
let engine: LoadedHookEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await home?.remove();
  home = undefined;
  engine = undefined;
});

/** A sink that keeps what it is handed (pure-logic stand-in for the SNS publisher). */
function recordingSink(fail = false): ObserverSink & { events: ObserverEvent[] } {
  const events: ObserverEvent[] = [];
  return {
    events,
    async publish(batch) {
      if (fail) throw new Error('queue unreachable');
      events.push(...batch);
      return batch.map((event, i) => event.id ?? `id-${events.length - batch.length + i}`);
    },
  };
}

const files = {
  'config.yaml': enable('obs'),
  ...plugin(
    'obs',
    `const seen: string[] = (globalThis as any).__seen = [];
     ctx.register_hook('post_tool_call', async function slow(k: any) { await new Promise((r) => setTimeout(r, 20)); seen.push('slow:' + k.tool_name + ':' + k.telemetry_schema_version); });
     ctx.register_hook('post_tool_call', function fast(k: any) { seen.push('fast:' + k.tool_name); });
     ctx.register_hook('pre_tool_call', function guard() { seen.push('guard'); return { action: 'block', message: 'inline' }; });`,
  ),
  'hooks/steps/HOOK.yaml': 'events: [agent:step]\n',
  'hooks/steps/handler.ts': `export function handle(e: string, c: any) { (globalThis as any).__seen.push(e + ':' + c.iteration); }\n`,
};
const seen = () => (globalThis as { __seen?: string[] }).__seen ?? [];

describe('observer seam: default sink runs observers in-process at once', () => {
  it('observe and invoke of an observer hook run its callbacks in strict order before resolving', async () => {
    home = await tempHome(files);
    const runs: HookRunRecord[] = [];
    engine = await createHookEngine({
      home: home.path,
      gatewayHooks: true,
      env: {},
      logger: createMemoryLogger(),
      print: () => {},
      onRun: (r) => runs.push(r),
    });
    await engine.observe('post_tool_call', { tool_name: 'terminal' });
    expect(await engine.invoke('post_tool_call', { tool_name: 'read_file' })).toEqual({});
    await engine.observe('agent:step', { iteration: 3 });
    expect(seen()).toEqual([
      'slow:terminal:hermes.observer.v1',
      'fast:terminal',
      'slow:read_file:hermes.observer.v1',
      'fast:read_file',
      'agent:step:3',
    ]);
    expect(runs.map((r) => [r.hook, r.source, r.callback])).toEqual([
      ['post_tool_call', 'plugin', 'slow'],
      ['post_tool_call', 'plugin', 'fast'],
      ['post_tool_call', 'plugin', 'slow'],
      ['post_tool_call', 'plugin', 'fast'],
      ['agent:step', 'gateway', 'steps'],
    ]);
    expect(runs.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0)).toBe(true);
  });
});

describe('observer seam: an injected sink', () => {
  it('publishes observer hooks (tagged) and gateway events (untagged) instead of running them; decision hooks stay inline', async () => {
    home = await tempHome(files);
    const sink = recordingSink();
    engine = await createHookEngine({
      home: home.path,
      gatewayHooks: true,
      observerSink: sink,
      env: {},
      logger: createMemoryLogger(),
      print: () => {},
    });
    await engine.observe('post_tool_call', { tool_name: 'terminal' }, { id: 'e1', session_id: 's', turn_id: 't' });
    expect(await engine.invoke('on_session_end', { session_id: 's' })).toEqual({});
    await engine.observe('agent:step', { iteration: 1 });
    expect(seen()).toEqual([]);
    expect(sink.events).toEqual([
      {
        type: 'post_tool_call',
        payload: { tool_name: 'terminal', telemetry_schema_version: 'hermes.observer.v1' },
        id: 'e1',
        session_id: 's',
        turn_id: 't',
      },
      { type: 'on_session_end', payload: { session_id: 's', telemetry_schema_version: 'hermes.observer.v1' } },
      { type: 'agent:step', payload: { iteration: 1 } },
    ]);
    expect(await engine.invoke('pre_tool_call', {})).toEqual({ action: 'block', message: 'inline' });
    expect(seen()).toEqual(['guard']);

    // The consumer side: runObservers runs what was published.
    for (const event of sink.events) await engine.runObservers(event.type, event.payload);
    expect(seen()).toEqual(['guard', 'slow:terminal:hermes.observer.v1', 'fast:terminal', 'agent:step:1']);
  });

  it('a sink failure rejects observe, so the caller can answer 5xx upstream', async () => {
    home = await tempHome(files);
    engine = await createHookEngine({
      home: home.path,
      observerSink: recordingSink(true),
      env: {},
      logger: createMemoryLogger(),
      print: () => {},
    });
    await expect(engine.observe('post_tool_call', {})).rejects.toThrow('queue unreachable');
  });
});

describe('runObservers: shell observers run one after another (§1.3)', () => {
  it('the second starts only once the first has exited, whatever their durations', async () => {
    const log = 'agent-hooks/order.log';
    home = await tempHome({
      'agent-hooks/slow.sh':
        '#!/bin/sh\ncat >/dev/null\necho slow-start >> "$(dirname "$0")/order.log"\nsleep 0.3\necho slow-end >> "$(dirname "$0")/order.log"\n',
      'agent-hooks/fast.sh': '#!/bin/sh\ncat >/dev/null\necho fast >> "$(dirname "$0")/order.log"\n',
    });
    await chmod(`${home.path}/agent-hooks/slow.sh`, 0o755);
    await chmod(`${home.path}/agent-hooks/fast.sh`, 0o755);
    await home.write({
      'config.yaml': `hooks:\n  subagent_stop:\n    - command: ${home.path}/agent-hooks/slow.sh\n    - command: ${home.path}/agent-hooks/fast.sh\n`,
    });
    engine = await createHookEngine({
      home: home.path,
      acceptHooks: true,
      env: {},
      logger: createMemoryLogger(),
      print: () => {},
    });
    expect(engine.describeRegistry().callbacks.subagent_stop).toHaveLength(2);
    await engine.runObservers('subagent_stop', { parent_session_id: 'p' });
    expect((await readFile(`${home.path}/${log}`, 'utf8')).split('\n')).toEqual(['slow-start', 'slow-end', 'fast', '']);
  });
});
