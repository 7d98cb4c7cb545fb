import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type FunctionName, TABLE_ACCESS, type TableGrant } from '../../infra/lib/table-access.ts';
import { currentFunction, refuse } from './function-identity.ts';

/*
 * The deployed functions' table permissions, enforced in tests (function-identity.ts says why).
 * `enforceTableGrants` makes the client refuse, as IAM would, every request made while
 * `asFunction(name, …)` runs that no one statement of that function's grants allows: the action
 * among its actions and every partition key of the request matching one of its
 * `dynamodb:LeadingKeys` patterns (`ForAllValues:StringLike`, so a batch over two statements'
 * prefixes is refused too).
 */

/**
 * The `local` adapter's reply outbox (src/store/local-outbox-store.ts): written and read by a
 * gateway serving the local platform, which local runs do and the stack never enables
 * (docs/deploy.md), so no deployed role has it.
 */
export const LOCAL_REPLY_OUTBOX: TableGrant = {
  actions: ['PutItem', 'Query'],
  leadingKeys: ['OUTBOX#*'],
  calledFrom: ['src/store/local-outbox-store.ts'],
};

/**
 * Adds the check to `client` (the document client shares its middleware stack).
 *
 * @example
 * enforceTableGrants(plane.clients.dynamodb);
 */
export function enforceTableGrants(
  client: DynamoDBClient,
  grants: Readonly<Record<FunctionName, readonly TableGrant[]>> = TABLE_ACCESS,
  always?: FunctionName,
): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = always ?? currentFunction();
      if (name !== undefined) {
        const action = String(context.commandName ?? '').replace(/Command$/, '');
        const keys = leadingKeys(action, args.input as Record<string, unknown>);
        // A request whose keys this check cannot read is refused: it must never pass unchecked.
        if (keys.size === 0 || !grants[name].some((grant) => allows(grant, action, keys))) {
          const refusal = `the ${name} function may not ${action} on ${[...keys].join(', ') || '(no key)'} (infra/lib/table-access.ts)`;
          throw refuse(refusal, `dynamodb:${action}`, 'AccessDeniedException');
        }
      }
      return next(args);
    },
    { step: 'serialize', priority: 'high', name: 'hookgateTableGrantCheck' },
  );
}

function allows(grant: TableGrant, action: string, keys: ReadonlySet<string>): boolean {
  if (!(grant.actions as readonly string[]).includes(action)) return false;
  return [...keys].every((key) => grant.leadingKeys.some((pattern) => stringLike(pattern, key)));
}

/** IAM's StringLike: `*` any run of characters, `?` one, everything else itself. */
export function stringLike(pattern: string, value: string): boolean {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's').test(value);
}

/** An item, key or value map: as the document client gave it (plain) or marshalled (`{ S }`). */
type Attributes = Record<string, string | { S?: string } | undefined>;

const text = (value: Attributes[string]): string | undefined => (typeof value === 'string' ? value : value?.S);

/** The partition keys (`PK`) a request touches, as IAM's `dynamodb:LeadingKeys` sees them. */
function leadingKeys(action: string, input: Record<string, unknown>): Set<string> {
  const keys = new Set<string>();
  const add = (item: unknown) => {
    const pk = text((item as Attributes | undefined)?.PK);
    if (pk !== undefined) keys.add(pk);
  };
  switch (action) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      add(input.Key);
      break;
    case 'PutItem':
      add(input.Item);
      break;
    case 'Query': {
      const name = /\bPK\s*=\s*(:\w+)/.exec(String(input.KeyConditionExpression ?? ''))?.[1];
      if (name) add({ PK: (input.ExpressionAttributeValues as Attributes | undefined)?.[name] });
      break;
    }
    case 'BatchGetItem':
      for (const request of Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>))
        for (const key of request.Keys ?? []) add(key);
      break;
    case 'BatchWriteItem':
      for (const requests of Object.values(
        (input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]>,
      ))
        for (const request of requests) add(request.PutRequest?.Item ?? request.DeleteRequest?.Key);
      break;
    case 'TransactWriteItems':
    case 'TransactGetItems':
      for (const item of (input.TransactItems ?? []) as Record<string, { Key?: unknown; Item?: unknown }>[])
        for (const part of Object.values(item)) add(part.Key ?? part.Item);
      break;
  }
  return keys;
}
