import { startSqsPoller } from '../../src/local/sqs-poller.ts';
import type { LocalAws } from '../../src/local/emulators.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../../src/pipeline/data-plane.ts';
import { createObserverConsumer, type ObserverTelemetry } from '../../src/runtime/observer-consumer.ts';
import { createTelemetryExport } from '../../src/telemetry/telemetry-export.ts';

/**
 * Child-process entry of `startObserverProcess`: one observer λ instance's worth of work —
 * the data plane, `createObserverConsumer` on `plane.idempotency` and the local poller, as
 * `hookgate dev` wires them — with an engine that only counts the events it ran. Reports
 * the counts (events run, records taken, turn traces exported) over IPC (coalesced, at most every 5 ms: a message per event would cost more
 * than the event), answers `stop` after the poller stopped.
 *
 * With `otlp` (a base URL) the consumer also gets the production telemetry export
 * (`createTelemetryExport`, OTLP/HTTP protobuf, flushed after each batch as in AWS), switched
 * on and off by `{ export: boolean }` messages (answered `{ exportSet }`): off, it handles no
 * event type, exactly as a consumer without telemetry.
 */
const { aws, pollers, batchSize, otlp } = JSON.parse(process.argv[2]!) as {
  aws: LocalAws;
  pollers: number;
  batchSize: number;
  otlp?: string;
};
const send = (message: unknown) => process.send!(message);
let ran = 0;
let exported = 0;
let taken = 0;
let timer: NodeJS.Timeout | undefined;
const report = () => {
  timer ??= setTimeout(() => {
    timer = undefined;
    send({ ran, exported, taken });
  }, 5);
};
const engine = {
  async runObservers() {
    ran++;
    report();
  },
};
let exportOn = false;
const exporter = otlp
  ? await createTelemetryExport({
      otlp: { endpoint: otlp, headers: {}, protocol: 'http/protobuf' },
      emf: false,
      captureContent: () => false,
    })
  : undefined;
const telemetry: ObserverTelemetry | undefined = exporter && {
  handles: (type) => exportOn && exporter.handles(type),
  async record(id, payload) {
    await exporter.record(id, payload);
    exported++;
    report();
  },
  flush: () => (exportOn ? exporter.flush() : Promise.resolve()),
};
const plane = createDataPlane(dataPlaneFromLocalAws(aws));
const consumer = createObserverConsumer({
  engine,
  table: plane.idempotency,
  payloads: plane.payloads,
  ...(telemetry ? { telemetry } : {}),
});
const poller = await startSqsPoller({
  sqs: plane.clients.sqs,
  queueUrl: aws.eventsQueueUrl,
  // Records taken, whether or not an observer ran for them (an event that ran at its source is only acknowledged).
  handler: async (event) => {
    const answer = await consumer(event);
    taken += event.Records.length - answer.batchItemFailures.length;
    report();
    return answer;
  },
  batchSize,
  concurrency: pollers,
});
send({ ready: true });
process.on('message', async (message: unknown) => {
  if (typeof message === 'object' && message !== null && 'export' in message) {
    exportOn = (message as { export: boolean }).export;
    send({ exportSet: exportOn });
    return;
  }
  if (message !== 'stop') return;
  await poller.stop();
  clearTimeout(timer);
  await exporter?.shutdown();
  plane.destroy();
  send({ ran, exported, taken, stopped: true });
  process.disconnect();
});
// The parent went away: nothing to report to.
process.on('disconnect', () => process.exit(0));
