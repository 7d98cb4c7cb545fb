import { existsSync } from 'node:fs';
import { isPlainObject, isTruthy } from '../python-truthiness.ts';
import { renderWireJson } from '../wire-json.ts';
import { HOOKGATE_EVENT_TO_CLAUDE, HOOKGATE_TOOL_TO_CLAUDE } from './config/claude-code-names.ts';
import { PayloadSerialisationError } from './spawn/shell-errors.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * The stdin of a `payload: claude` shell hook: Claude Code's hook input shape, so scripts
 * written for Claude Code read what they expect (docs/reference/claude-code.md). Common
 * fields `session_id`, `transcript_path` (only when kwargs name a transcript file that
 * exists), `cwd`, `permission_mode` (`"default"`), `hook_event_name` (`PreToolUse` …; an
 * event with no Claude Code name keeps hookgate's), then the event's own fields:
 *
 * | event | fields |
 * |---|---|
 * | PreToolUse | `tool_name` (`Bash`, `Read`, `Write`, `Edit`, `Task`; other tools keep their name), `tool_input` (Claude Code's field names), `tool_use_id` |
 * | PostToolUse | the same plus `tool_response` (the result, parsed when it is a JSON object) |
 * | PostToolUseFailure | PreToolUse's plus `error` (the tool's error message) and `is_interrupt: false` |
 * | PermissionRequest | `tool_name: "Bash"`, `tool_input: {command, description}` (the command waiting for approval) |
 * | Notification | `message`, `notification_type: "permission_prompt"` |
 * | UserPromptSubmit | `prompt` |
 * | Stop, SubagentStop | `stop_hook_active: false` |
 * | SessionStart | `source: "startup"` |
 * | SessionEnd | `reason` |
 *
 * Throws {@link PayloadSerialisationError} when the kwargs cannot be rendered.
 *
 * @example
 * renderClaudePayload('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's-1', tool_call_id: 'c-1' }, '/proj')
 * // '{"session_id": "s-1", "cwd": "/proj", "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c-1"}'
 */
export function renderClaudePayload(event: string, kwargs: Record<string, unknown>, cwd: string, eventName?: string): string {
  const sessionId = isTruthy(kwargs.session_id)
    ? kwargs.session_id
    : isTruthy(kwargs.parent_session_id)
      ? kwargs.parent_session_id
      : '';
  const payload: Record<string, unknown> = { session_id: sessionId };
  const transcript = kwargs.transcript_path;
  if (typeof transcript === 'string' && transcript !== '' && existsSync(transcript)) payload.transcript_path = transcript;
  payload.cwd = cwd;
  payload.permission_mode = 'default';
  const name = eventName ?? HOOKGATE_EVENT_TO_CLAUDE[event] ?? event;
  payload.hook_event_name = name;
  Object.assign(payload, eventFields(event, kwargs, name));
  try {
    return renderWireJson(payload);
  } catch (error) {
    throw new PayloadSerialisationError(errorText(error));
  }
}

function eventFields(event: string, kwargs: Record<string, unknown>, name: string): Record<string, unknown> {
  if (name === 'PermissionRequest' || name === 'Notification') {
    const command = typeof kwargs.command === 'string' ? kwargs.command : '';
    const description = typeof kwargs.description === 'string' ? kwargs.description : '';
    if (name === 'Notification') {
      return {
        message: `hookgate needs your permission to use Bash (${description || 'a dangerous command'}): ${command}`,
        notification_type: 'permission_prompt',
      };
    }
    return { tool_name: 'Bash', tool_input: { command, description } };
  }
  switch (event) {
    case 'pre_tool_call':
    case 'post_tool_call': {
      const tool = typeof kwargs.tool_name === 'string' ? kwargs.tool_name : '';
      const fields: Record<string, unknown> = {
        tool_name: HOOKGATE_TOOL_TO_CLAUDE[tool] ?? kwargs.tool_name ?? null,
        tool_input: claudeToolInput(tool, isPlainObject(kwargs.args) ? kwargs.args : {}),
        tool_use_id: typeof kwargs.tool_call_id === 'string' ? kwargs.tool_call_id : '',
      };
      if (name === 'PostToolUseFailure') {
        fields.error = typeof kwargs.error_message === 'string' ? kwargs.error_message : String(kwargs.result ?? '');
        fields.is_interrupt = false;
      } else if (event === 'post_tool_call') fields.tool_response = toolResponse(kwargs.result);
      return fields;
    }
    case 'pre_llm_call':
      return { prompt: typeof kwargs.user_message === 'string' ? kwargs.user_message : '' };
    case 'on_session_end':
    case 'subagent_stop':
      return { stop_hook_active: false };
    case 'on_session_start':
      return { source: 'startup' };
    case 'on_session_finalize':
      return { reason: typeof kwargs.reason === 'string' ? kwargs.reason : 'other' };
    default:
      return {};
  }
}

/** hookgate tool arguments under Claude Code's field names; unknown fields are kept as they are. */
export function claudeToolInput(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const { path, ...rest } = args;
  switch (tool) {
    case 'terminal': {
      // Claude Code's Bash timeout is in milliseconds, hookgate's terminal timeout in seconds.
      const { timeout, ...others } = args;
      return typeof timeout === 'number' ? { ...others, timeout: timeout * 1000 } : others;
    }
    case 'read_file':
    case 'write_file':
    case 'patch':
      return path === undefined ? rest : { file_path: path, ...rest };
    case 'delegate_task': {
      const { goal, ...others } = args;
      return goal === undefined ? others : { description: goal, prompt: goal, ...others };
    }
    default:
      return args;
  }
}

function toolResponse(result: unknown): unknown {
  if (typeof result !== 'string') return result ?? null;
  try {
    const parsed: unknown = JSON.parse(result);
    return isPlainObject(parsed) ? parsed : result;
  } catch {
    return result;
  }
}

/**
 * The inverse of {@link claudeToolInput}: Claude Code's field names (an `updatedInput`) back
 * to hookgate's for `tool` (hook-semantics §5.10). Unknown fields are kept as they are.
 *
 * @example
 * hookgateToolInput('write_file', { file_path: 'a.txt', content: 'x' }) // { path: 'a.txt', content: 'x' }
 */
export function hookgateToolInput(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  switch (tool) {
    case 'terminal': {
      const { timeout, ...others } = input;
      return typeof timeout === 'number' ? { ...others, timeout: Math.ceil(timeout / 1000) } : others;
    }
    case 'read_file':
    case 'write_file':
    case 'patch': {
      const { file_path, ...rest } = input;
      return file_path === undefined ? rest : { path: file_path, ...rest };
    }
    case 'delegate_task': {
      const { description, prompt, ...others } = input;
      const goal = prompt ?? description;
      return goal === undefined ? others : { goal, ...others };
    }
    default:
      return input;
  }
}
