import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { turnFigures } from '../../src/telemetry/turn-metrics.ts';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelemetryExport } from '../../src/telemetry/telemetry-export.ts';
import type { TurnTracePayload } from '../../src/telemetry/turn-trace-event.ts';
import { turnTraceSpans } from '../../src/telemetry/turn-trace-spans.ts';
import { decodeTraceJson, decodeTraceProtobuf, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { until } from '../support/until.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 11, 3, 22, 0, 0, ms)).toISOString();

/** A turn with each kind of operation: a model call, a tool call with a blocking hook, a subagent with its own model call. */
const payload: TurnTracePayload = {
  turn_id: 'turn_1',
  session_id: 'sess_1',
  platform: 'local',
  chat_id: 'c1',
  model: 'm1',
  provider: 'openai-compatible',
  resumed: false,
  started_at: at(0),
  duration_ms: 900.5,
  outcome: 'completed',
  undelivered_replies: 0,
  input_text: 'secret question',
  operations: [
    {
      kind: 'hook',
      id: 'op1',
      parent: null,
      hook: 'pre_llm_call',
      source: 'plugin',
      callback: 'ctx',
      decision: 'context (5 chars)',
      started_at: at(1),
      duration_ms: 2,
    },
    {
      kind: 'chat',
      id: 'op2',
      parent: null,
      model: 'm1',
      provider: 'openai-compatible',
      api_request_id: 'turn_1:api:1',
      attempt: 0,
      finish_reason: 'tool_calls',
      input_tokens: 12,
      output_tokens: 3,
      started_at: at(5),
      duration_ms: 100,
    },
    {
      kind: 'execute_tool',
      id: 'op3',
      parent: null,
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      outcome: 'done',
      started_at: at(110),
      duration_ms: 50,
    },
    {
      kind: 'hook',
      id: 'op4',
      parent: 'op3',
      hook: 'pre_tool_call',
      source: 'shell',
      callback: 'shell_hook[pre_tool_call:./guard.sh]',
      decision: 'block: no',
      started_at: at(111),
      duration_ms: 7.25,
    },
    {
      kind: 'invoke_agent',
      id: 'op5',
      parent: 'op3',
      subagent_id: 'subagent_1',
      child_session_id: 'sess_1:sub:1',
      status: 'final',
      started_at: at(120),
      duration_ms: 30,
    },
    {
      kind: 'chat',
      id: 'op6',
      parent: 'op5',
      model: 'm1',
      provider: 'openai-compatible',
      api_request_id: 'turn_1:subagent_1:api:1',
      attempt: 0,
      error: 'HTTP 500',
      status_code: 500,
      started_at: at(121),
      duration_ms: 10,
    },
  ],
};

const resource = resourceFromAttributes({ 'service.name': 'hookgate' });

describe('the test OTLP receiver', () => {
  it('decodes the protobuf and the JSON encodings of the OpenTelemetry serializers to the same spans', () => {
    const spans = turnTraceSpans('env-1', payload, { resource, captureContent: true });
    const fromProto = decodeTraceProtobuf(ProtobufTraceSerializer.serializeRequest(spans)!);
    const fromJson = decodeTraceJson(JsonTraceSerializer.serializeRequest(spans)!);
    expect(fromProto).toEqual(fromJson);
    expect(fromProto.map((s) => s.spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
    expect(fromProto.map((s) => s.parentSpanId)).toEqual(spans.map((s) => s.parentSpanContext?.spanId ?? ''));
    expect(fromProto[2]!.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_calls']);
    expect(fromProto[0]!.resource).toEqual({ 'service.name': 'hookgate' });
  });
});

describe('turn-trace spans', () => {
  const spans = turnTraceSpans('env-1', payload, { resource, captureContent: false });
  const byName = (name: string) => spans.filter((s) => s.name === name);

  it('draws the tree: hooks under the call they wrap, a subagent under its tool call', () => {
    const [root] = byName('invoke_agent hookgate');
    const [tool] = byName('execute_tool terminal');
    const [sub] = byName('invoke_agent subagent');
    expect(root!.parentSpanContext).toBeUndefined();
    expect(byName('hook pre_llm_call')[0]!.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(byName('hook pre_tool_call')[0]!.parentSpanContext?.spanId).toBe(tool!.spanContext().spanId);
    expect(sub!.parentSpanContext?.spanId).toBe(tool!.spanContext().spanId);
    expect(byName('chat m1').map((s) => s.parentSpanContext?.spanId)).toEqual([
      root!.spanContext().spanId,
      sub!.spanContext().spanId,
    ]);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it('carries GenAI and hookgate attributes, errors as error status, and no content unless asked', () => {
    const [root] = byName('invoke_agent hookgate');
    expect(root!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': 'sess_1',
      'hookgate.turn_id': 'turn_1',
    });
    // The failed call reported no usage: the turn's total is left out rather than understated.
    expect(root!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(byName('chat m1')[0]!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 3 });
    expect(root!.attributes['gen_ai.input.messages']).toBeUndefined();
    const [hook] = byName('hook pre_tool_call');
    expect(hook!.attributes).toMatchObject({
      'hookgate.hook.system': 'shell',
      'hookgate.hook.blocked': true,
      'hookgate.hook.decision': 'block: no',
    });
    const failed = byName('chat m1')[1]!;
    expect(failed.status.code).toBe(2);
    expect(failed.attributes['error.type']).toBe('500');
    const withContent = turnTraceSpans('env-1', payload, { resource, captureContent: true });
    expect(withContent[0]!.attributes['gen_ai.input.messages']).toContain('secret question');
  });

  it('counts hook callback calls only: a call no callback answered (system -) is not one, nor a shell hook that did not run', () => {
    const unanswered = { kind: 'hook' as const, parent: null, source: '-', callback: '-', started_at: at(1), duration_ms: 1 };
    const figures = turnFigures({
      ...payload,
      operations: [
        ...payload.operations,
        { ...unanswered, id: 'op8', hook: 'agent:step', decision: 'emitted' },
        { ...unanswered, id: 'op9', hook: 'pre_llm_call', decision: 'error: the call site failed' },
        {
          ...unanswered,
          id: 'op10',
          hook: 'pre_tool_call',
          source: 'shell',
          callback: 'shell_hook[pre_tool_call:./only-writes.sh]',
          decision: 'skipped: matcher',
          duration_ms: 0,
        },
      ],
    });
    expect(figures.hooks.map((h) => [h.hook, h.callback, h.calls])).toEqual([
      ['pre_llm_call', 'ctx', 1],
      ['pre_tool_call', 'shell_hook[pre_tool_call:./guard.sh]', 1],
    ]);
  });

  it("gives what a subagent did its own session as gen_ai.conversation.id, the rest the turn's", () => {
    const conversation = (name: string) => byName(name).map((s) => s.attributes['gen_ai.conversation.id']);
    expect(conversation('invoke_agent subagent')).toEqual(['sess_1:sub:1']);
    expect(conversation('chat m1')).toEqual(['sess_1', 'sess_1:sub:1']);
    expect(conversation('hook pre_tool_call')).toEqual(['sess_1']);
    expect(conversation('execute_tool terminal')).toEqual(['sess_1']);
  });

  it("gives a subagent's span its session, the chat's platform and the usage of the model calls beneath it", () => {
    const chat = (id: string, parent: string, input_tokens: number, output_tokens: number) => ({
      kind: 'chat' as const,
      id,
      parent,
      model: 'm1',
      provider: 'openai-compatible',
      api_request_id: `turn_1:${id}`,
      attempt: 0,
      input_tokens,
      output_tokens,
      started_at: at(130),
      duration_ms: 5,
    });
    const nested = { ...payload.operations[4]!, id: 'op8', parent: 'op7', child_session_id: 'sess_1:sub:2' } as const;
    const operations = [
      ...payload.operations.slice(0, 5),
      chat('op6', 'op5', 20, 4),
      { ...payload.operations[2]!, id: 'op7', parent: 'op5' },
      nested,
      chat('op9', 'op8', 7, 1),
    ];
    const subagents = turnTraceSpans('env-1', { ...payload, operations }, { resource, captureContent: false }).filter(
      (s) => s.name === 'invoke_agent subagent',
    );
    expect(subagents.map((s) => s.attributes)).toEqual([
      expect.objectContaining({
        'hookgate.session_id': 'sess_1:sub:1',
        'hookgate.platform': 'local',
        'hookgate.chat_id': 'c1',
        'gen_ai.usage.input_tokens': 27,
        'gen_ai.usage.output_tokens': 5,
      }),
      expect.objectContaining({
        'hookgate.session_id': 'sess_1:sub:2',
        'gen_ai.usage.input_tokens': 7,
        'gen_ai.usage.output_tokens': 1,
      }),
    ]);
    // The root's total is the turn's: its own call and every subagent's.
    const [root] = turnTraceSpans('env-1', { ...payload, operations }, { resource, captureContent: false });
    expect(root!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 39, 'gen_ai.usage.output_tokens': 8 });
    // The first subagent's only call failed without usage: its total is left out, as the root's is.
    expect(byName('invoke_agent subagent')[0]!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });

  it('gives the same ids for the same envelope, other span ids for another envelope of the same turn', () => {
    const again = turnTraceSpans('env-1', payload, { resource, captureContent: false });
    expect(again.map((s) => s.spanContext().spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
    const resumed = turnTraceSpans('env-2', { ...payload, resumed: true }, { resource, captureContent: false });
    expect(resumed[0]!.spanContext().traceId).toBe(spans[0]!.spanContext().traceId);
    expect(resumed[0]!.parentSpanContext?.spanId).toBe(spans[0]!.spanContext().spanId);
    const ids = new Set([...spans, ...resumed].map((s) => s.spanContext().spanId));
    expect(ids.size).toBe(spans.length * 2);
  });
});

describe('createTelemetryExport over OTLP/HTTP JSON', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  it('exports the spans and the metrics with the configured headers', async () => {
    const telemetry = await createTelemetryExport({
      otlp: { endpoint: receiver.url, headers: { 'x-api-key': 'k-123' }, protocol: 'http/json' },
      emf: false,
      captureContent: () => false,
    });
    await telemetry!.record('env-9', payload);
    expect(receiver.spans).toHaveLength(payload.operations.length + 1);
    expect(receiver.contentTypes[0]).toBe('application/json');
    expect(receiver.headers[0]!['x-api-key']).toBe('k-123');
    await telemetry!.flush();
    await until(() => receiver.metrics.length > 0, 'metrics');
    const metric = (name: string) => receiver.metrics.find((m) => m.name === name);
    expect(metric('hookgate.turns')?.points[0]?.value).toBe(1);
    expect(
      metric('hookgate.hook.blocks')?.points.find((p) => p.attributes['hookgate.hook.name'] === 'pre_tool_call')?.value,
    ).toBe(1);
    expect(metric('hookgate.hook.duration')?.points.length).toBe(2);
    await telemetry!.shutdown();
  });

  it('fails the record when the endpoint refuses, so the event is retried', async () => {
    const telemetry = await createTelemetryExport({
      otlp: { endpoint: `${receiver.url}/nowhere`, headers: {}, protocol: 'http/protobuf' },
      emf: false,
      captureContent: () => false,
    });
    await expect(telemetry!.record('env-10', payload)).rejects.toThrow(/OTLP span export failed/);
    await telemetry!.shutdown();
  });
});
