import type { AnswerOf, HookName, KwargsOf } from '../../src/hooks/catalogue.ts';
import { createHookEngine, type RegistryListing } from '../../src/hooks/create-hook-engine.ts';
import { bundledHooksOptions, createEngineFromBundle } from '../../src/hooks/bundled-hooks.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { createDataPlane, dataPlaneFromConfig } from '../../src/pipeline/data-plane.ts';

/**
 * Exported by every generated function entry so that a test can ask a built bundle what
 * its engine registers, and compare it with loading the same home from disk.
 */
export async function describeBundledRegistry(home: string): Promise<RegistryListing> {
  const engine = await createHookEngine({
    home,
    gatewayHooks: true,
    acceptHooks: false,
    // A listing, not a run: what consent would skip is the test's to compare, not a warning to print.
    skippedShellHooksShown: true,
    print: () => {},
    ...bundledHooksOptions(),
  });
  try {
    return engine.describeRegistry();
  } finally {
    await engine.close();
  }
}

/**
 * Exported by every generated function entry: runs one synchronous hook through the engine a
 * function builds at cold start — the bundled home beside the bundle, validated, with the
 * stack's DynamoDB allowlist from the environment — so a test can show a built asset's
 * guards deciding as they would in Lambda.
 *
 * @example
 * await invokeBundledHook('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } }) // { action: 'block', … }
 */
export async function invokeBundledHook<H extends HookName>(hook: H, kwargs: KwargsOf<H>): Promise<AnswerOf<H>> {
  const plane = createDataPlane(dataPlaneFromConfig(loadDeploymentConfig(process.env, { runtime: 'aws' })));
  const engine = await createEngineFromBundle({ gatewayHooks: false, allowlist: plane.allowlist, print: () => {} });
  try {
    return await engine.invoke(hook, kwargs);
  } finally {
    await engine.close();
    plane.destroy();
  }
}
