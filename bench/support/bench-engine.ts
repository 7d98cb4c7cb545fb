import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHookEngine } from '../../src/hooks/create-hook-engine.ts';
import type { HookEngine } from '../../src/hooks/hook-engine.ts';
import type { ObserverSink } from '../../src/hooks/observer-sink.ts';

/**
 * The gateway bench's engine: the real hook engine over an empty temporary hooks home
 * (gateway hooks on, observer events to the given sink), so the figure is the gateway's
 * own cost with no hook doing work.
 */
export async function benchEngine(sink: ObserverSink): Promise<{ engine: HookEngine; label: string }> {
  const home = await mkdtemp(join(tmpdir(), 'hookgate-bench-home-'));
  const engine = await createHookEngine({ home, gatewayHooks: true, observerSink: sink, print: () => {} });
  const close = engine.close.bind(engine);
  engine.close = async () => {
    await close();
    await rm(home, { recursive: true, force: true });
  };
  return { engine, label: 'real engine, empty hooks home' };
}
