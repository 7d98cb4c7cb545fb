import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { TurnOperation } from '../../telemetry/turn-trace-event.ts';
import { errorText } from '../../errors/error-text.ts';

/** The operation in progress in an async context (unset: the turn itself). */
const currentOperation = new AsyncLocalStorage<string>();

type Kind = TurnOperation['kind'];
type OperationOf<K extends Kind> = Extract<TurnOperation, { kind: K }>;
/** What the caller says about an operation; the recorder adds id, parent and timing. */
export type OperationFields<K extends Kind> = Omit<OperationOf<K>, 'kind' | 'id' | 'parent' | 'started_at' | 'duration_ms'>;

/**
 * Records the timed operations of one turn invocation — model calls, tool calls, subagents and
 * the hook calls under them — for the `hookgate:turn_trace` event (telemetry/turn-trace-event.ts).
 * The parent of each operation is the one in progress in the same async context, so a hook
 * called from inside a tool call lands under that tool call, and a subagent's operations under
 * its `delegate_task` call. Recording is in memory only; nothing is exported from the turn.
 *
 * @example
 * const spans = new TurnSpanRecorder(false);
 * const reply = await spans.within('execute_tool', { tool_name: 'terminal', tool_call_id: 'c1' }, async (set) => { … });
 */
export class TurnSpanRecorder {
  readonly operations: TurnOperation[] = [];
  private next = 0;

  /** @param captureContent telemetry.capture_content: whether text, arguments and results are kept. */
  constructor(readonly captureContent: boolean) {}

  /** The id of the operation in progress here; null at the turn's level. */
  current(): string | null {
    return currentOperation.getStore() ?? null;
  }

  /**
   * Runs `fn` as one operation: its start and duration are recorded, a throw is recorded as its
   * error (and rethrown), and `set` adds what is only known later (usage, outcome).
   */
  async within<K extends Kind, T>(
    kind: K,
    fields: OperationFields<K>,
    fn: (set: (more: Partial<OperationFields<K>>) => void) => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    const operation = {
      ...fields,
      kind,
      id: `op${++this.next}`,
      parent: this.current(),
      started_at: isoNow(),
      duration_ms: 0,
    } as OperationOf<K>;
    this.operations.push(operation);
    const set = (more: Partial<OperationFields<K>>) => Object.assign(operation, more);
    try {
      return await currentOperation.run(operation.id, () => fn(set));
    } catch (error) {
      operation.error = errorText(error).slice(0, 2000);
      throw error;
    } finally {
      operation.duration_ms = round(performance.now() - started);
    }
  }

  /** One hook callback run (or a hook call nobody answered inline), under the operation in progress. */
  recordHook(fields: OperationFields<'hook'>, startedAt: string, durationMs: number): void {
    this.openHook(fields, startedAt).end(durationMs);
  }

  /**
   * A hook call recorded now, under the operation in progress here, whose duration and outcome
   * come later (`end`): an observer event handed to the pipeline off the turn's path.
   */
  openHook(fields: OperationFields<'hook'>, startedAt: string): { end(durationMs: number, decision?: string): void } {
    const operation: OperationOf<'hook'> = {
      ...fields,
      kind: 'hook',
      id: `op${++this.next}`,
      parent: this.current(),
      started_at: startedAt,
      duration_ms: 0,
    };
    this.operations.push(operation);
    return {
      end(durationMs, decision) {
        operation.duration_ms = round(durationMs);
        if (decision !== undefined) operation.decision = decision;
      },
    };
  }
}

const isoNow = () => new Date().toISOString();
const round = (ms: number) => Math.round(ms * 1000) / 1000;
