import { errorText } from '../errors/error-text.ts';
/** How long `stop()` waits for a step that names no budget of its own (server, engine, emulators…). */
const STEP_BUDGET_MS = 300;

/**
 * `hookgate dev`'s shutdown: undo steps registered as the parts start, run in reverse order
 * when it stops, each waited for at most its budget so that no hook can hold the process; a
 * step that fails or runs late is reported on stderr and the next one runs. `signal` is
 * aborted as stopping begins (running turns wrap up instead of calling the model again).
 *
 * @example
 * const steps = new StopSteps();
 * steps.add('the emulators', () => aws.stop());
 * await steps.stop();
 */
export class StopSteps {
  private readonly steps: { name: string; run: () => Promise<void> | void; budgetMs: number }[] = [];
  private readonly stopping = new AbortController();

  /** Aborted when `stop()` begins. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  add(name: string, run: () => Promise<void> | void, budgetMs = STEP_BUDGET_MS): void {
    this.steps.push({ name, run, budgetMs });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    const steps = this.steps.splice(0).reverse();
    for (const step of steps) {
      try {
        const done = await withinBudget(Promise.resolve().then(step.run), step.budgetMs);
        if (!done) process.stderr.write(`hookgate dev: while stopping: ${step.name} did not stop in time; going on\n`);
      } catch (error) {
        process.stderr.write(`hookgate dev: while stopping: ${errorText(error)}\n`);
      }
    }
  }
}

/** True when `work` settled within `ms`; false when the wait was given up (work goes on unawaited). */
async function withinBudget(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const settled = work.then(() => true);
  settled.catch(() => {}); // a failure after the budget is nobody's to handle any more
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
