import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LocalAws } from '../../src/local/emulators.ts';

export interface ObserverProcess {
  pid: number;
  /** Events this process's observers ran so far (as last reported; reports lag ≤ 5 ms). */
  ran(): number;
  /** SQS records its consumer took (acknowledged) so far, as last reported. */
  taken(): number;
  /** Turn-trace events it exported so far (with `otlp`; as last reported). */
  exported(): number;
  /** Switches the telemetry export on or off (with `otlp`); resolves once the child has. */
  setExport(on: boolean): Promise<void>;
  /** Stops the poller (waits for its poll in progress) and ends the process; resolves with the final count. */
  stop(): Promise<number>;
}

/**
 * One observer λ instance in a process of its own, for the pipeline bench: in AWS the
 * producers (gateway, turn λ) and the observer λ are separate processes, and the observer λ
 * runs as several concurrent instances. The child runs the production consumer path
 * (`observer-process-main.ts`) with `pollers` concurrent batches against the events queue.
 *
 * @example
 * const observer = await startObserverProcess(aws, { pollers: 2, onReport: () => observer.ran() >= 4000 && done() });
 * // … publish 4,000 events
 * await observer.stop();
 */
export async function startObserverProcess(
  aws: LocalAws,
  options: {
    pollers?: number;
    batchSize?: number;
    /** Called on every count report. */
    onReport?: () => void;
    /** Extra Node flags for the child (e.g. `--cpu-prof`). */
    execArgv?: string[];
    /** An OTLP/HTTP base URL: the consumer gets the telemetry export, off until `setExport(true)`. */
    otlp?: string;
  } = {},
): Promise<ObserverProcess> {
  const entry = fileURLToPath(new URL('./observer-process-main.ts', import.meta.url));
  const child = fork(
    entry,
    [JSON.stringify({ aws, pollers: options.pollers ?? 2, batchSize: options.batchSize ?? 10, otlp: options.otlp })],
    {
      execArgv: [...(options.execArgv ?? []), '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  let ran = 0;
  let exported = 0;
  let taken = 0;
  let stopped: ((ran: number) => void) | undefined;
  let exportSet: (() => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message: { ran?: number; exported?: number; taken?: number; stopped?: boolean; exportSet?: boolean }) => {
    if (message.taken !== undefined) taken = message.taken;
    if (message.exportSet !== undefined) exportSet?.();
    if (message.ran !== undefined) ran = message.ran;
    if (message.exported !== undefined) exported = message.exported;
    options.onReport?.();
    if (message.stopped) stopped?.(ran);
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`observer process exited with ${code} before it was ready`)));
  });
  return {
    pid: child.pid!,
    ran: () => ran,
    exported: () => exported,
    taken: () => taken,
    setExport(on) {
      const set = new Promise<void>((resolve) => (exportSet = resolve));
      child.send({ export: on });
      return set;
    },
    async stop() {
      if (!child.connected) return ran;
      const final = new Promise<number>((resolve) => (stopped = resolve));
      child.send('stop');
      const count = await final;
      await exited;
      return count;
    },
  };
}
