import { join } from 'node:path';
import { errorText } from '../../errors/error-text.ts';
import { type HookCodeOwner, runAsHookCode } from '../hook-code.ts';
import type { GatewayHookDescription } from '../hooks-home-description.ts';
import type { ModuleSource } from '../module-source.ts';
import { isPlainObject } from '../python-truthiness.ts';
import { pythonRepr } from '../python-repr.ts';
import type { GatewayHandler, GatewayHookRegistry } from './gateway-hook-registry.ts';

function handleFunction(mod: Record<string, unknown>): GatewayHandler | undefined {
  if (typeof mod.handle === 'function') return mod.handle as GatewayHandler;
  const fallback = mod.default;
  if (isPlainObject(fallback) && typeof fallback.handle === 'function') return fallback.handle as GatewayHandler;
  return undefined;
}

/**
 * Finishes gateway-hook discovery (§2.1 steps 5–7) from a description: prints the skips
 * decided at discovery, imports each handler, requires `handle`, registers it under each
 * event and prints `[hooks] Loaded hook '<name>' for events: [...]`. A failing directory
 * leaves nothing registered and loading goes on.
 *
 * @example
 * await loadGatewayHooks(description.gatewayHooks, { home, registry, load, print });
 */
export async function loadGatewayHooks(
  hooks: readonly GatewayHookDescription[],
  options: { home: string; registry: GatewayHookRegistry; load: ModuleSource; print: (line: string) => void },
): Promise<void> {
  const { registry, load, print } = options;
  for (const hook of hooks) {
    if (hook.kind === 'skip') {
      print(hook.line);
      continue;
    }
    // The module's top level and its handler run as the hook's code (hook-code.ts).
    const owner: HookCodeOwner = { kind: 'gateway hook', name: hook.name };
    let handle: GatewayHandler | undefined;
    try {
      handle = handleFunction(await runAsHookCode(owner, load, hook.handler));
    } catch (error) {
      print(`[hooks] Error loading hook ${hook.dir}: ${errorText(error)}`);
      continue;
    }
    if (!handle) {
      print(`[hooks] Skipping ${hook.name}: no 'handle' function found`);
      continue;
    }
    registry.add(
      { name: hook.name, description: hook.description, events: hook.events, path: join(options.home, 'hooks', hook.dir) },
      (event, context) => runAsHookCode(owner, handle, event, context),
    );
    print(`[hooks] Loaded hook '${hook.name}' for events: ${pythonRepr(hook.events)}`);
  }
}
