import type { HookLogger } from '../hooks/hook-logger.ts';
import type { DataPlane } from '../pipeline/data-plane.ts';
import { sweepOutbox } from '../pipeline/outbox-sweeper.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * `hookgate dev`'s outbox sweeper: what the scheduled sweeper function does in AWS, on a timer
 * (one pass every `everyMs`, never two at once). A pass that publishes something logs it.
 *
 * @example
 * const timer = startOutboxSweepTimer(plane, logger, 2_000);
 * await timer.stop();
 */
export function startOutboxSweepTimer(
  plane: Pick<DataPlane, 'outbox' | 'observerSink'>,
  logger: HookLogger,
  everyMs: number,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const sweep = await sweepOutbox({ outbox: plane.outbox, republish: (entries) => plane.observerSink.republish(entries) });
      if (sweep.published > 0)
        logger.info(
          `observer outbox: published ${sweep.published} event(s) SNS had not taken (${sweep.waiting} session(s) still waiting)`,
        );
    } catch (error) {
      logger.warn(`observer outbox sweep failed: ${errorText(error)}`);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
