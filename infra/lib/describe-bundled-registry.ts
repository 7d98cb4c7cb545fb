import { createHookEngine, type RegistryListing } from '../../src/hooks/create-hook-engine.ts';
import { bundledHooksOptions } from '../../src/hooks/bundled-hooks.ts';

/**
 * Exported by every generated function entry so that a test can ask a built bundle what
 * its engine registers, and compare it with loading the same home from disk.
 */
export async function describeBundledRegistry(home: string): Promise<RegistryListing> {
  const engine = await createHookEngine({ home, gatewayHooks: true, acceptHooks: false, print: () => {}, ...bundledHooksOptions() });
  try {
    return engine.describeRegistry();
  } finally {
    await engine.close();
  }
}
