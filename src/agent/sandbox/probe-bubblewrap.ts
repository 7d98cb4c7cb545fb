import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapArgs } from './bubblewrap-args.ts';
import { findBubblewrap, hostSystemEntries, sandboxUser, supportsSizedTmpfs } from './bubblewrap-sandbox.ts';
import { sandboxSeccompFilter } from './seccomp-filter.ts';

/** Whether bubblewrap can run here: `ok`, or why not (shown with the fix). */
export type BubblewrapProbe = { ok: true; bwrap: string } | { ok: false; reason: string };

const probes = new Map<string, BubblewrapProbe>();

/**
 * Runs `/bin/true` in the same sandbox a tool call gets (with `network`), once per process and
 * network mode: the answer is cached. Synchronous (≈ 0.1–0.4 s once), so the composition roots
 * stay synchronous.
 *
 * @example
 * const probe = probeBubblewrap('none'); // { ok: true, bwrap: '/usr/bin/bwrap' } on a Linux host with bubblewrap
 */
export function probeBubblewrap(network: 'none' | 'host'): BubblewrapProbe {
  const cached = probes.get(network);
  if (cached) return cached;
  const probe = runProbe(network);
  probes.set(network, probe);
  return probe;
}

function runProbe(network: 'none' | 'host'): BubblewrapProbe {
  if (process.platform !== 'linux') return { ok: false, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const bwrap = findBubblewrap();
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
  const user = sandboxUser();
  const workspace = mkdtempSync(join(tmpdir(), 'hookgate-sandbox-probe-'));
  try {
    if (user) chownSync(workspace, user.uid, user.gid);
    const seccomp = sandboxSeccompFilter();
    const args = bubblewrapArgs(
      {
        workspace,
        network,
        system: hostSystemEntries(),
        readOnlyRoots: [],
        hidden: [],
        generatedEtc: [],
        // The filter on stdin: spawnSync writes no other descriptor.
        ...(seccomp ? { seccompFd: 0 } : {}),
        statusFd: 1,
        // The arguments a call gets, sized tmpfs and descriptor closer included: a probe that passes means calls start.
        ...(supportsSizedTmpfs(bwrap) ? { tmpfsLimits: true } : {}),
      },
      ['/bin/true'],
    );
    const run = spawnSync(bwrap, args, {
      env: { PATH: '/usr/bin:/bin' },
      timeout: 15_000,
      encoding: 'utf8',
      ...(seccomp ? { input: seccomp } : {}),
      ...(user ?? {}),
    });
    if (run.status === 0) return { ok: true, bwrap };
    const why = (run.stderr || run.error?.message || `exit ${run.status ?? run.signal}`).trim().split('\n')[0];
    return { ok: false, reason: `bwrap cannot start a sandbox here: ${why}` };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
