import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataPlane } from '../../src/pipeline/data-plane.ts';
import type { SqsEventHandler } from '../../src/local/sqs-poller.ts';
import { AwsRequestCounter, type OperationCount } from './aws-request-counter.ts';

/** The bucket of requests no turn handler sent: the gateway's, the pollers' deletes, the outbox sweeper's. */
export const OUTSIDE_TURNS = 'outside';

/**
 * Counts a data plane's AWS requests by the turn that sent them: the turn handler is wrapped
 * so that every request made while it runs a turn (its own, and what it awaits: the reply,
 * the observer events it publishes) is counted under that turn's bucket, through the async
 * context it runs in; every other request under `OUTSIDE_TURNS`. The load test buckets turns
 * by their message's position in its chat, to see whether a turn costs more as its session
 * grows. One set of clients serves the gateway, the turns and the observer under `hookgate
 * dev`: the async context is what tells them apart.
 *
 * @example
 * const byTurn = new RequestsByTurn();
 * await byTurn.attach(context.plane);
 * const handler = byTurn.wrap(createTurnConsumer(context), (body) => (JSON.parse(body).event?.text ?? '').split(' ')[2]);
 * byTurn.buckets(); // { m1: { 'dynamodb GetItem': { requests: 2, … } }, outside: { … } }
 */
export class RequestsByTurn {
  private readonly counter = new AwsRequestCounter();
  private readonly turn = new AsyncLocalStorage<string>();

  /**
   * Counts `plane`'s requests from now on. SQS receives are left out: those already resolved
   * by a poller before this are not seen (the client caches its middleware per command), and
   * the local pollers' receives are not Lambda's anyway (docs/cost.md prices those per
   * invocation).
   */
  async attach(plane: DataPlane): Promise<void> {
    const label = (service: string) => () => `${this.turn.getStore() ?? OUTSIDE_TURNS} ${service}`;
    this.counter.attach(plane.clients.dynamodb, label('dynamodb'));
    this.counter.attach(plane.idempotency.client, label('dynamodb'));
    this.counter.attach(plane.clients.sqs, label('sqs'));
    this.counter.attach(await plane.clients.sns(), label('sns'));
    this.counter.attach(await plane.clients.s3(), label('s3'));
  }

  /** `handler`, each batch run in the bucket `bucketOf` gives its first record's body. */
  wrap(handler: SqsEventHandler, bucketOf: (body: string) => string): SqsEventHandler {
    return (event) => this.turn.run(bucketOf(event.Records[0]?.body ?? ''), () => handler(event));
  }

  /** Counts so far by bucket, then by `<service> <Operation>`; SQS receives left out (see `attach`). */
  buckets(): Record<string, Record<string, OperationCount>> {
    const out: Record<string, Record<string, OperationCount>> = {};
    for (const [key, count] of Object.entries(this.counter.snapshot())) {
      const [bucket, service, operation] = key.split(' ') as [string, string, string];
      if (operation === 'ReceiveMessage') continue;
      out[bucket] ??= {};
      out[bucket][`${service} ${operation}`] = count;
    }
    return out;
  }
}
