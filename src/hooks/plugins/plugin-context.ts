import type { CallbackRegistry, HookCallback } from '../callback-registry.ts';
import { isHookName, VALID_HOOK_NAMES_TEXT } from '../catalogue.ts';
import { type HookCodeOwner, runAsHookCode } from '../hook-code.ts';
import type { HookLogger } from '../hook-logger.ts';
import type { PluginCommandHandler, PluginCommandRegistry } from './plugin-commands.ts';

/** What a plugin's `register(ctx)` receives. `registerHook` is an exact alias (§1.1). */
export interface PluginContext {
  /** The plugin's name (manifest `name` or directory name). */
  readonly name: string;
  /** The validated `plugin.yaml`. */
  readonly manifest: Readonly<Record<string, unknown>>;
  /** The hooks home the plugin was loaded from (for its own files, e.g. logs). */
  readonly home: string;
  /** The engine's logger, for the plugin's own messages. */
  readonly logger: HookLogger;
  register_hook(name: string, fn: HookCallback): void;
  registerHook(name: string, fn: HookCallback): void;
  /**
   * Adds the slash command `/<name>`: the handler gets the argument text (trimmed) and
   * answers the reply text. The gateway raises `command:<name>` first (hook-semantics §2.5).
   * A bad or taken name is a warning; the plugin's other registrations still load.
   *
   * @example
   * ctx.register_command('metrics', async (args, { traces }) => `${(await traces()).length} hook calls`, 'hook metrics', 'dias:N');
   */
  register_command(name: string, handler: PluginCommandHandler, description?: string, args_hint?: string): void;
  /** Exact alias of `register_command`. */
  registerCommand(name: string, handler: PluginCommandHandler, description?: string, args_hint?: string): void;
}

/**
 * Builds the `ctx` of one plugin's `register(ctx)` (hook-semantics §1.1): non-functions are
 * rejected with a warning; unknown hook names are warned about (naming the plugin, the hook
 * and the valid names) and still stored; each call is a separate callback. Slash commands
 * go to `commands` (see plugin-commands.ts).
 *
 * @example
 * const ctx = createPluginContext({ name: 'audit', manifest: {}, home, registry, logger });
 * ctx.register_hook('pre_tool_call', audit);
 */
export function createPluginContext(options: {
  name: string;
  manifest: Record<string, unknown>;
  home: string;
  registry: CallbackRegistry;
  logger: HookLogger;
  /** Where `register_command` stores commands; absent (hosts without a gateway): a warning, nothing stored. */
  commands?: PluginCommandRegistry;
}): PluginContext {
  const { name: plugin, registry, logger } = options;
  const owner: HookCodeOwner = { kind: 'plugin', name: plugin };
  const register = (hook: string, fn: HookCallback): void => {
    if (typeof fn !== 'function') {
      logger.warn(
        `plugin ${plugin}: register_hook('${String(hook)}') needs a function, got ${fn === null ? 'null' : typeof fn}; nothing registered`,
      );
      return;
    }
    const hookName = String(hook);
    if (!isHookName(hookName)) {
      logger.warn(
        `plugin ${plugin} registered unknown hook '${hookName}' (stored anyway, for forward compatibility); valid: ${VALID_HOOK_NAMES_TEXT}`,
      );
    }
    // As hook code: a throw from a timer the callback leaves behind is the plugin's, not hookgate's (hook-code.ts).
    registry.register({
      hook: hookName,
      name: fn.name || '<anonymous>',
      source: 'plugin',
      plugin,
      fn: (kwargs) => runAsHookCode(owner, fn, kwargs),
    });
  };
  const registerCommand = (name: string, handler: PluginCommandHandler, description?: string, args_hint?: string): void => {
    if (!options.commands) {
      logger.warn(`plugin ${plugin}: register_command('${String(name)}') is not available in this host; command not registered`);
      return;
    }
    options.commands.register(plugin, { name, handler, description, args_hint });
  };
  return {
    name: plugin,
    manifest: Object.freeze({ ...options.manifest }),
    home: options.home,
    logger,
    register_hook: register,
    registerHook: register,
    register_command: registerCommand,
    registerCommand,
  };
}
