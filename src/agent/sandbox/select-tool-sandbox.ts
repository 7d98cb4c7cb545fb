import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBubblewrapSandbox, sandboxUser, unsearchableAncestor } from './bubblewrap-sandbox.ts';
import { probeBubblewrap } from './probe-bubblewrap.ts';
import type { NetworkSetting, SandboxSetting } from './sandbox-settings.ts';
import type { FileBoundary } from './file-boundary.ts';
import type { ToolSandbox } from './tool-sandbox.ts';
import { createUnavailableSandbox } from './unavailable-sandbox.ts';
import { createUnsandboxed } from './unsandboxed.ts';

/** Where the tools would run: on this machine (`hookgate dev`, a self-hosted runtime), or in AWS Lambda. */
export type ToolHost = 'local' | 'lambda';

/** What the operator configured for the tools (config.yaml `terminal.*`, `files.allowed_roots`). */
export interface SandboxConfig extends FileBoundary {
  sandbox?: SandboxSetting;
  network?: NetworkSetting;
  terminalEnvPassthrough: readonly string[];
}

export interface SelectToolSandboxOptions {
  host: ToolHost;
  config: SandboxConfig;
  /** Session workspaces live under it. Default `<tmpdir>/hookgate-workspaces`. */
  workspaceRoot?: string;
  /** Besides the hooks home, this repository and the operator's home: folders to hide even inside an allowed root (the dev state folder). */
  hidden?: readonly string[];
  /**
   * The Lambda tools function's sandbox, where one is deployed (issue #24 item 4 plugs it in
   * here). Without it, Lambda refuses the tools unless `terminal.sandbox: none`.
   */
  lambda?: () => ToolSandbox;
}

/** The chosen sandbox and what start-up prints about it. */
export interface ToolSandboxChoice {
  sandbox: ToolSandbox;
  /** One line for the banner / the cold start's log: which sandbox runs the tools. */
  summary: string;
  /** A warning (`none`) or the fix (`unavailable`) to print at start-up; undefined when all is well. */
  notice?: string;
}

/** The fix every "no sandbox" message names. */
export const SANDBOX_FIX =
  'install bubblewrap (apt-get install bubblewrap) on a Linux kernel that allows unprivileged user namespaces, ' +
  'or set terminal.sandbox: none in config.yaml to run them unsandboxed (docs/security.md)';

/** The repository (or installed package) this code runs from: hidden from the sandbox even inside an allowed root. */
const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/**
 * Picks the tool sandbox (hook-semantics §5.9; docs/security.md): the composition roots' one
 * factory, given where it runs.
 * - `terminal.sandbox: none`: unsandboxed, with a warning (`notice`) to print at every start;
 * - locally, `auto` and `bwrap`: bubblewrap when a probe shows it runs here, else a sandbox that
 *   refuses every call with the fix (and the same line as `notice`);
 * - in Lambda: the tools function's sandbox (`options.lambda`), else the refusing one — a turn
 *   function never runs a chat user's command itself unless the operator said `none`.
 *
 * @example
 * const { sandbox, summary, notice } = selectToolSandbox({ host: 'local', config: toolPolicy });
 */
export function selectToolSandbox(options: SelectToolSandboxOptions): ToolSandboxChoice {
  const { config } = options;
  const setting = config.sandbox ?? 'auto';
  const network = config.network ?? 'none';
  const workspaceRoot = options.workspaceRoot ?? join(tmpdir(), 'hookgate-workspaces');
  const boundary: FileBoundary = {
    allowedRoots: config.allowedRoots,
    ...(config.hooksHome ? { hooksHome: config.hooksHome } : {}),
  };
  if (setting === 'none') {
    return {
      sandbox: createUnsandboxed({ workspaceRoot, envPassthrough: config.terminalEnvPassthrough, boundary }),
      summary: 'none (terminal.sandbox: none)',
      notice:
        "terminal.sandbox: none — the terminal and file tools run unsandboxed, as hookgate's own user: a chat user reaches " +
        'its files, processes and network (docs/security.md)',
    };
  }
  if (options.host === 'lambda') {
    if (options.lambda) {
      const sandbox = options.lambda();
      return { sandbox, summary: `${sandbox.kind} (the tools function)` };
    }
    const reason =
      'no tool sandbox is deployed with this turn function, so the terminal and file tools are off; deploy the tools function, or set terminal.sandbox: none in config.yaml to run them unsandboxed in the turn function (docs/security.md)';
    return { sandbox: createUnavailableSandbox(reason), summary: 'unavailable', notice: reason };
  }
  const probe = probeBubblewrap(network);
  if (!probe.ok) {
    const reason = `no tool sandbox can run here (${probe.reason}), so the terminal and file tools are off. Fix: ${SANDBOX_FIX}`;
    return { sandbox: createUnavailableSandbox(reason), summary: 'unavailable', notice: reason };
  }
  const sandbox = createBubblewrapSandbox({
    workspaceRoot,
    bwrap: probe.bwrap,
    envPassthrough: config.terminalEnvPassthrough,
    allowedRoots: config.allowedRoots,
    // The operator's home too (§5.9): an allowed root such as /home or /srv/users holds it, and its keys and tokens with it.
    hidden: [...(config.hooksHome ? [config.hooksHome] : []), PACKAGE_ROOT, homedir(), ...(options.hidden ?? [])],
    network,
  });
  const user = sandboxUser();
  const unreachable = user ? config.allowedRoots.filter((root) => unsearchableAncestor(root, user.uid) !== undefined) : [];
  return {
    sandbox,
    summary: `bwrap (network: ${network}; workspaces under ${workspaceRoot}, each at /workspace inside)`,
    ...(unreachable.length > 0
      ? {
          notice: `files.allowed_roots ${unreachable.join(', ')} left out of the sandbox: it runs as uid ${user!.uid} (hookgate runs as root), which cannot reach them (make each folder on the way searchable: chmod o+x)`,
        }
      : {}),
  };
}
