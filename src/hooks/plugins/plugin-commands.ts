import { errorText } from '../../errors/error-text.ts';
import { runAsHookCode } from '../hook-code.ts';
import type { HookLogger } from '../hook-logger.ts';

/**
 * The gateway's built-in command names and aliases (src/gateway/commands/slash-command.ts
 * holds their behaviour; a test keeps the two lists equal). A plugin cannot take them.
 */
export const RESERVED_COMMAND_NAMES: readonly string[] = [
  'new',
  'reset',
  'clear',
  'stop',
  'status',
  'help',
  'approve',
  'deny',
  'tools',
  'model',
];

/** What a slash command can be called: what the gateway's parser recognises after the `/`. */
const COMMAND_NAME = /^[A-Za-z0-9_-]+$/;

/** One hook call of a turn, as `hookgate trace` shows it (the trace store's record). */
export interface CommandTraceRecord {
  readonly turn_id: string;
  /** ISO-8601 time the call started. */
  readonly at: string;
  readonly hook: string;
  readonly source: string;
  readonly callback: string;
  readonly decision: string;
  readonly duration_ms: number;
}

/**
 * The second argument of a command handler: who asked, in which conversation, and the hook
 * traces of that conversation's current session. Hermes handlers take only the argument
 * text and may ignore it.
 */
export interface PluginCommandContext {
  /** The canonical command name (lower case, no `/`). */
  readonly command: string;
  /** The name as typed. */
  readonly raw_command: string;
  readonly platform: string;
  readonly user_id: string | null;
  readonly chat_id: string;
  /** The conversation (platform + chat + thread). */
  readonly session_key: string;
  /** The conversation's current session, `null` before its first turn. */
  readonly session_id: string | null;
  /** Every hook call of the current session's turns, oldest turn first (`[]` without a session). */
  traces(): Promise<CommandTraceRecord[]>;
}

/**
 * A plugin command handler: the argument text (everything after the command word, trimmed)
 * in, the reply text out — a string or a promise of one; nothing (or `""`) means no reply.
 */
export type PluginCommandHandler = (args: string, context: PluginCommandContext) => unknown;

/** One registered command, as `/help`, `hookgate hooks list` and `describeRegistry()` show it. */
export interface PluginCommandInfo {
  /** Lower case, no `/`. */
  readonly name: string;
  readonly plugin: string;
  readonly description: string;
  readonly args_hint: string;
}

/** What running a command came to: the reply (absent = none) and whether the handler failed. */
export interface PluginCommandOutcome {
  readonly reply?: string;
  readonly failed?: 'error' | 'timeout' | 'bad-result';
}

interface Registered extends PluginCommandInfo {
  readonly handler: PluginCommandHandler;
}

/**
 * The slash commands plugins register with `ctx.register_command` (architecture §4 "Plugin
 * context"). Names are validated at registration; a bad or taken name is a warning naming
 * the plugin, and nothing is stored. Running one never throws: a handler that throws,
 * answers something other than text, or outlives the callback deadline
 * (`plugins.callback_timeout`) answers a short error and logs a warning.
 *
 * @example
 * const commands = new PluginCommandRegistry(logger, 30);
 * commands.register('stats', { name: 'metrics', handler: (args) => `got ${args}`, description: 'turn metrics', args_hint: 'dias:N' });
 * await commands.run('metrics', 'dias:7', context); // { reply: 'got dias:7' }
 */
export class PluginCommandRegistry {
  readonly #commands = new Map<string, Registered>();

  constructor(
    private readonly logger: HookLogger,
    /** Seconds a handler may take before it counts as failed. */
    private readonly timeoutSeconds: number,
  ) {}

  /** Validates and stores one command; answers whether it was stored. */
  register(plugin: string, command: { name: unknown; handler: unknown; description?: unknown; args_hint?: unknown }): boolean {
    const problem = this.#problem(command.name, command.handler);
    if (problem) {
      this.logger.warn(`plugin ${plugin}: register_command(${describeName(command.name)}) ${problem}; command not registered`);
      return false;
    }
    const name = (command.name as string).toLowerCase();
    this.#commands.set(name, {
      name,
      plugin,
      handler: command.handler as PluginCommandHandler,
      description: optionalText(command.description),
      args_hint: optionalText(command.args_hint),
    });
    this.logger.debug(`plugin ${plugin} registered the command /${name}`);
    return true;
  }

  /** The command registered under `name` (any case), if any. */
  get(name: string): PluginCommandInfo | undefined {
    const found = this.#commands.get(name.toLowerCase());
    return found ? infoOf(found) : undefined;
  }

  /** Every registered command, sorted by name. */
  list(): PluginCommandInfo[] {
    return [...this.#commands.values()].map(infoOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Drops every command (a forced plugin re-discovery registers them again). */
  clear(): void {
    this.#commands.clear();
  }

  /**
   * Runs the handler of `name` with the argument text. Never throws and never waits longer
   * than the deadline; a late answer is ignored.
   */
  async run(name: string, args: string, context: PluginCommandContext): Promise<PluginCommandOutcome> {
    const command = this.#commands.get(name.toLowerCase());
    if (!command) return {};
    const label = `plugin ${command.plugin}: command /${command.name}`;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<{ late: true }>((resolve) => {
      timer = setTimeout(() => resolve({ late: true }), this.timeoutSeconds * 1000);
    });
    try {
      const answer = await Promise.race([
        Promise.resolve()
          .then(() => runAsHookCode({ kind: 'plugin', name: command.plugin }, command.handler, args, context))
          .then((value) => ({ value })),
        deadline,
      ]);
      if ('late' in answer) {
        const elapsed = ((performance.now() - started) / 1000).toFixed(1);
        this.logger.warn(
          `${label} did not answer within plugins.callback_timeout (${this.timeoutSeconds}s, ${elapsed}s elapsed); its answer is ignored`,
        );
        return { reply: `⌛ /${command.name} took too long and was stopped.`, failed: 'timeout' };
      }
      const { value } = answer;
      if (value === undefined || value === null || value === '') return {};
      if (typeof value !== 'string') {
        this.logger.warn(`${label} returned ${value === null ? 'null' : typeof value}, not reply text; nothing sent`);
        return { reply: `⚠️ /${command.name} failed.`, failed: 'bad-result' };
      }
      return { reply: value };
    } catch (error) {
      this.logger.warn(`${label} raised: ${errorText(error)}`);
      // The error text stays in the log: the chat is not where a plugin's internals go.
      return { reply: `⚠️ /${command.name} failed.`, failed: 'error' };
    } finally {
      clearTimeout(timer);
    }
  }

  #problem(name: unknown, handler: unknown): string | undefined {
    if (typeof handler !== 'function') return `needs a handler function, got ${handler === null ? 'null' : typeof handler}`;
    if (typeof name !== 'string' || name === '') return 'needs a non-empty command name';
    if (name.startsWith('/')) return "takes the name without the leading '/'";
    if (/\s/.test(name)) return 'has a name with spaces';
    if (!COMMAND_NAME.test(name)) return 'has a name with characters other than letters, digits, _ and -';
    const lower = name.toLowerCase();
    if (RESERVED_COMMAND_NAMES.includes(lower)) return `uses the name of the built-in command /${lower}`;
    const taken = this.#commands.get(lower);
    if (taken) return `duplicates /${lower}, already registered by plugin ${taken.plugin}`;
    return undefined;
  }
}

function infoOf({ name, plugin, description, args_hint }: Registered): PluginCommandInfo {
  return { name, plugin, description, args_hint };
}

function optionalText(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function describeName(name: unknown): string {
  return typeof name === 'string' ? `'${name}'` : String(name);
}
