/**
 * Counts the AWS requests SDK clients send, by service and operation, with one SDK
 * middleware per client (the SDK's public `middlewareStack.add`). For DynamoDB it also asks
 * for and adds up the consumed capacity (`ReturnConsumedCapacity: 'TOTAL'`), so the cost
 * bench can price write and read request units; for SNS it adds up the 64 KiB chunks a
 * publish is billed by; for SQS it tells receives that returned messages from empty ones.
 *
 * Attach before the client's first request: clients with `cacheMiddleware` keep the stack
 * they first resolved.
 *
 * @example
 * const counter = new AwsRequestCounter();
 * counter.attach(plane.clients.sqs, 'sqs');
 * // … run a turn …
 * console.log(counter.snapshot()); // { 'sqs SendMessage': { requests: 1, … } }
 */
export class AwsRequestCounter {
  private readonly rows = new Map<string, OperationCount>();
  private dynamicLabels = 0;

  /**
   * Counts every request `client` sends from now on under `label` (e.g. `sqs`, `esm sqs`), or
   * under what `label()` says when the request is sent (the load test: which turn sent it).
   * The label ends with the service (`dynamodb`, `sns`, …).
   */
  attach(client: { middlewareStack: { add(middleware: never, options: never): void } }, label: string | (() => string)): void {
    const labelNow = typeof label === 'string' ? () => label : label;
    const middleware =
      (
        next: (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>,
        context: { commandName?: string },
      ) =>
      async (args: { input: Record<string, unknown> }) => {
        const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const labelled = labelNow();
        const row = this.row(`${labelled} ${operation}`);
        if (labelled.endsWith('dynamodb')) args.input.ReturnConsumedCapacity ??= 'TOTAL';
        if (labelled.endsWith('sns')) row.billedChunks += snsChunks(args.input);
        try {
          const result = await next(args);
          const metadata = result.output.$metadata as { attempts?: number } | undefined;
          row.requests += metadata?.attempts ?? 1;
          addCapacity(row, result.output.ConsumedCapacity, READS.test(operation));
          if (operation === 'ReceiveMessage' && !(result.output.Messages as unknown[] | undefined)?.length) row.empty += 1;
          return result;
        } catch (error) {
          const metadata = (error as { $metadata?: { attempts?: number } }).$metadata;
          row.requests += metadata?.attempts ?? 1;
          // A refused conditional write still costs a write unit (at least one), with no capacity in the answer.
          if ((error as Error).name === 'ConditionalCheckFailedException') {
            row.failedConditions += 1;
            row.writeUnits += 1;
          }
          throw error;
        }
      };
    client.middlewareStack.add(
      middleware as never,
      // One name per label: attaching a label again replaces its middleware instead of counting twice.
      {
        step: 'initialize',
        name: `awsRequestCounter-${typeof label === 'string' ? label : `dynamic-${++this.dynamicLabels}`}`,
        override: true,
      } as never,
    );
  }

  /** The counts so far, keyed `<label> <Operation>`, sorted. */
  snapshot(): Record<string, OperationCount> {
    return Object.fromEntries([...this.rows.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, { ...v }]));
  }

  reset(): void {
    this.rows.clear();
  }

  private row(key: string): OperationCount {
    let row = this.rows.get(key);
    if (!row)
      this.rows.set(key, (row = { requests: 0, writeUnits: 0, readUnits: 0, billedChunks: 0, empty: 0, failedConditions: 0 }));
    return row;
  }
}

export interface OperationCount {
  /** HTTP requests sent (SDK retries included). */
  requests: number;
  /** DynamoDB write request units consumed (a refused conditional write counts 1). */
  writeUnits: number;
  /** DynamoDB read request units consumed. */
  readUnits: number;
  /** SNS: 64 KiB chunks of published payload (what a publish is billed by). */
  billedChunks: number;
  /** SQS ReceiveMessage calls that returned no message. */
  empty: number;
  /** DynamoDB conditional writes the table refused. */
  failedConditions: number;
}

type Capacity = { CapacityUnits?: number; WriteCapacityUnits?: number; ReadCapacityUnits?: number };

/** DynamoDB operations whose consumed capacity is read units. */
const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

function addCapacity(row: OperationCount, consumed: unknown, isRead: boolean): void {
  for (const c of (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as Capacity[]) {
    if (c.WriteCapacityUnits !== undefined || c.ReadCapacityUnits !== undefined) {
      row.writeUnits += c.WriteCapacityUnits ?? 0;
      row.readUnits += c.ReadCapacityUnits ?? 0;
    } else if (c.CapacityUnits !== undefined) {
      // Emulators may answer only the total; which kind it is follows from the operation.
      row[isRead ? 'readUnits' : 'writeUnits'] += c.CapacityUnits;
    }
  }
}

/** SNS bills each 64 KiB of a publish request's payload (a PublishBatch of ten small messages is one). */
function snsChunks(input: Record<string, unknown>): number {
  const entries = (input.PublishBatchRequestEntries as { Message?: string; MessageAttributes?: unknown }[] | undefined) ?? [
    { Message: input.Message as string | undefined, MessageAttributes: input.MessageAttributes },
  ];
  const bytes = entries.reduce(
    (sum, e) => sum + Buffer.byteLength(e.Message ?? '') + Buffer.byteLength(JSON.stringify(e.MessageAttributes ?? {})),
    0,
  );
  return Math.max(1, Math.ceil(bytes / 65_536));
}
