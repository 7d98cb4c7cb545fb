import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import type { HookRunRecord } from '../../src/hooks/hook-engine.ts';
import { readCallbackTimeoutSeconds } from '../../src/hooks/plugins/callback-timeout.ts';
import { plugin } from './support/temp-home.ts';
import { tempEngines } from './support/temp-engine.ts';
import { until } from '../support/until.ts';

// hook-semantics §5.8: every in-process callback has a deadline (plugins.callback_timeout).
const loadEngine = tempEngines({ gatewayHooks: true });

async function load(files: Record<string, string>) {
  const runs: HookRunRecord[] = [];
  const { engine, logger, lines } = await loadEngine(files, { onRun: (r) => runs.push(r) });
  return { engine, logger, lines, runs };
}

const config = (timeout: unknown, ...plugins: string[]) =>
  `plugins:\n  enabled: [${plugins.join(', ')}]\n  callback_timeout: ${JSON.stringify(timeout)}\n`;

describe('callback deadlines (§5.8)', () => {
  it('a plugin callback that never settles counts as failed: warning (plugin, hook, elapsed), no value, the next callback decides', async () => {
    const { engine, logger, runs } = await load({
      'config.yaml': config(0.2, 'hang', 'later', 'guard'),
      ...plugin('hang', `ctx.register_hook('pre_tool_call', function neverSettles() { return new Promise(() => {}); });`),
      // Settles after its deadline with a block: ignored.
      ...plugin(
        'later',
        `ctx.register_hook('pre_tool_call', function tooLate() { return new Promise((r) => setTimeout(() => { (globalThis as any).__tooLateSettled = true; r({ action: 'block', message: 'late' }); }, 1500)); });`,
      ),
      ...plugin(
        'guard',
        `ctx.register_hook('pre_tool_call', function guard() { return Promise.resolve({ action: 'block', message: 'on time' }); });`,
      ),
    });
    expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: {} })).toEqual({
      action: 'block',
      message: 'on time',
    });
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^hook pre_tool_call: callback neverSettles of plugin hang did not settle within 0\.2s \(gave up after [\d.]+s\); counted as failed/,
    );
    expect(warnings[1]).toContain('callback tooLate of plugin later did not settle within 0.2s');
    // The trace shows the missed deadline.
    expect(runs.filter((r) => r.error).map((r) => [r.callback, r.error?.startsWith('did not settle within 0.2s')])).toEqual([
      ['neverSettles', true],
      ['tooLate', true],
    ]);
    // The late result arrives and changes nothing.
    await until(() => (globalThis as { __tooLateSettled?: boolean }).__tooLateSettled, 'the late callback to settle');
    expect(runs.filter((r) => r.callback === 'tooLate')).toHaveLength(1);
  });

  it('observer callbacks and gateway event handlers have the deadline too', async () => {
    const { engine, logger, lines } = await load({
      'config.yaml': config(0.2, 'hang'),
      ...plugin('hang', `ctx.register_hook('on_session_end', function stuckObserver() { return new Promise(() => {}); });`),
      'hooks/stuck/HOOK.yaml': 'name: stuck\nevents: [agent:end]\n',
      'hooks/stuck/handler.ts': 'export function handle() { return new Promise(() => {}); }\n',
      'hooks/next/HOOK.yaml': 'name: next\nevents: [agent:end]\n',
      'hooks/next/handler.ts': "export function handle(_e: string, context: any) { context.seen = 'next ran'; return 'next'; }\n",
    });
    await engine.runObservers('on_session_end', { session_id: 's' });
    expect(
      logger.lines.some(
        (l) => l.level === 'warn' && l.message.includes('callback stuckObserver of plugin hang did not settle within 0.2s'),
      ),
    ).toBe(true);
    expect(await engine.emitCollect('agent:end', {})).toEqual(['next']);
    expect(
      logger.lines.some(
        (l) => l.level === 'warn' && /gateway hook stuck for 'agent:end' did not settle within 0\.2s/.test(l.message),
      ),
    ).toBe(true);
    expect(lines.filter((l) => l.includes('Error in handler'))).toEqual([]);
  });

  it('defaults to 30 s; a bad value is reported and the default used', async () => {
    const { logger } = await load({ 'config.yaml': config('soon') });
    expect(
      logger.lines.some(
        (l) =>
          l.level === 'warn' &&
          l.message.includes('plugins.callback_timeout must be a positive number of seconds (got "soon"); using 30'),
      ),
    ).toBe(true);
  });

  it('takes a positive finite number of seconds; infinity (YAML .inf), NaN, zero, negatives and strings fall back to 30', () => {
    const read = (value: unknown) => {
      const logger = createMemoryLogger();
      return {
        seconds: readCallbackTimeoutSeconds({ plugins: { callback_timeout: value } }, logger),
        warned: logger.lines.length,
      };
    };
    expect(read(0.5)).toEqual({ seconds: 0.5, warned: 0 });
    expect(read(120)).toEqual({ seconds: 120, warned: 0 });
    expect(read(null)).toEqual({ seconds: 30, warned: 0 });
    for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, 0, -1, '5', true])
      expect(read(bad), String(bad)).toEqual({ seconds: 30, warned: 1 });
  });
});
