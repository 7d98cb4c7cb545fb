import type { TranscriptMessage } from '../../store/transcript-store.ts';
import type { ChatCompletion, ChatRequest, ToolCall } from './chat-wire.ts';
import type { ModelCallHints, ModelTransport } from './model-transport.ts';
import { toolResultAsChat } from './stand-in-reply.ts';

/** The name under which the stand-in appears in hooks, logs and traces. */
export const STAND_IN_MODEL_NAME = 'hookgate-local-stand-in';
export const STAND_IN_PROVIDER = 'hookgate-local';
export const STAND_IN_BASE_URL = 'local://stand-in';

/**
 * The built-in local stand-in model (architecture §4): deterministic, no account, no
 * network. It is NOT a language model; it only maps fixed phrases to tool calls so every
 * hook can be seen firing:
 *
 * | message starts with           | it calls      |
 * |-------------------------------|---------------|
 * | `run: <command>`              | `terminal`    |
 * | `read: <path>`                | `read_file`   |
 * | `write: <path>` ⏎ content     | `write_file`  |
 * | `delegate: <task>`            | `delegate_task` (the child runs this stand-in on `<task>`) |
 *
 * A message whose leading lines are all `run: …` runs them one per iteration. After the
 * last tool result it answers with that result read as chat text (a command's output, with
 * a non-zero exit code noted; `Wrote N bytes to <path>.`…); any other message gets
 * `You said: <message>`. Context that hooks appended to the message (pre_llm_call) reaches
 * it like any model, but it acts on the user's words only: the context never becomes a
 * tool argument nor part of the echo.
 *
 * @example
 * const transport = new StandInModel();
 * await transport.send({ model: STAND_IN_MODEL_NAME, messages: [{ role: 'user', content: 'hi' }] });
 * // → choices[0].message.content === 'You said: hi'
 */
export class StandInModel implements ModelTransport {
  readonly model = STAND_IN_MODEL_NAME;
  readonly provider = STAND_IN_PROVIDER;
  readonly baseUrl = STAND_IN_BASE_URL;
  readonly apiMode = 'chat_completions' as const;

  async send(request: ChatRequest, _signal?: AbortSignal, hints: ModelCallHints = {}): Promise<ChatCompletion> {
    const userIndex = request.messages.findLastIndex((m) => m.role === 'user');
    const user = request.messages[userIndex];
    const content = user?.content;
    const words = typeof content === 'string' ? content : (content?.find((part) => part.type === 'text')?.text ?? '');
    const text = usersWords(words, hints.userMessage);
    const after = request.messages.slice(userIndex + 1);
    const stepsDone = after.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
    const callNumber = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const steps = plannedSteps(text);
    if (stepsDone < steps.length) {
      const call = toolCallFor(steps[stepsDone]!, `call_stand_in_${callNumber}`);
      if (call) return reply({ role: 'assistant', content: null, tool_calls: [call] }, 'tool_calls');
    }
    const lastTool = after.findLast((m) => m.role === 'tool');
    if (lastTool) {
      const call = after
        .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
        .find((c) => c.id === lastTool.tool_call_id);
      return reply(
        {
          role: 'assistant',
          content: toolResultAsChat(call?.function.name ?? '', typeof lastTool.content === 'string' ? lastTool.content : ''),
        },
        'stop',
      );
    }
    return reply({ role: 'assistant', content: `You said: ${text}` }, 'stop');
  }
}

/**
 * The user's own words: the API copy of the message is `<words>\n\n<context>` when hooks
 * added context (§1.9), and the turn tells the original words in its hints.
 */
function usersWords(content: string, userMessage: string | undefined): string {
  if (userMessage === undefined || content === userMessage) return content;
  return content.startsWith(`${userMessage}\n\n`) ? userMessage : content;
}

/**
 * The tool steps a message asks for, one per loop iteration: one for a phrase, and for a
 * message whose leading lines are all `run: …` one step per such line (so a long task can
 * be shown, e.g. ten `run:` lines make ten steps).
 */
export function plannedSteps(text: string): string[] {
  if (!/^(run|read|write|delegate):/.test(text)) return [];
  if (!text.startsWith('run:')) return [text];
  const lines = text.split('\n');
  const runs: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('run:')) break;
    runs.push(line);
  }
  return runs;
}

/** The tool call a fixed phrase asks for, or undefined for ordinary text. */
export function toolCallFor(text: string, id: string): ToolCall | undefined {
  // A CRLF line break (a Windows client, a Teams message) ends the phrase like a LF one.
  const rawFirstLine = text.split('\n', 1)[0] ?? '';
  const firstLine = rawFirstLine.replace(/\r$/, '');
  const phrase = /^(run|read|write|delegate):\s?(.*)$/.exec(firstLine);
  if (!phrase) return undefined;
  const [, verb, rest = ''] = phrase;
  const call = (name: string, args: Record<string, unknown>): ToolCall => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  switch (verb) {
    case 'run':
      return call('terminal', { command: rest.trim() });
    case 'read':
      return call('read_file', { path: rest.trim() });
    case 'write':
      return call('write_file', { path: rest.trim(), content: text.slice(rawFirstLine.length + 1) });
    default:
      return call('delegate_task', { goal: text.slice('delegate:'.length).trim() });
  }
}

function reply(message: TranscriptMessage & { role: 'assistant' }, finishReason: string): ChatCompletion {
  return {
    id: 'stand-in',
    model: STAND_IN_MODEL_NAME,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: message.content,
          ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
        },
        finish_reason: finishReason,
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
