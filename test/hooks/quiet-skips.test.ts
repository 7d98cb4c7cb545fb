import { expect, it } from 'vitest';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { tempHome } from './support/temp-home.ts';

it('an un-allowlisted shell hook is a warning per load, unless the caller shows it itself (dev: skippedShellHooksShown)', async () => {
  const home = await tempHome({ 'config.yaml': 'hooks:\n  pre_tool_call:\n    - command: /bin/true\n' });
  try {
    const env = { ...process.env, HOOKGATE_ACCEPT_HOOKS: '', HERMES_ACCEPT_HOOKS: '' };
    const loud = createMemoryLogger();
    await (await createHookEngine({ home: home.path, logger: loud, env, print: () => {} })).close();
    expect(loud.lines.filter((l) => l.message.startsWith('shell hook not allowlisted'))).toHaveLength(1);
    const quiet = createMemoryLogger();
    const engine = await createHookEngine({ home: home.path, logger: quiet, env, print: () => {}, skippedShellHooksShown: true });
    expect(engine.describeRegistry().callbacks).toEqual({});
    await engine.close();
    expect(quiet.lines.filter((l) => l.message.startsWith('shell hook not allowlisted'))).toEqual([]);
  } finally {
    await home.remove();
  }
});
