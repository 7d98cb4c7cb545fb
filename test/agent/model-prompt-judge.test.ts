import { afterEach, describe, expect, it } from 'vitest';
import { modelPromptJudge } from '../../src/agent/model/model-prompt-judge.ts';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.ts';

describe('modelPromptJudge (type: prompt hooks on the deployment model, §5.10)', () => {
  let model: FakeModelServer | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  it('is absent without a model endpoint: the engine then judges with the stand-in', () => {
    expect(modelPromptJudge({})).toBeUndefined();
    expect(modelPromptJudge({ name: 'gpt-x', apiKey: 'k' })).toBeUndefined();
  });

  it("asks the entry's model, else the deployment's, with the instruction and the hook input", async () => {
    model = await startFakeModelServer();
    model.script({ content: '{"decision": "allow"}' }, { content: '{"decision": "block", "reason": "no"}' });
    const judge = modelPromptJudge({ name: 'deployment-model', baseUrl: model.baseUrl, apiKey: 'sk-test' })!;
    const ask = (extra: { model?: string }) =>
      judge({
        prompt: 'Block deletes.',
        event: 'pre_tool_call',
        input: '{"tool_name":"terminal"}',
        signal: AbortSignal.timeout(5_000),
        ...extra,
      });

    // Concurrent first calls: the transport loads once per model, and both are answered.
    const answers = await Promise.all([ask({}), ask({ model: 'judge-model' })]);
    expect(answers.sort()).toEqual(['{"decision": "allow"}', '{"decision": "block", "reason": "no"}']);
    expect(model.requests.map((r) => r.body.model).sort()).toEqual(['deployment-model', 'judge-model']);
    for (const request of model.requests) {
      expect(request.headers.authorization).toBe('Bearer sk-test');
      expect(request.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(request.body.messages[0]!.content).toContain('Block deletes.');
      expect(request.body.messages[1]!.content).toBe('{"tool_name":"terminal"}');
    }
  });
});
