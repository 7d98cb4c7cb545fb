import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, expect, it } from 'vitest';
import { installDevCommand } from '../../src/cli/commands/dev.ts';

const root = mkdtempSync(join(tmpdir(), 'hookgate-dev-accept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Runs `hookgate dev` in-process with the given flags; the engine factory records what the
 * environment says when the gateway's engine is built, then stops the start-up there.
 */
async function acceptVariableSeenByEngine(acceptHooks: boolean): Promise<string | undefined> {
  const saved = { accept: process.env.HOOKGATE_ACCEPT_HOOKS, home: process.env.HOOKGATE_HOME, exitCode: process.exitCode };
  delete process.env.HOOKGATE_ACCEPT_HOOKS;
  let seen: string | undefined = 'engine never built';
  const program = new Command('hookgate').exitOverride();
  installDevCommand(
    program,
    { acceptHooks },
    {
      createEngine: async () => {
        seen = process.env.HOOKGATE_ACCEPT_HOOKS;
        throw new Error('stopping the start-up here');
      },
      createTurnConsumer: () => {
        throw new Error('not reached');
      },
    },
  );
  const home = mkdtempSync(join(root, 'home-'));
  const state = mkdtempSync(join(root, 'state-'));
  try {
    await program.parseAsync(['dev', '--home', home, '--port', '0', '--state', state, '--no-watch'], { from: 'user' });
  } finally {
    for (const [name, value] of [
      ['HOOKGATE_ACCEPT_HOOKS', saved.accept],
      ['HOOKGATE_HOME', saved.home],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    process.exitCode = saved.exitCode;
  }
  return seen;
}

// hook-semantics §3.4: "A gateway launched with --accept-hooks conveys the flag by setting
// HOOKGATE_ACCEPT_HOOKS=1 in its environment" — so whatever it starts (shell hooks, plugins'
// children) sees the consent bypass the operator gave, as under Hermes.
it('hookgate dev --accept-hooks sets HOOKGATE_ACCEPT_HOOKS=1 in its environment; without the flag it does not', {
  timeout: 120_000,
}, async () => {
  expect(await acceptVariableSeenByEngine(true)).toBe('1');
  expect(await acceptVariableSeenByEngine(false)).toBeUndefined();
});
