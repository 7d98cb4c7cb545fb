import { afterEach } from 'vitest';
import { createHookEngine, type CreateHookEngineOptions, type LoadedHookEngine } from '../../../src/hooks/create-hook-engine.ts';
import { createMemoryLogger } from '../../../src/hooks/hook-logger.ts';
import { tempHome, type TempHome } from './temp-home.ts';

/** One engine over a temporary hooks home, with what it logged and printed. */
export interface TempEngine {
  engine: LoadedHookEngine;
  home: TempHome;
  logger: ReturnType<typeof createMemoryLogger>;
  /** What the engine printed (gateway-hook load lines, §2.1). */
  lines: string[];
}

/**
 * A loader of engines over temporary hooks homes for one test file: each engine is closed and its
 * home removed after the test that made it. Options default to a memory logger, an empty
 * environment and printing into `lines`; `defaults` and each call's `options` override them.
 *
 * @example
 * const load = tempEngines({ gatewayHooks: true });
 * const { engine, lines } = await load({ 'hooks/log/HOOK.yaml': 'name: log\nevents: [command:*]\n', … });
 */
export function tempEngines(
  defaults: CreateHookEngineOptions = {},
): (files: Record<string, string>, options?: CreateHookEngineOptions) => Promise<TempEngine> {
  const made: TempEngine[] = [];
  afterEach(async () => {
    for (const { engine, home } of made.splice(0)) {
      await engine.close();
      await home.remove();
    }
  });
  return async (files, options = {}) => {
    const home = await tempHome(files);
    const logger = createMemoryLogger();
    const lines: string[] = [];
    const engine = await createHookEngine({
      home: home.path,
      logger,
      env: {},
      print: (line) => lines.push(line),
      ...defaults,
      ...options,
    });
    const loaded = { engine, home, logger, lines };
    made.push(loaded);
    return loaded;
  };
}
