import { join } from 'node:path';
import type { LoadedHookEngine, RegistryListing } from '../hooks/create-hook-engine.ts';
import { discoverHooksHome } from '../hooks/discover-hooks-home.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { errorText } from '../errors/error-text.ts';
import { findHooksConfigProblems, formatProblem } from '../hooks/validate-hooks-home.ts';
import { redactSecrets } from '../secrets/redact-secrets.ts';
import type { EngineHolder } from './engine-holder.ts';
import type { HeldEngineOutput } from './held-engine-output.ts';

/** What an engine has loaded, by name, as the reload lines and the console show it. */
export interface LoadedHooks {
  readonly plugins: readonly string[];
  readonly gatewayHooks: readonly string[];
  /** `shell_hook[<event>:<command>]` callbacks. */
  readonly shellHooks: readonly string[];
  /** Plugin slash commands. */
  readonly commands: readonly string[];
}

/** One reload attempt, as announced in the log and on the console. */
export interface ReloadOutcome {
  readonly ok: boolean;
  /** ISO time the attempt ended. */
  readonly at: string;
  /** The files that set it off, relative to the home (`plugins/x/` for a removed folder). */
  readonly changed: readonly string[];
  /** The whole announcement, one line: `hooks reloaded (…): …` / `reload failed, still running the previous hooks: …`. */
  readonly message: string;
  /** Why it failed: `file: reason`, one per problem. Empty when ok. */
  readonly problems: readonly string[];
  /** What runs now: the new engine's hooks when ok, else the previous engine's (when it can tell). */
  readonly loaded?: LoadedHooks;
}

export interface HooksReloaderOptions {
  home: string;
  holder: EngineHolder;
  /** Builds a complete engine from the home as it is now, its output held in `output`. */
  build: (output: HeldEngineOutput) => Promise<HookEngine>;
  /** The held output for one build (one per attempt). */
  output: () => HeldEngineOutput;
  /**
   * Builds what else depends on a new engine (the turn consumer); a throw fails the reload.
   * Runs before the swap.
   */
  prepare?: (engine: HookEngine) => Promise<unknown>;
  /** `--allow-invalid-config`: a config.yaml, plugin.yaml or HOOK.yaml problem is a warning, not a failure. */
  allowInvalidConfig?: boolean;
  /** Where the one announcement line per attempt goes. */
  announce: (line: string) => void;
}

const MAX_REASON = 600;

/**
 * `hookgate dev`'s hot reload, minus the watching: {@link reload} builds a complete new engine
 * from the hooks home (discovery anew, every entry module imported afresh), checks it, and
 * swaps it into the {@link EngineHolder} the gateway and the consumers use. A build that is
 * not sound — config.yaml, a plugin.yaml or a HOOK.yaml invalid; a plugin that does not
 * import or whose `register()` throws; a gateway hook whose handler does not load — is
 * dropped and the previous engine goes on running, and the announcement names the file and
 * the error. Attempts run one at a time; changes reported during one are reloaded after it.
 *
 * @example
 * const reloader = new HooksReloader({ home, holder, build, output, announce: print });
 * const outcome = await reloader.reload(['plugins/audit/index.ts']);
 */
export class HooksReloader {
  #last: ReloadOutcome | undefined;
  #running: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(outcome: ReloadOutcome) => void>();

  constructor(private readonly options: HooksReloaderOptions) {}

  /** The latest attempt's outcome. */
  get last(): ReloadOutcome | undefined {
    return this.#last;
  }

  /** Told each outcome; returns the unsubscribe function. A listener that throws is ignored. */
  onOutcome(listener: (outcome: ReloadOutcome) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The next outcome that satisfies `accept` (any outcome by default): what a test waits for
   * instead of sleeping.
   */
  next(accept: (outcome: ReloadOutcome) => boolean = () => true): Promise<ReloadOutcome> {
    return new Promise((resolve) => {
      const off = this.onOutcome((outcome) => {
        if (!accept(outcome)) return;
        off();
        resolve(outcome);
      });
    });
  }

  /** One reload attempt after `changed` changed, queued behind the one running. */
  reload(changed: readonly string[]): Promise<ReloadOutcome> {
    const attempt = this.#running.then(() => this.#attempt(changed));
    this.#running = attempt.catch(() => {});
    return attempt;
  }

  async #attempt(changed: readonly string[]): Promise<ReloadOutcome> {
    const previous = loadedHooks(this.options.holder.current);
    let outcome: ReloadOutcome;
    try {
      outcome = await this.#build(changed, previous);
    } catch (error) {
      outcome = failed(changed, previous, [`${this.options.home}: ${errorText(error)}`]);
    }
    this.#last = outcome;
    this.options.announce(`hookgate dev: ${outcome.message}`);
    for (const listener of this.#listeners) {
      try {
        listener(outcome);
      } catch {
        // A listener's failure is its own; the reload happened.
      }
    }
    return outcome;
  }

  async #build(changed: readonly string[], previous: LoadedHooks | undefined): Promise<ReloadOutcome> {
    const { home } = this.options;
    // Checked before any module is imported: an invalid file is not half-loaded.
    const configProblems = (await findHooksConfigProblems(home)).map(formatProblem);
    if (configProblems.length > 0 && !this.options.allowInvalidConfig) return failed(changed, previous, configProblems);

    const output = this.options.output();
    const engine = await this.options.build(output);
    const problems = await loadProblems(home, engine, output).catch((error: unknown) => [`${home}: ${errorText(error)}`]);
    if (problems.length === 0) {
      try {
        await this.options.prepare?.(engine);
      } catch (error) {
        problems.push(`${home}: ${errorText(error)}`);
      }
    }
    if (problems.length > 0) {
      output.discard();
      await engine.close().catch(() => {});
      return failed(changed, previous, problems);
    }
    output.release();
    this.options.holder.swap(engine);
    const loaded = loadedHooks(engine);
    const ignored =
      configProblems.length > 0 ? `; ignored as --allow-invalid-config asks: ${configProblems.map(oneLine).join('; ')}` : '';
    return {
      ok: true,
      at: new Date().toISOString(),
      changed,
      message: `hooks reloaded (${changedText(changed)}): ${describeLoaded(loaded)}${describeDifference(previous, loaded)}${ignored}`,
      problems: [],
      ...(loaded ? { loaded } : {}),
    };
  }
}

function failed(changed: readonly string[], previous: LoadedHooks | undefined, problems: readonly string[]): ReloadOutcome {
  const reasons = problems.map(oneLine);
  return {
    ok: false,
    at: new Date().toISOString(),
    changed,
    message: `reload failed, still running the previous hooks: ${reasons.join('; ')}`,
    problems: reasons,
    ...(previous ? { loaded: previous } : {}),
  };
}

/** One line, secrets redacted, not endless (an esbuild error spans lines). */
function oneLine(text: string): string {
  const flat = redactSecrets(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON)}…` : flat;
}

function changedText(changed: readonly string[]): string {
  if (changed.length === 0) return 'files changed';
  const shown = changed.slice(0, 5).join(', ');
  return `${shown}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''} changed`;
}

function registryOf(engine: HookEngine): RegistryListing | undefined {
  const describe = (engine as Partial<LoadedHookEngine>).describeRegistry;
  return typeof describe === 'function' ? describe.call(engine) : undefined;
}

/** What an engine loaded, when it can say (the engine `createHookEngine` builds can). */
function loadedHooks(engine: HookEngine): LoadedHooks | undefined {
  const registry = registryOf(engine);
  if (!registry) return undefined;
  const shell = new Set<string>();
  for (const callbacks of Object.values(registry.callbacks))
    for (const cb of callbacks) if (cb.startsWith('shell:')) shell.add(cb.slice('shell:'.length));
  return {
    plugins: registry.plugins.filter((p) => p.status === 'loaded').map((p) => p.name),
    gatewayHooks: registry.gatewayHooks.map((g) => g.name),
    shellHooks: [...shell].sort(),
    commands: registry.commands.map((c) => c.name),
  };
}

/**
 * Why a built engine is not sound: plugins that failed to import or register (the engine
 * marks them), gateway hooks that discovery found but whose handler did not load (the
 * engine printed why, held in `output`).
 */
async function loadProblems(home: string, engine: HookEngine, output: HeldEngineOutput): Promise<string[]> {
  const registry = registryOf(engine);
  if (!registry) return [];
  const problems: string[] = [];
  const description = await discoverHooksHome(home, { gatewayHooks: true });
  for (const plugin of registry.plugins) {
    if (plugin.status !== 'failed') continue;
    const entry = description.plugins.find((p) => p.dir === plugin.dir)?.entry ?? `plugins/${plugin.dir}`;
    problems.push(`${join(home, entry)}: plugin ${plugin.name} failed to load: ${plugin.error ?? 'unknown error'}`);
  }
  const loaded = new Set(registry.gatewayHooks.map((g) => g.name));
  for (const hook of description.gatewayHooks) {
    if (hook.kind !== 'hook' || loaded.has(hook.name)) continue;
    const said = output.lines.find(
      (line) =>
        line.message.startsWith(`[hooks] Error loading hook ${hook.dir}:`) ||
        line.message.startsWith(`[hooks] Skipping ${hook.name}:`),
    );
    problems.push(
      `${join(home, hook.handler)}: ${said?.message.replace(/^\[hooks\] /, '') ?? `gateway hook ${hook.name} did not load`}`,
    );
  }
  return problems;
}

function listed(names: readonly string[], one: string, many: string): string {
  return `${names.length} ${names.length === 1 ? one : many}${names.length > 0 ? ` (${names.join(', ')})` : ''}`;
}

function describeLoaded(loaded: LoadedHooks | undefined): string {
  if (!loaded) return 'new engine in place';
  return [
    listed(loaded.plugins, 'plugin', 'plugins'),
    listed(loaded.gatewayHooks, 'gateway hook', 'gateway hooks'),
    listed(loaded.shellHooks, 'shell hook', 'shell hooks'),
    ...(loaded.commands.length > 0
      ? [
          listed(
            loaded.commands.map((c) => `/${c}`),
            'command',
            'commands',
          ),
        ]
      : []),
  ].join(', ');
}

/** `; added: …; removed: …` against what ran before, or nothing. */
function describeDifference(before: LoadedHooks | undefined, after: LoadedHooks | undefined): string {
  if (!before || !after) return '';
  const added: string[] = [];
  const removed: string[] = [];
  const compare = (kind: string, was: readonly string[], now: readonly string[]) => {
    for (const name of now) if (!was.includes(name)) added.push(`${kind} ${name}`);
    for (const name of was) if (!now.includes(name)) removed.push(`${kind} ${name}`);
  };
  compare('plugin', before.plugins, after.plugins);
  compare('gateway hook', before.gatewayHooks, after.gatewayHooks);
  compare('shell hook', before.shellHooks, after.shellHooks);
  compare(
    'command',
    before.commands.map((c) => `/${c}`),
    after.commands.map((c) => `/${c}`),
  );
  return `${added.length > 0 ? `; added: ${added.join(', ')}` : ''}${removed.length > 0 ? `; removed: ${removed.join(', ')}` : ''}`;
}
