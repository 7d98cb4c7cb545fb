import { startSqsPoller } from '../../src/local/sqs-poller.ts';
import type { LocalAws } from '../../src/local/emulators.ts';
import { createDataPlane, dataPlaneFromLocalAws } from '../../src/pipeline/data-plane.ts';
import { createObserverConsumer } from '../../src/runtime/observer-consumer.ts';

/**
 * Child-process entry of `startObserverProcess`: one observer λ instance's worth of work —
 * the data plane, `createObserverConsumer` on `plane.idempotency` and the local poller, as
 * `hookgate dev` wires them — with an engine that only counts the events it ran. Reports
 * the count over IPC (coalesced, at most every 5 ms: a message per event would cost more
 * than the event), answers `stop` after the poller stopped.
 */
const { aws, pollers, batchSize } = JSON.parse(process.argv[2]!) as { aws: LocalAws; pollers: number; batchSize: number };
const send = (message: unknown) => process.send!(message);
let ran = 0;
let timer: NodeJS.Timeout | undefined;
const engine = {
  async runObservers() {
    ran++;
    timer ??= setTimeout(() => {
      timer = undefined;
      send({ ran });
    }, 5);
  },
};
const plane = createDataPlane(dataPlaneFromLocalAws(aws));
const poller = await startSqsPoller({
  sqs: plane.clients.sqs,
  queueUrl: aws.eventsQueueUrl,
  handler: createObserverConsumer({ engine, table: plane.idempotency, payloads: plane.payloads }),
  batchSize,
  concurrency: pollers,
});
send({ ready: true });
process.on('message', async (message) => {
  if (message !== 'stop') return;
  await poller.stop();
  clearTimeout(timer);
  plane.destroy();
  send({ ran, stopped: true });
  process.disconnect();
});
// The parent went away: nothing to report to.
process.on('disconnect', () => process.exit(0));
