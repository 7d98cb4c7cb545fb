import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevEndpoints } from '../../src/local/dev-endpoints.ts';
import { addTelemetrySubscriber } from '../support/telemetry-subscriber.ts';
import { TURN_TRACE_EVENT } from '../../src/telemetry/turn-trace-event.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { until } from '../support/until.ts';

let otlp: OtlpReceiver;
let model: FakeModelServer;
let home: string;
let dev: DevChild;
let url: string;

/** Polls until `probe` gives a value (the upper bound is a failure, not a timing assertion). */
const eventually = <T>(probe: () => T | undefined | Promise<T | undefined>, what: () => string, timeoutMs = 30_000) =>
  until(probe, 'a value', {
    timeoutMs,
    everyMs: 50,
    context: () => `(${what()})\nstdout:\n${dev.stdout()}\nstderr:\n${dev.stderr()}`,
  });

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'hookgate-otlp-'));
  // One plugin with a decision hook on the tool call, so a hook span sits under execute_tool.
  await mkdir(join(home, 'plugins', 'watch-tools'), { recursive: true });
  await writeFile(
    join(home, 'plugins', 'watch-tools', 'plugin.yaml'),
    'name: watch-tools\nversion: 1.0.0\nprovides_hooks: [pre_tool_call]\n',
  );
  await writeFile(
    join(home, 'plugins', 'watch-tools', 'index.ts'),
    "export function register(ctx: any) {\n  ctx.register_hook('pre_tool_call', function watchTool() { return null; });\n}\n",
  );
  await writeFile(join(home, 'config.yaml'), 'plugins:\n  enabled: [watch-tools]\ntelemetry:\n  capture_content: true\n');
  otlp = await startOtlpReceiver();
  model = await startFakeModelServer();
  model.script(
    { tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' }, id: 'call_read' }] },
    { content: 'There is no notes.txt here.' },
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOOKGATE_LOG_LEVEL: 'warn',
    HOOKGATE_MODEL: 'fake-model',
    HOOKGATE_MODEL_BASE_URL: model.baseUrl,
    HOOKGATE_MODEL_API_KEY: 'sk-fake-key-for-the-test',
  };
  delete env.HOOKGATE_HOME;
  delete env.HOOKGATE_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_PROTOCOL;
  dev = await startDevChild(['--home', home, '--otlp', otlp.url], { cwd: process.cwd(), env, timeoutMs: 40_000 });
  url = dev.url;
}, 60_000);

afterAll(async () => {
  await dev?.stop('SIGTERM', { killAfterMs: 10_000 });
  await otlp?.close();
  await model?.close();
  await rm(home, { recursive: true, force: true });
});

describe('hookgate dev --otlp', () => {
  it('says where telemetry goes', () => {
    expect(dev.stdout()).toContain(`telemetry: OTLP (http/protobuf) to ${otlp.url}`);
  });

  it("exports one turn's span tree with GenAI attributes, and a redelivered event makes no second span", async () => {
    const endpoints = await readDevEndpoints(home);
    if (!endpoints) throw new Error('no dev endpoints file');
    // A subscriber of our own sees the envelope, so the test can deliver it a second time.
    const tap = await addTelemetrySubscriber(endpoints, { name: 'otlp-test', eventTypes: [TURN_TRACE_EVENT] });
    const response = await fetch(`${url}/webhooks/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 'otlp-chat', user_id: 'u1', text: 'read my notes' }),
    });
    expect(response.status).toBe(202);

    const root = await eventually(
      () => otlp.spans.find((s) => s.name === 'invoke_agent hookgate'),
      () => 'the root span',
    );
    const trace = otlp.spans.filter((s) => s.traceId === root.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const childrenOf = (span: ReceivedSpan) => trace.filter((s) => s.parentSpanId === span.spanId);

    // The tree: invoke_agent → chat ×2 and execute_tool → hook pre_tool_call; every parent is in the trace.
    expect(root.parentSpanId).toBe('');
    for (const span of trace) if (span !== root) expect(byId.has(span.parentSpanId), `${span.name}'s parent`).toBe(true);
    const chats = childrenOf(root).filter((s) => s.name === 'chat fake-model');
    expect(chats).toHaveLength(2);
    const [tool] = childrenOf(root).filter((s) => s.name === 'execute_tool read_file');
    expect(tool).toBeDefined();
    const toolHooks = childrenOf(tool!).filter((s) => s.name === 'hook pre_tool_call');
    expect(toolHooks).toHaveLength(1);
    expect(toolHooks[0]!.attributes).toMatchObject({
      'hookgate.hook.name': 'pre_tool_call',
      'hookgate.hook.system': 'plugin',
      'hookgate.hook.callback': 'watchTool',
    });
    // A decision hook no callback answered gives no span (pre_llm_call here: no plugin takes it); an
    // emission handed to the pipeline does, under the turn itself (docs/telemetry.md §2).
    expect(trace.some((s) => s.name === 'hook pre_llm_call')).toBe(false);
    expect(childrenOf(root).some((s) => s.attributes['hookgate.hook.decision'] === 'emitted')).toBe(true);

    // GenAI semantic-convention attributes.
    const session = root.attributes['gen_ai.conversation.id'];
    expect(typeof session).toBe('string');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai-compatible',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.usage.input_tokens': 20,
      'gen_ai.usage.output_tokens': 10,
      'hookgate.turn.outcome': 'completed',
    });
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai-compatible',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.conversation.id': session,
    });
    expect(chats[0]!.kind).toBe(3); // CLIENT
    expect(tool!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call_read',
    });
    // capture_content is on in this home: the user message and the reply are on the root.
    expect(String(root.attributes['gen_ai.input.messages'])).toContain('read my notes');
    expect(String(root.attributes['gen_ai.output.messages'])).toContain('There is no notes.txt here.');
    // Children start within their parent.
    for (const span of trace) {
      const parent = byId.get(span.parentSpanId);
      if (parent) expect(span.startTimeUnixNano >= parent.startTimeUnixNano, `${span.name} starts in ${parent.name}`).toBe(true);
    }

    // Redeliver the very envelope to the observer's queue; once the queue is drained, no span is new.
    const before = otlp.spans.length;
    const sqs = new SQSClient({ region: endpoints.region, credentials: endpoints.credentials, endpoint: endpoints.sqsEndpoint });
    try {
      const received = await eventually(
        async () => {
          const out = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: tap.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
          );
          return out.Messages?.find(
            (m) => (JSON.parse(m.Body!) as { turn_id?: string }).turn_id === root.attributes['hookgate.turn_id'],
          );
        },
        () => 'the turn-trace envelope on the tap queue',
      );
      await sqs.send(new SendMessageCommand({ QueueUrl: endpoints.eventsQueueUrl, MessageBody: received.Body! }));
      await eventually(
        async () => {
          const { Attributes } = await sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: endpoints.eventsQueueUrl,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          );
          return Attributes?.ApproximateNumberOfMessages === '0' && Attributes.ApproximateNumberOfMessagesNotVisible === '0'
            ? true
            : undefined;
        },
        () => 'the events queue to drain',
      );
    } finally {
      sqs.destroy();
    }
    expect(otlp.spans.length).toBe(before);
    const ids = otlp.spans.map((s) => s.spanId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dev.stderr()).not.toMatch(/telemetry|OTLP/i);
  });
});
