import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killGroup } from '../../src/hooks/shell/spawn/direct-spawn.ts';
import { until } from '../support/until.ts';

/**
 * `killGroup` after the child is gone must not reach whatever process now holds its pid. The
 * pid is handed out again on purpose: as root, `/proc/sys/kernel/ns_last_pid` says which pid
 * the next process gets. Elsewhere (no root) the case is skipped.
 */

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
const canChoosePid = (() => {
  try {
    accessSync(NS_LAST_PID, constants.W_OK);
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
})();

/** A `sleep` that is not a group leader (as esbuild's service, a test worker's own child, is not). */
function sleeper(): ChildProcess {
  return spawn('sleep', ['30'], { stdio: 'ignore' });
}

describe('killGroup', () => {
  it.skipIf(!canChoosePid)('does nothing to the process that took a reaped child’s pid', async () => {
    // Another process may fork between the write and the spawn and take the pid: try again.
    for (let attempt = 0; attempt < 20; attempt++) {
      const gone = spawn('true', { detached: true, stdio: 'ignore' });
      await once(gone, 'exit');
      writeFileSync(NS_LAST_PID, String(gone.pid! - 1));
      const bystander = sleeper();
      await once(bystander, 'spawn');
      if (bystander.pid !== gone.pid) {
        bystander.kill('SIGKILL');
        continue;
      }
      killGroup(gone);
      const exited = await Promise.race([once(bystander, 'exit').then(() => true), delay(300).then(() => false)]);
      bystander.kill('SIGKILL');
      expect(exited, `the sleep now holding pid ${gone.pid} was killed`).toBe(false);
      return;
    }
    throw new Error('never got a reaped pid handed out again in 20 attempts');
  });

  it('kills a running child’s whole group, grandchildren included', async () => {
    const leader = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const [line] = (await once(leader.stdout!, 'data')) as [Buffer];
    const grandchild = Number(line.toString().trim());
    killGroup(leader);
    await once(leader, 'exit');
    await until(() => !running(grandchild), `the grandchild ${grandchild} to be killed`);
  });
});

/** Not gone and not a zombie (a killed orphan waits for whoever reaps it here). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
