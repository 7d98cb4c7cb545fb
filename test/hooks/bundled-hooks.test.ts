import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineFromBundle } from '../../src/hooks/bundled-hooks.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { InvalidHooksConfigError } from '../../src/hooks/validate-hooks-home.ts';
import { enable, plugin, tempHome, type TempHome } from './support/temp-home.ts';

let home: TempHome | undefined;
afterEach(async () => {
  await home?.remove();
  home = undefined;
});

const options = (path: string) => ({ home: path, logger: createMemoryLogger(), print: () => {}, env: {} });

// Outside a Lambda bundle (no registerBundledHooks), the functions' engine reads the home from disk.
describe('createEngineFromBundle, from disk', () => {
  it('refuses a home whose config.yaml the engine would partly ignore, naming file and line', async () => {
    home = await tempHome({ 'config.yaml': 'hooks:\n  pre_tool_call: not-a-list\n' });
    const failure = await createEngineFromBundle(options(home.path)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidHooksConfigError);
    expect(String(failure)).toContain(`${join(home.path, 'config.yaml')}:2`);
  });

  it('builds an engine with no hooks for a home that does not exist (a stack deployed without one)', async () => {
    home = await tempHome({});
    const engine = await createEngineFromBundle(options(join(home.path, 'missing')));
    try {
      expect(engine.hasHook('pre_tool_call')).toBe(false);
      expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: {} })).toEqual({ action: 'allow' });
    } finally {
      await engine.close();
    }
  });

  it('loads the hooks of a valid home', async () => {
    home = await tempHome({
      'config.yaml': enable('guard'),
      ...plugin('guard', `ctx.register_hook('pre_tool_call', () => ({ action: 'block', message: 'no' }));`),
    });
    const engine = await createEngineFromBundle(options(home.path));
    try {
      expect(await engine.invoke('pre_tool_call', { tool_name: 'terminal', args: {} })).toEqual({
        action: 'block',
        message: 'no',
      });
    } finally {
      await engine.close();
    }
  });
});
