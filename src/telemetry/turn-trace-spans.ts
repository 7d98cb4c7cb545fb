import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { spanIdOf, traceIdOf, turnRootSpanIdOf } from './span-ids.ts';
import type { TurnOperation, TurnTracePayload } from './turn-trace-event.ts';

/** The instrumentation scope every hookgate span carries. */
export const HOOKGATE_SCOPE = { name: 'hookgate', version: '1' } as const;

export interface TurnTraceSpanOptions {
  resource: Resource;
  /** telemetry.capture_content: message text, tool arguments and results as span attributes. */
  captureContent: boolean;
}

/**
 * The spans of one `hookgate:turn_trace` event (docs/telemetry.md §1): an `invoke_agent` root
 * for the turn, `chat` spans for model calls, `execute_tool` spans for tool calls, a child
 * `invoke_agent` per subagent, and a span per hook call under the call it wraps. Attributes follow
 * the OpenTelemetry GenAI semantic conventions, hookgate's own under `hookgate.*`. Ids come from
 * the turn id, the envelope id and the operation id (span-ids.ts), so a redelivered envelope
 * makes the same spans.
 *
 * @example
 * const spans = turnTraceSpans(envelope.id, payload, { resource, captureContent: false });
 * exporter.export(spans, done);
 */
export function turnTraceSpans(envelopeId: string, payload: TurnTracePayload, options: TurnTraceSpanOptions): ReadableSpan[] {
  const traceId = traceIdOf(payload.turn_id);
  const turnRoot = turnRootSpanIdOf(payload.turn_id);
  // A resumed invocation (after an approval) is its own invoke_agent under the turn's root.
  const rootId = payload.resumed ? spanIdOf(envelopeId, 'root') : turnRoot;
  const context = (spanId: string): SpanContext => ({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false });
  const base = { resource: options.resource, captureContent: options.captureContent, context };
  const conversation = { 'gen_ai.conversation.id': payload.session_id };

  const rootAttributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'hookgate',
    'gen_ai.provider.name': payload.provider,
    'gen_ai.request.model': payload.model,
    ...conversation,
    'hookgate.turn_id': payload.turn_id,
    'hookgate.session_id': payload.session_id,
    'hookgate.platform': payload.platform,
    ...(payload.chat_id ? { 'hookgate.chat_id': payload.chat_id } : {}),
    'hookgate.turn.outcome': payload.outcome,
    'hookgate.turn.resumed': payload.resumed,
    'hookgate.turn.undelivered_replies': payload.undelivered_replies,
    'hookgate.envelope_id': envelopeId,
    ...usageTotals(payload.operations),
  };
  if (options.captureContent && payload.input_text !== undefined)
    rootAttributes['gen_ai.input.messages'] = messagesJson('user', payload.input_text);
  if (options.captureContent && payload.output_text !== undefined)
    rootAttributes['gen_ai.output.messages'] = messagesJson('assistant', payload.output_text);
  const failed = payload.outcome === 'failed';
  const spans: ReadableSpan[] = [
    span(base, {
      name: 'invoke_agent hookgate',
      kind: SpanKind.INTERNAL,
      spanId: rootId,
      parentId: payload.resumed ? turnRoot : undefined,
      startedAt: payload.started_at,
      durationMs: payload.duration_ms,
      attributes: rootAttributes,
      ...(failed ? { error: `turn ${payload.outcome}` } : {}),
    }),
  ];
  const byId = new Map(payload.operations.map((operation) => [operation.id, operation]));
  for (const operation of payload.operations) {
    const conversationId = conversationOf(operation, byId, payload.session_id);
    const { name, kind, attributes } = describeOperation(operation, payload, conversationId, options.captureContent);
    // A subagent's usage is that of the model calls beneath it (its own subagents' included), as the root's is the turn's.
    if (operation.kind === 'invoke_agent')
      Object.assign(attributes, usageTotals(payload.operations.filter((other) => isBeneath(other, operation.id, byId))));
    spans.push(
      span(base, {
        name,
        kind,
        spanId: spanIdOf(envelopeId, operation.id),
        parentId: operation.parent === null ? rootId : spanIdOf(envelopeId, operation.parent),
        startedAt: operation.started_at,
        durationMs: operation.duration_ms,
        attributes: { ...attributes, 'hookgate.turn_id': payload.turn_id, 'hookgate.envelope_id': envelopeId },
        ...(operation.error !== undefined ? { error: operation.error } : {}),
      }),
    );
  }
  return spans;
}

/**
 * The session an operation ran in: a subagent's own (its nearest `invoke_agent` ancestor's child
 * session) for what the child did, else the turn's.
 */
function conversationOf(operation: TurnOperation, byId: ReadonlyMap<string, TurnOperation>, turnSession: string): string {
  const seen = new Set<string>();
  for (let parent = operation.parent; parent !== null && !seen.has(parent); ) {
    seen.add(parent);
    const above = byId.get(parent);
    if (!above) break;
    if (above.kind === 'invoke_agent') return above.child_session_id;
    parent = above.parent;
  }
  return turnSession;
}

/** True when `operation` hangs, at any depth, under the operation `ancestorId`. */
function isBeneath(operation: TurnOperation, ancestorId: string, byId: ReadonlyMap<string, TurnOperation>): boolean {
  const seen = new Set<string>();
  for (let parent = operation.parent; parent !== null && !seen.has(parent); parent = byId.get(parent)?.parent ?? null) {
    if (parent === ancestorId) return true;
    seen.add(parent);
  }
  return false;
}

function describeOperation(
  operation: TurnOperation,
  payload: TurnTracePayload,
  conversationId: string,
  capture: boolean,
): { name: string; kind: SpanKind; attributes: Attributes } {
  const conversation = { 'gen_ai.conversation.id': conversationId };
  switch (operation.kind) {
    case 'chat':
      return {
        name: `chat ${operation.model}`,
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': operation.provider,
          'gen_ai.request.model': operation.model,
          ...conversation,
          ...(operation.response_model ? { 'gen_ai.response.model': operation.response_model } : {}),
          ...(operation.response_id ? { 'gen_ai.response.id': operation.response_id } : {}),
          ...(operation.finish_reason ? { 'gen_ai.response.finish_reasons': [operation.finish_reason] } : {}),
          ...(operation.input_tokens !== undefined ? { 'gen_ai.usage.input_tokens': operation.input_tokens } : {}),
          ...(operation.output_tokens !== undefined ? { 'gen_ai.usage.output_tokens': operation.output_tokens } : {}),
          ...(typeof operation.status_code === 'number' ? { 'http.response.status_code': operation.status_code } : {}),
          ...(operation.error !== undefined
            ? { 'error.type': operation.status_code ? String(operation.status_code) : 'model_request_failed' }
            : {}),
          'hookgate.api_request_id': operation.api_request_id,
          'hookgate.attempt': operation.attempt,
          ...(capture && operation.output_text !== undefined
            ? { 'gen_ai.output.messages': messagesJson('assistant', operation.output_text) }
            : {}),
        },
      };
    case 'execute_tool':
      return {
        name: `execute_tool ${operation.tool_name}`,
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': operation.tool_name,
          'gen_ai.tool.call.id': operation.tool_call_id,
          'gen_ai.tool.type': 'function',
          ...conversation,
          ...(operation.outcome ? { 'hookgate.tool.outcome': operation.outcome } : {}),
          ...(capture && operation.arguments !== undefined ? { 'gen_ai.tool.call.arguments': operation.arguments } : {}),
          ...(capture && operation.result !== undefined ? { 'gen_ai.tool.call.result': operation.result } : {}),
        },
      };
    case 'invoke_agent':
      return {
        name: 'invoke_agent subagent',
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'subagent',
          'gen_ai.agent.id': operation.subagent_id,
          'gen_ai.provider.name': payload.provider,
          'gen_ai.request.model': payload.model,
          'gen_ai.conversation.id': operation.child_session_id,
          'hookgate.session_id': operation.child_session_id,
          'hookgate.platform': payload.platform,
          ...(payload.chat_id ? { 'hookgate.chat_id': payload.chat_id } : {}),
          'hookgate.subagent.parent_session_id': payload.session_id,
          ...(operation.status ? { 'hookgate.subagent.status': operation.status } : {}),
        },
      };
    case 'hook':
      return {
        name: `hook ${operation.hook}`,
        kind: SpanKind.INTERNAL,
        attributes: {
          ...conversation,
          'hookgate.hook.name': operation.hook,
          'hookgate.hook.system': operation.source,
          'hookgate.hook.callback': operation.callback,
          'hookgate.hook.decision': operation.decision,
          'hookgate.hook.blocked': operation.decision.startsWith('block'),
        },
      };
  }
}

interface SpanSpec {
  name: string;
  kind: SpanKind;
  spanId: string;
  parentId: string | undefined;
  startedAt: string;
  durationMs: number;
  attributes: Attributes;
  error?: string;
}

function span(base: { resource: Resource; context: (spanId: string) => SpanContext }, spec: SpanSpec): ReadableSpan {
  const start = hrTimeOf(Date.parse(spec.startedAt));
  const duration = hrTimeOfDuration(spec.durationMs);
  const end = addHrTime(start, duration);
  const context = base.context(spec.spanId);
  return {
    name: spec.name,
    kind: spec.kind,
    spanContext: () => context,
    ...(spec.parentId ? { parentSpanContext: base.context(spec.parentId) } : {}),
    startTime: start,
    endTime: end,
    duration,
    status: spec.error !== undefined ? { code: SpanStatusCode.ERROR, message: spec.error } : { code: SpanStatusCode.UNSET },
    attributes: spec.attributes,
    links: [],
    events: [],
    ended: true,
    resource: base.resource,
    instrumentationScope: HOOKGATE_SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** The summed token usage of these operations' model calls, where every one of them reported it. */
function usageTotals(operations: readonly TurnOperation[]): Attributes {
  const chats = operations.filter((operation) => operation.kind === 'chat');
  if (chats.length === 0) return {};
  const sum = (key: 'input_tokens' | 'output_tokens') =>
    chats.every((chat) => chat[key] !== undefined) ? chats.reduce((total, chat) => total + (chat[key] ?? 0), 0) : undefined;
  const input = sum('input_tokens');
  const output = sum('output_tokens');
  return {
    ...(input !== undefined ? { 'gen_ai.usage.input_tokens': input } : {}),
    ...(output !== undefined ? { 'gen_ai.usage.output_tokens': output } : {}),
  };
}

/** The GenAI conventions' message shape, as the JSON string the attribute holds. */
function messagesJson(role: 'user' | 'assistant', text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

function hrTimeOf(epochMs: number): HrTime {
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)];
}

function hrTimeOfDuration(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function addHrTime(a: HrTime, b: HrTime): HrTime {
  const nanos = a[1] + b[1];
  return nanos >= 1e9 ? [a[0] + b[0] + 1, nanos - 1e9] : [a[0] + b[0], nanos];
}
