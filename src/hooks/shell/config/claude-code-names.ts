/**
 * Claude Code's hook event and tool names against hookgate's (docs/reference/claude-code.md).
 * Used by `hookgate hooks import --from-claude` and by the `payload: claude` stdin.
 */

/** Claude Code event → the hookgate event its hooks are imported under. */
export const CLAUDE_EVENT_TO_HOOKGATE: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_call',
  PostToolUse: 'post_tool_call',
  // Written with `claude_event:` so that each fires only for its own results (claude-event-gate.ts).
  PostToolUseFailure: 'post_tool_call',
  UserPromptSubmit: 'pre_llm_call',
  // Claude Code's Stop fires when the agent finishes answering, i.e. once per turn: so does on_session_end.
  Stop: 'on_session_end',
  SubagentStop: 'subagent_stop',
  SessionStart: 'on_session_start',
  SessionEnd: 'on_session_finalize',
  // A dangerous command waiting for the user's approval is Claude Code's permission prompt:
  // Notification observes it, PermissionRequest answers it (permission-request.ts).
  Notification: 'pre_approval_request',
  PermissionRequest: 'pre_approval_request',
};

/** Claude Code events that share a hookgate event: the import writes `claude_event:` for them. */
export const CLAUDE_EVENTS_NEEDING_NAME: ReadonlySet<string> = new Set([
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'PermissionRequest',
]);

/** Why a Claude Code event has no hookgate counterpart (shown by the import). */
export const CLAUDE_EVENT_NOT_IMPORTABLE: Readonly<Record<string, string>> = {
  PreCompact: 'hookgate does not compact the context',
  PostCompact: 'hookgate does not compact the context',
  SubagentStart: 'hookgate has no event before a child agent starts (subagent_stop fires when it ends)',
  StopFailure: 'a failed turn has no event of its own in hookgate',
};

/**
 * What an imported hook of these Claude Code events cannot do in hookgate, noted on its import
 * row: SessionStart hooks exist to add context, and on_session_start is an observer (hook-semantics
 * §3.7), so the import must not read as if the script will work as before.
 */
export const CLAUDE_EVENT_IMPORT_CAVEAT: Readonly<Record<string, string>> = {
  SessionStart:
    'on_session_start only observes: context the hook prints (plain or additionalContext) does not reach the model; add it from a UserPromptSubmit hook instead',
};

/**
 * What a matcher on these non-tool Claude Code events is matched against, and every value that
 * field has in the payloads hookgate sends: a SessionStart is always a `startup`, a Notification
 * a `permission_prompt`, a PermissionRequest one for `Bash`. The import keeps a hook whose matcher
 * matches one of them (with no matcher: it would always match) and leaves out one that never could.
 */
export const CLAUDE_MATCHED_FIELD: Readonly<Record<string, { field: string; values: readonly string[] }>> = {
  SessionStart: { field: 'source', values: ['startup'] },
  Notification: { field: 'notification_type', values: ['permission_prompt'] },
  PermissionRequest: { field: 'tool_name', values: ['Bash'] },
};

/** hookgate event → the `hook_event_name` a `payload: claude` hook receives. */
export const HOOKGATE_EVENT_TO_CLAUDE: Readonly<Record<string, string>> = {
  pre_tool_call: 'PreToolUse',
  post_tool_call: 'PostToolUse',
  pre_llm_call: 'UserPromptSubmit',
  on_session_end: 'Stop',
  subagent_stop: 'SubagentStop',
  on_session_start: 'SessionStart',
  on_session_finalize: 'SessionEnd',
  pre_approval_request: 'Notification',
};

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
