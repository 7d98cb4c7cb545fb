/**
 * Claude Code's hook event and tool names against hookgate's (docs/reference/claude-code.md).
 * Used by `hookgate hooks import --from-claude` and by the `payload: claude` stdin.
 */

/** Claude Code event → the hookgate event its hooks are imported under. */
export const CLAUDE_EVENT_TO_HOOKGATE: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_call',
  PostToolUse: 'post_tool_call',
  UserPromptSubmit: 'pre_llm_call',
  // Claude Code's Stop fires when the agent finishes answering, i.e. once per turn: so does on_session_end.
  Stop: 'on_session_end',
  SubagentStop: 'subagent_stop',
  SessionStart: 'on_session_start',
  SessionEnd: 'on_session_finalize',
};

/** Why a Claude Code event has no hookgate counterpart (shown by the import). */
export const CLAUDE_EVENT_NOT_IMPORTABLE: Readonly<Record<string, string>> = {
  Notification: 'hookgate has no notification event (its approvals are chat messages; observe them with pre_approval_request)',
  PermissionRequest: 'approvals are answered in the chat; pre_approval_request is an observer and cannot decide',
  PostToolUseFailure: 'a failed tool call fires post_tool_call with status "error"; import it as PostToolUse to see every result',
  PreCompact: 'hookgate does not compact the context',
  PostCompact: 'hookgate does not compact the context',
  SubagentStart: 'hookgate has no event before a child agent starts (subagent_stop fires when it ends)',
  StopFailure: 'a failed turn has no event of its own in hookgate',
};

/** hookgate event → the `hook_event_name` a `payload: claude` hook receives. */
export const HOOKGATE_EVENT_TO_CLAUDE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CLAUDE_EVENT_TO_HOOKGATE).map(([claude, hookgate]) => [hookgate, claude]),
);

/** Claude Code tool → hookgate tool (matchers are rewritten with it). */
export const CLAUDE_TOOL_TO_HOOKGATE: Readonly<Record<string, string>> = {
  Bash: 'terminal',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'patch',
  MultiEdit: 'patch',
  Task: 'delegate_task',
};

/** hookgate tool → the `tool_name` a `payload: claude` hook receives. */
export const HOOKGATE_TOOL_TO_CLAUDE: Readonly<Record<string, string>> = {
  terminal: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  patch: 'Edit',
  delegate_task: 'Task',
};
