import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffoldCommand } from '../../src/cli/hooks-home-scaffold.ts';

const BIN = fileURLToPath(new URL('../../bin/hookgate.js', import.meta.url));

function init(home: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', HOOKGATE_LOG_LEVEL: 'warn' };
  const run = spawnSync(process.execPath, [BIN, 'init', home], { env, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

// The usual first `hookgate init` of a Hermes user is on a ~/.hermes that already has a config.yaml:
// init keeps it, so the plugin and the shell hook it writes are off until config.yaml names them.
describe('hookgate init on a home whose config.yaml exists', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'hookgate-init-existing-'));
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('leaves config.yaml as it is and says what to add to it for the plugin and the shell hook', async () => {
    const home = join(parent, 'hermes');
    const config = 'model:\n  default: gpt-4o\nplugins:\n  enabled:\n    - other\n';
    await mkdir(home);
    await writeFile(join(home, 'config.yaml'), config);

    const out = init(home);
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(config);
    expect(out).toContain('skipped config.yaml (exists; left as it is)');
    expect(out).toContain('config.yaml was there already, so what init wrote does not run until you add to it:');
    expect(out).toContain('  the plugin: hello under plugins.enabled');
    expect(out).toContain(`      command: ${JSON.stringify(scaffoldCommand(home))}`);
  }, 60_000);

  it('says nothing of the kind when config.yaml already has both (init run a second time)', () => {
    const home = join(parent, 'fresh');
    expect(init(home)).not.toContain('config.yaml was there already');
    const again = init(home);
    expect(again).toContain('skipped config.yaml (exists; left as it is)');
    expect(again).not.toContain('config.yaml was there already');
  }, 60_000);
});
