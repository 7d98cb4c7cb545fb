import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine, type LoadedHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { tempHome, type TempHome } from './support/temp-home.ts';

// The engine loads the shell-hook machinery only for a config that mentions shell hooks
// (src/hooks/create-hook-engine.ts); what a config says about them is still read and warned about.
let home: TempHome | undefined;
let engine: LoadedHookEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await home?.remove();
  home = undefined;
  engine = undefined;
});

async function load(config: string) {
  home = await tempHome({ 'config.yaml': config, 'hooks/ok.sh': '#!/bin/sh\necho "{}"\n' });
  const logger = createMemoryLogger();
  engine = await createHookEngine({ home: home.path, logger, env: {}, acceptHooks: true, print: () => {} });
  const warnings = () => logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
  return { engine, warnings, home };
}

describe('shell hooks are registered on demand', () => {
  it('a hooks_* setting alone still runs registration: its bad value is warned about', async () => {
    const { warnings } = await load('hooks_on_drift: sometimes\n');
    expect(warnings()).toEqual([expect.stringContaining('hooks_on_drift must be "block" or "warn"')]);
  });

  it('a hooks: section registers its entries and warns about an unknown event', async () => {
    const { engine, warnings } = await load(
      'hooks:\n  on_session_end:\n    - {command: $HOOKGATE_HOME/hooks/ok.sh}\n  on_sesion_end: []\n',
    );
    expect(engine.describeRegistry().callbacks.on_session_end).toEqual([
      expect.stringMatching(/^shell:shell_hook\[on_session_end:/),
    ]);
    expect(warnings()).toEqual([expect.stringContaining("unknown shell hook event 'on_sesion_end'")]);
  });

  it('a config without shell hooks registers none, and a forced re-discovery picks up a hooks: section added since', async () => {
    const { engine, warnings, home } = await load('plugins:\n  enabled: []\n');
    expect(engine.describeRegistry().callbacks).toEqual({});
    await writeFile(join(home.path, 'config.yaml'), 'hooks:\n  on_session_end:\n    - {command: $HOOKGATE_HOME/hooks/ok.sh}\n');
    await engine.discoverPlugins({ force: true });
    expect(Object.keys(engine.describeRegistry().callbacks)).toEqual(['on_session_end']);
    expect(warnings()).toEqual([]);
  });
});
