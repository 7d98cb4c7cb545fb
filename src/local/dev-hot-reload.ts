import type { HooksStatus } from '../console/console-data.ts';
import { NOT_RUNNING_TEXT } from '../hooks/shell/consent/shell-hook-run-state.ts';
import { Readable } from 'node:stream';
import type { ConsoleHub } from '../console/console-hub.ts';
import type { CreateHookEngineOptions } from '../hooks/create-hook-engine.ts';
import type { HookEngine, HookEngineOptions } from '../hooks/hook-engine.ts';
import { createStderrLogger } from '../hooks/hook-logger.ts';
import type { ConsentIO } from '../hooks/shell/consent/consent.ts';
import type { EngineHolder } from './engine-holder.ts';
import { devEnginePrinter } from './dev-engine-printer.ts';
import { HeldEngineOutput } from './held-engine-output.ts';
import { startHotReload, type HotReload } from './hot-reload.ts';
import { errorText } from '../errors/error-text.ts';

/** What `hookgate dev` builds its engines with: the engine options plus where their output goes. */
type DevEngineOptions = HookEngineOptions & Pick<CreateHookEngineOptions, 'print' | 'consentIO'>;

/**
 * No consent prompt during a reload: it would stop the reload until someone answers at the
 * terminal. An un-allowlisted shell hook is skipped with its warning; approving it (the
 * console, `hookgate hooks approve`) changes the allowlist, which reloads.
 */
const NO_PROMPT: ConsentIO = { input: Readable.from([]), output: process.stdout };

/**
 * Hot reload as `hookgate dev` wires it: engines built with the options of the first one
 * (output held until the engine is used, no consent prompt), the turn consumer prepared for
 * each new engine, and every outcome printed and sent to the console.
 *
 * @example
 * const hotReload = await startDevHotReload({ home, holder, engineOptions, createEngine, baseline, print, hub });
 */
export async function startDevHotReload(parts: {
  home: string;
  holder: EngineHolder;
  engineOptions: HookEngineOptions;
  createEngine: (options: DevEngineOptions) => Promise<HookEngine> | HookEngine;
  /** `hooksHomeDigest(home)` taken before the first engine was built. */
  baseline: string;
  prepare?: (engine: HookEngine) => Promise<unknown>;
  allowInvalidConfig?: boolean;
  /** Never watched (the state folder, when it is inside the home). */
  ignore?: readonly string[];
  print: (line: string) => void;
  hub?: ConsoleHub;
  /** The hooks as they stand (the console's hooks panel): a reload that turns a guard off (or on) prints it. */
  hooksStatus?: () => Promise<Pick<HooksStatus, 'shell_hooks' | 'plugins'>>;
  /**
   * The banner's Discord answer-window warning for an engine (`discordAnswerWindowWarning`): a
   * reload that changes which hooks run before Discord's answer prints it again.
   */
  discordWindow?: (engine: HookEngine) => string | undefined;
}): Promise<HotReload> {
  let guards = parts.hooksStatus ? await parts.hooksStatus().catch(() => undefined) : undefined;
  const hotReload = await startHotReload({
    home: parts.home,
    holder: parts.holder,
    baseline: parts.baseline,
    // As the first engine's: the stderr logger, `[hooks] ` lines on stdout (no Loaded lines); held per build.
    output: () => new HeldEngineOutput({ logger: createStderrLogger(), print: devEnginePrinter({ reload: true }) }),
    build: async (output) =>
      parts.createEngine({ ...parts.engineOptions, logger: output.logger, print: output.print, consentIO: NO_PROMPT }),
    ...(parts.prepare ? { prepare: parts.prepare } : {}),
    ...(parts.allowInvalidConfig ? { allowInvalidConfig: true } : {}),
    ...(parts.ignore ? { ignore: parts.ignore } : {}),
    announce: parts.print,
    onWatchError: (error) => parts.print(`hookgate dev: watching ${parts.home}: ${errorText(error)}`),
  });
  const { hub } = parts;
  if (hub) hotReload.onOutcome(({ ok, message, at }) => hub.publish({ kind: 'reload', ok, message, at }));
  const { discordWindow } = parts;
  if (discordWindow) {
    let warned = discordWindow(parts.holder.current);
    hotReload.onOutcome(({ ok }) => {
      if (!ok) return;
      const now = discordWindow(parts.holder.current);
      if (now !== undefined && now !== warned) parts.print(`hookgate dev: ${now}`);
      warned = now;
    });
  }
  const { hooksStatus } = parts;
  if (hooksStatus) {
    hotReload.onOutcome(({ ok }) => {
      if (!ok) return;
      void hooksStatus().then(
        (now) => {
          for (const line of guardChanges(guards ?? { shell_hooks: [], plugins: [] }, now)) {
            parts.print(line);
            // The console shows these in a banner of their own (not as the reload's outcome).
            hub?.publish({
              kind: 'reload',
              ok: line.includes('guard on'),
              message: line.replace(/^hookgate dev: /, ''),
              at: new Date().toISOString(),
            });
          }
          guards = now;
        },
        () => {},
      );
    });
  }
  return hotReload;
}

/**
 * The lines a reload prints for guards that stopped (or started) running: shell hooks (an
 * edit after approval turns one off, hook-semantics §5.5) and enabled plugins whose load
 * failed (or loads again). A guard that went off must not go unnoticed.
 *
 * @example
 * guardChanges(before, after); // ['hookgate dev: ✗ guard off: [pre_tool_call] ./block.sh does not run now: script changed since approval …']
 */
export function guardChanges(
  before: Pick<HooksStatus, 'shell_hooks' | 'plugins'>,
  now: Pick<HooksStatus, 'shell_hooks' | 'plugins'>,
): string[] {
  const key = (h: HooksStatus['shell_hooks'][number]) => `${h.event}\u0000${h.command}`;
  const was = new Map(before.shell_hooks.map((h) => [key(h), h]));
  const lines: string[] = [];
  for (const h of now.shell_hooks) {
    const earlier = was.get(key(h));
    const why = h.not_running ? NOT_RUNNING_TEXT[h.not_running] : undefined;
    if (!h.running && why && earlier === undefined) {
      // Added since the last load and not running yet (usually not approved): not a guard that went off.
      lines.push(`hookgate dev: ✗ new hook not running: [${h.event}] ${h.command} does not run yet: ${why}`);
    } else if (!h.running && why && earlier?.running) {
      lines.push(`hookgate dev: ✗ guard off: [${h.event}] ${h.command} does not run now: ${why}`);
    } else if (h.running && earlier !== undefined && !earlier.running) {
      lines.push(`hookgate dev: ✓ guard on: [${h.event}] ${h.command} runs now`);
    }
  }
  const plugin = new Map(before.plugins.map((p) => [p.name, p]));
  const runs = (p: HooksStatus['plugins'][number] | undefined) => p?.enabled === true && p.failed === null;
  for (const p of now.plugins) {
    const earlier = plugin.get(p.name);
    if (p.failed !== null && (earlier === undefined || earlier.failed === null)) {
      lines.push(`hookgate dev: ✗ guard off: plugin ${p.name} does not run now: failed to load: ${p.failed}`);
    } else if (!p.enabled && runs(earlier)) {
      lines.push(`hookgate dev: ✗ guard off: plugin ${p.name} does not run now: not enabled in config.yaml`);
    } else if (runs(p) && earlier !== undefined && !runs(earlier)) {
      lines.push(`hookgate dev: ✓ guard on: plugin ${p.name} runs now`);
    }
  }
  for (const p of before.plugins) {
    if (runs(p) && !now.plugins.some((q) => q.name === p.name))
      lines.push(`hookgate dev: ✗ guard off: plugin ${p.name} does not run now: its folder is gone`);
  }
  return lines;
}
