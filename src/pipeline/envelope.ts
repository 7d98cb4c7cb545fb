import * as z from '../validation/zod.ts';
import { HookgateError } from '../errors/hookgate-error.ts';

/**
 * Observer event envelope, version 1 — the public contract for every consumer of the
 * events topic (the observer λ and telemetry subscribers; docs/envelope.schema.json is
 * generated from this schema, docs/data-plane.md explains it).
 *
 * An envelope is either inline (`payload` is the object) or offloaded: when the envelope
 * would not fit in one SNS/SQS message, `payload` is `null` and `payload_ref` points to the
 * full payload in S3, with its size and SHA-256 so a consumer can check what it fetched.
 * Nothing is ever truncated.
 */
const EnvelopeBase = z.object({
  v: z.literal(1).check(z.describe('Envelope version; a consumer rejects versions it does not know.')),
  id: z.string().check(z.minLength(1), z.maxLength(200), z.describe('Unique per event; the dedup key of every consumer.')),
  type: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(200),
      z.describe('An observer plugin-hook name (post_tool_call) or a gateway event name (agent:step).'),
    ),
  occurred_at: z.iso.datetime({ offset: true }).check(z.describe('When the event was emitted (ISO-8601).')),
  session_id: z.nullable(z.string()).check(z.describe('The agent session the event belongs to, if any.')),
  turn_id: z.nullable(z.string()).check(z.describe('The turn the event belongs to, if any.')),
  ran_at_source: z
    .optional(z.literal(true))
    .check(
      z.describe(
        'Present when the hooks of this event already ran where it was emitted (subagent_stop, which hook-semantics serialises on the parent): the observer consumer does not run them again; telemetry consumers treat it like any other event.',
      ),
    ),
});

export const PayloadRefSchema = z
  .object({
    store: z.literal('s3'),
    bucket: z.string().check(z.minLength(1)),
    key: z.string().check(z.minLength(1)),
    bytes: z.int().check(z.nonnegative(), z.describe('UTF-8 size of the payload JSON.')),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/), z.describe('Hex SHA-256 of the payload JSON.')),
  })
  .check(z.describe('Where an oversized payload lives.'));
export type PayloadRef = z.infer<typeof PayloadRefSchema>;

export const InlineEnvelopeSchema = z.extend(EnvelopeBase, {
  payload: z
    .record(z.string(), z.unknown())
    .check(z.describe('The kwargs (plugin hooks, telemetry tag included) or the context (gateway events).')),
});

export const OffloadedEnvelopeSchema = z.extend(EnvelopeBase, {
  payload: z.null().check(z.describe('Null: the payload is out of line, see payload_ref.')),
  payload_ref: PayloadRefSchema,
});

export const EnvelopeSchema = z.union([InlineEnvelopeSchema, OffloadedEnvelopeSchema]).check(
  z.meta({
    $id: 'https://hookgate.dev/schemas/envelope-v1.json',
    title: 'hookgate observer event envelope v1',
  }),
);

export type Envelope = z.infer<typeof EnvelopeSchema>;

/** The envelope's JSON Schema (draft 2020-12), as written to docs/envelope.schema.json. */
export function envelopeJsonSchema(): Record<string, unknown> {
  // Input side: a consumer must accept keys a later v1 may add (additive changes keep v = 1).
  return z.toJSONSchema(EnvelopeSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
}

export class EnvelopeParseError extends HookgateError {
  override readonly name = 'EnvelopeParseError';
}

/**
 * Parses one message body into an envelope; a clear `EnvelopeParseError` when it is not one.
 *
 * @example
 * const envelope = parseEnvelope(record.body);
 */
export function parseEnvelope(body: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new EnvelopeParseError(`not JSON: ${body.slice(0, 80)}`);
  }
  const parsed = EnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EnvelopeParseError(`not an envelope v1: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}
