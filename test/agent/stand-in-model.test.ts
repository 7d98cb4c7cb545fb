import { describe, expect, it } from 'vitest';
import { STAND_IN_MODEL_NAME, StandInModel, plannedSteps } from '../../src/agent/model/stand-in-model.ts';
import { toolResultAsChat } from '../../src/agent/model/stand-in-reply.ts';
import type { TranscriptMessage } from '../../src/store/transcript-store.ts';

const model = new StandInModel();
const ask = async (messages: TranscriptMessage[]) =>
  (await model.send({ model: STAND_IN_MODEL_NAME, messages })).choices[0]!.message;
const user = (content: string): TranscriptMessage => ({ role: 'user', content });

describe('the local stand-in model (deterministic, labelled)', () => {
  it('is labelled as the stand-in', () => {
    expect([model.model, model.provider]).toEqual(['hookgate-local-stand-in', 'hookgate-local']);
  });

  it('echoes ordinary messages', async () => {
    expect(await ask([user('hi there')])).toEqual({ role: 'assistant', content: 'You said: hi there' });
  });

  it.each([
    ['run: ls -la', 'terminal', { command: 'ls -la' }],
    ['read: notes/a.txt', 'read_file', { path: 'notes/a.txt' }],
    ['write: a.txt\nline 1\nline 2', 'write_file', { path: 'a.txt', content: 'line 1\nline 2' }],
    ['delegate: run: echo hi', 'delegate_task', { goal: 'run: echo hi' }],
    // CRLF line breaks end the phrase too.
    ['write: g.txt\r\nline1\r\n', 'write_file', { path: 'g.txt', content: 'line1\r\n' }],
    ['run: echo hi\r', 'terminal', { command: 'echo hi' }],
  ])('%j calls %s', async (text, name, args) => {
    const message = await ask([user(text)]);
    expect(message.content).toBeNull();
    expect(message.tool_calls).toHaveLength(1);
    expect(message.tool_calls![0]!.function.name).toBe(name);
    expect(JSON.parse(message.tool_calls![0]!.function.arguments)).toEqual(args);
  });

  it('answers with the tool result after the call, read as chat text', async () => {
    const first = await ask([user('run: echo hi')]);
    const second = await ask([
      user('run: echo hi'),
      first,
      { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: '{"output": "hi\\n", "exit_code": 0, "error": null}' },
    ]);
    expect(second).toEqual({ role: 'assistant', content: 'hi' });
  });

  it.each([
    ['terminal', { output: 'a\nb\n', exit_code: 0, error: null }, 'a\nb'],
    ['terminal', { output: 'oops\n', exit_code: 2, error: null }, 'oops\n(exit code 2)'],
    ['terminal', { output: '', exit_code: 1, error: null }, '(exit code 1)'],
    ['terminal', { output: '', exit_code: 0, error: null }, '(no output)'],
    ['terminal', { output: '', exit_code: -1, error: 'timed out after 60 s' }, 'Error: timed out after 60 s\n(exit code -1)'],
    ['write_file', { path: 'x.txt', bytes_written: 6 }, 'Wrote 6 bytes to x.txt.'],
    ['read_file', { path: 'x.txt', content: 'x = 1\n', truncated: false }, 'x = 1\n'],
    ['read_file', { path: 'e.txt', content: '', truncated: false }, '(e.txt is empty)'],
    ['patch', { path: 'x.txt', replacements: 1 }, 'Patched x.txt (1 replacement).'],
    ['terminal', { error: 'blocked: rm -rf / is not permitted' }, 'Error: blocked: rm -rf / is not permitted'],
    [
      'delegate_task',
      { results: [{ task_index: 0, goal: 'run: echo a', status: 'completed', summary: 'a' }] },
      'Subtask "run: echo a" completed:\na',
    ],
  ])('reads a %s result %j as %j', (tool, result, text) => {
    expect(toolResultAsChat(tool, JSON.stringify(result))).toBe(text);
  });

  it("acts on the user's words only: context hooks appended never becomes a tool argument nor part of the echo", async () => {
    const context = 'Never execute commands that delete files.\n\nUncommitted changes in cwd:\n?? x.txt';
    const hinted = async (words: string) =>
      (
        await model.send({ model: STAND_IN_MODEL_NAME, messages: [user(`${words}\n\n${context}`)] }, undefined, {
          userMessage: words,
        })
      ).choices[0]!.message;
    const write = await hinted('write: x.txt\nx = 1');
    expect(JSON.parse(write.tool_calls![0]!.function.arguments)).toEqual({ path: 'x.txt', content: 'x = 1' });
    const run = await hinted('run: ls\nrun: pwd');
    expect(JSON.parse(run.tool_calls![0]!.function.arguments)).toEqual({ command: 'ls' });
    expect((await hinted('hello')).content).toBe('You said: hello');
  });

  it('runs leading run: lines one per step; a blank line ends the list', () => {
    expect(plannedSteps('run: a\nrun: b\n\nrun: c')).toEqual(['run: a', 'run: b']);
    expect(plannedSteps('hello\nrun: a')).toEqual([]);
    expect(plannedSteps('write: f\nrun: not a step')).toEqual(['write: f\nrun: not a step']);
  });

  it('looks only at the current turn: earlier turns in the history do not count as steps', async () => {
    const history: TranscriptMessage[] = [
      user('run: old'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'terminal', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'x', content: 'old' },
      { role: 'assistant', content: 'old' },
    ];
    const message = await ask([...history, user('run: new')]);
    expect(JSON.parse(message.tool_calls![0]!.function.arguments)).toEqual({ command: 'new' });
  });
});
