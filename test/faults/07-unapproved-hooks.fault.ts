import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultLine, size, until } from './support/fault-line.ts';
import { chatMessage, post, startFaultDev, type FaultDev } from './support/fault-dev.ts';

/**
 * Fault 7: consent. Four shell hooks on pre_llm_call, each appending to its own marker file:
 * one never approved, one approved and then changed before `hookgate dev` starts, one approved
 * and changed while it runs, and one approved and left alone (the control: it must run, or the
 * markers prove nothing). Approval goes through the real `hookgate hooks approve --yes`.
 * After turns and direct `/v1/hooks/pre_llm_call` calls, only the control's marker and the
 * changed-while-running hook's approved content have lines.
 */
const CALLS = size(6, 2);
const run = promisify(execFile);
const HOOKS = ['unapproved', 'drifted', 'drifts-live', 'control'] as const;
let fd: FaultDev;
let home = '';

const script = (marker: string) => `#!/bin/sh\ncat >/dev/null\necho ran >> "$(dirname "$0")/${marker}.marker"\nprintf '{}\\n'\n`;
const command = (name: string) => join(home, 'agent-hooks', `${name}.sh`);
const marker = async (name: string) =>
  (await readFile(join(home, 'agent-hooks', `${name}.marker`), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

beforeAll(async () => {
  fd = await startFaultDev({
    acceptHooks: false,
    executables: HOOKS.map((h) => `agent-hooks/${h}.sh`),
    files: (path) => {
      home = path;
      return {
        'config.yaml': [
          'hooks:',
          '  pre_llm_call:',
          ...HOOKS.map((h) => `    - command: ${JSON.stringify(command(h))}`),
          '',
        ].join('\n'),
        ...Object.fromEntries(HOOKS.map((h) => [`agent-hooks/${h}.sh`, script(h)])),
      };
    },
    beforeStart: async (path) => {
      const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_HOME: path };
      delete env.HOOKGATE_ACCEPT_HOOKS;
      for (const h of ['drifted', 'drifts-live', 'control']) {
        await run(process.execPath, ['bin/hookgate.js', 'hooks', 'approve', 'pre_llm_call', command(h), '--yes'], { env });
      }
      // Changed after approval: same marker name, different content (sha256).
      await writeFile(command('drifted'), `${script('drifted')}# changed after approval\n`);
    },
  });
}, 120_000);
afterAll(async () => {
  await fd?.stop();
});

async function callHooks(label: string): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const message = chatMessage(fd, 'local', `consent-${label}-${i}`, i, `consent ${label} ${i}`);
    expect(await post(fd, message)).toBe(202);
    await until(message.replies, (r) => r.length === 1);
    const res = await fetch(`${fd.dev.url}/v1/hooks/pre_llm_call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fd.dev.apiToken}` },
      body: JSON.stringify({
        session_id: `v1-${label}-${i}`,
        user_message: 'x',
        conversation_history: [],
        is_first_turn: true,
        model: 'm',
        platform: 'cli',
      }),
    });
    expect(res.status).toBe(200);
  }
}

describe('fault 7: unapproved and drifted shell hooks', () => {
  it('never execute (marker files), while an approved one does', async (ctx) => {
    await callHooks('before');
    const liveBefore = await marker('drifts-live');
    // Now change the approved, running hook's script.
    await writeFile(command('drifts-live'), `${script('drifts-live-changed')}# changed while running\n`);
    await callHooks('after');
    const counts = Object.fromEntries(
      await Promise.all([...HOOKS, 'drifts-live-changed'].map(async (h) => [h, await marker(h)] as const)),
    );
    const calls = CALLS * 2 * 2;
    faultLine(
      ctx,
      `fault 7 unapproved-hooks: ${calls} hook calls (${CALLS * 2} turns + ${CALLS * 2} /v1 calls); runs: unapproved ${counts.unapproved}, drifted before start ${counts.drifted}, drifted while running ${counts['drifts-live-changed']} (approved content ran ${liveBefore} before the change), approved control ${counts.control}`,
    );
    expect(counts.control).toBe(calls);
    expect(liveBefore).toBe(calls / 2);
    expect({ unapproved: counts.unapproved, drifted: counts.drifted, driftsLive: counts['drifts-live-changed'] }).toEqual({
      unapproved: 0,
      drifted: 0,
      driftsLive: 0,
    });
  });
});
