import { Hono } from 'hono';
import * as z from '../../validation/zod.ts';
import {
  HOOK_NAMES,
  KWARGS_SCHEMAS,
  TELEMETRY_SCHEMA_VERSION,
  VALID_HOOK_NAMES_TEXT,
  isHookName,
} from '../../hooks/catalogue.ts';
import type { ObserverEvent } from '../../hooks/observer-sink.ts';
import { textOf } from '../../hooks/text-of.ts';
import { InvalidObserverEventError } from '../../pipeline/observer-publish-error.ts';
import { jsonDepth, MAX_JSON_DEPTH } from '../../validation/json-depth.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { isWellFormedText } from '../input-limits.ts';
import { isObserverEventType, isPluginHookType, OBSERVER_PLUGIN_HOOKS, GATEWAY_EVENT_NAMES } from './observer-event-types.ts';
import { errorText } from '../../errors/error-text.ts';

const Kwargs = z.record(z.string(), z.unknown(), { error: 'the body must be a JSON object (the hook kwargs)' });

/** Ids become table keys and message attributes: a lone surrogate (`"\ud800"`) cannot be encoded as UTF-8 (docs/gateway.md, "Input limits"). */
const wellFormed = z.refine((value) => typeof value !== 'string' || isWellFormedText(value), {
  error: 'must be well-formed Unicode (no lone surrogate)',
});
const EventInput = z.object({
  type: z.string().check(
    z.refine(isObserverEventType, {
      error: `type must be an observer plugin hook (${OBSERVER_PLUGIN_HOOKS.join(', ')}) or a gateway event (${GATEWAY_EVENT_NAMES.join(', ')})`,
    }),
  ),
  payload: z.record(z.string(), z.unknown(), { error: 'payload must be a JSON object' }),
  // The envelope's limit (docs/envelope.schema.json): a longer id would fail after validation.
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(200), wellFormed)),
  session_id: z.optional(z.string().check(z.maxLength(512), wellFormed)),
  turn_id: z.optional(z.string().check(z.maxLength(512), wellFormed)),
});
const MAX_EVENTS = 500;
const EventsBatch = z.object({
  events: z
    .array(EventInput)
    .check(
      z.minLength(1, { error: 'events must hold at least one event' }),
      z.maxLength(MAX_EVENTS, { error: `at most ${MAX_EVENTS} events per request` }),
    ),
});
/** A batch when the body has `events`, else one event (so errors speak of the shape meant). */
const isBatch = (value: unknown) => typeof value === 'object' && value !== null && 'events' in value;

type Problem = { error: string };
const describe = (error: z.core.$ZodError) => z.prettifyError(error).replace(/\n/g, '; ');

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; problem: Problem }> {
  const text = await request.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: { error: 'the body is not JSON' } };
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    return { ok: false, problem: { error: `the body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep` } };
  }
  return { ok: true, value };
}

/**
 * The aggregated answer as JSON. Only `pre_gateway_dispatch`'s `reason` is a hook's raw
 * value; when JSON cannot carry it (a bigint, a cycle, a throwing toJSON) its text goes
 * instead, or nothing when it has none.
 */
function answerJson(answer: Record<string, unknown>): string {
  try {
    return JSON.stringify(answer);
  } catch {
    const { reason, ...rest } = answer;
    const text = reason === undefined ? undefined : textOf(reason);
    return JSON.stringify(text === undefined ? rest : { ...rest, reason: text });
  }
}

/**
 * The hook API (architecture §4), mounted under `/v1` behind the bearer check:
 * `POST /hooks/{hook}` runs one hook with the body as kwargs and answers the aggregated
 * decision (`engine.invoke`); `POST /events` queues observer events through the sink and
 * answers 202 with their ids once durable (503 if publishing failed).
 *
 * @example
 * app.route('/v1', hookApi(deps));
 */
export function hookApi(deps: Pick<GatewayDeps, 'engine' | 'observerSink' | 'logger'>): Hono {
  const api = new Hono();

  api.post('/hooks/:hook', async (c) => {
    const hook = c.req.param('hook');
    if (!isHookName(hook)) {
      return c.json({ error: `unknown hook ${JSON.stringify(hook)}; valid: ${VALID_HOOK_NAMES_TEXT}`, valid: HOOK_NAMES }, 404);
    }
    const body = await readJson(c.req.raw);
    if (!body.ok) return c.json(body.problem, 400);
    const kwargs = Kwargs.safeParse(body.value);
    if (!kwargs.success) return c.json({ error: describe(kwargs.error) }, 400);
    // Typed check of the keys the spec names; the caller's object (and key order) goes on.
    const typed = KWARGS_SCHEMAS[hook].safeParse(kwargs.data);
    if (!typed.success) return c.json({ error: `${hook} kwargs: ${describe(typed.error)}` }, 400);
    let answer: Record<string, unknown>;
    try {
      answer = await deps.engine.invoke(hook, kwargs.data);
    } catch (error) {
      // An observer hook's kwargs that cannot become an envelope: the caller's to fix.
      if (error instanceof InvalidObserverEventError) return c.json({ error: error.message }, 400);
      throw error;
    }
    return c.body(answerJson(answer), 200, { 'content-type': 'application/json' });
  });

  api.post('/events', async (c) => {
    const body = await readJson(c.req.raw);
    if (!body.ok) return c.json(body.problem, 400);
    let inputs: z.infer<typeof EventInput>[];
    if (isBatch(body.value)) {
      const parsed = EventsBatch.safeParse(body.value);
      if (!parsed.success) return c.json({ error: describe(parsed.error) }, 400);
      inputs = parsed.data.events;
    } else {
      const parsed = EventInput.safeParse(body.value);
      if (!parsed.success) return c.json({ error: describe(parsed.error) }, 400);
      inputs = [parsed.data];
    }
    const events: ObserverEvent[] = inputs.map((input) => ({
      ...input,
      // Plugin-hook kwargs carry the telemetry tag as their last key, as engine.observe adds it (§1.3).
      payload:
        isPluginHookType(input.type) && !('telemetry_schema_version' in input.payload)
          ? { ...input.payload, telemetry_schema_version: TELEMETRY_SCHEMA_VERSION }
          : input.payload,
    }));
    try {
      const ids = await deps.observerSink.publish(events);
      return c.json({ ids }, 202);
    } catch (error) {
      if (error instanceof InvalidObserverEventError) return c.json({ error: error.message }, 400);
      deps.logger.error('observer events could not be queued', { error: errorText(error), count: events.length });
      return c.json(
        { error: 'the events could not all be queued; retry (events with an id are deduplicated by consumers)' },
        503,
      );
    }
  });

  return api;
}
