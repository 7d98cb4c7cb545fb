/** What a `hooks:` entry runs (hook-semantics §5.10): a command (no `type`), a URL, or a model prompt. */
export type HookEntryType = 'command' | 'http' | 'prompt';

/**
 * One parsed, validated `hooks:` entry of `config.yaml` (hook-semantics §3.1–§3.3, §5.1, §5.4,
 * §5.10). An http or prompt entry has the same fields; its `command` is its identity: the URL
 * (the consent key, docs/reference/http-hooks.md) or `prompt: <text>`.
 */
export interface ShellHookEntry {
  /** One of the 19 valid event names. */
  readonly event: string;
  /** The configured command, trimmed: the hook's identity (callback name, allowlist key). For http: the URL. */
  readonly command: string;
  /** Absent: `command` (an entry without `type`). */
  readonly type?: HookEntryType;
  /** http: extra request headers (`headers:`), names as written. */
  readonly headers?: Readonly<Record<string, string>>;
  /** prompt: the instruction the model judges the hook input by. */
  readonly prompt?: string;
  /** prompt: the model to ask (`model:`); absent = the deployment's model. */
  readonly model?: string;
  /**
   * `payload: claude` entries only: the Claude Code event the entry was written for, when one
   * hookgate event stands for several (`PostToolUse` / `PostToolUseFailure` on post_tool_call,
   * `Notification` / `PermissionRequest` on pre_approval_request; docs/reference/claude-code.md).
   */
  readonly claudeEvent?: string;
  /**
   * What is spawned when it differs from `command`: a deployed home's script at its bundled
   * location (see bundled-shell-command.ts). Absent: `command` itself.
   */
  readonly runCommand?: string;
  /** The trimmed matcher pattern, or `null` (matches every tool name). */
  readonly matcher: string | null;
  /** Seconds, 1..300 (default 60). */
  readonly timeout: number;
  /** `false` only when the config says exactly `enabled: false` (§5.4). */
  readonly enabled: boolean;
  /** `true` only for `fail_closed: true` on `pre_tool_call` (§5.1). */
  readonly failClosed: boolean;
  /**
   * `claude` (config `payload: claude`, set by `hookgate hooks import --from-claude`): stdin in
   * Claude Code's shape and `CLAUDE_PROJECT_DIR` set (claude-payload.ts). Absent: Hermes's §3.6.
   */
  readonly payload?: 'claude';
  /** Full-match test of a tool name against the matcher (§3.3). */
  readonly matches: (toolName: unknown) => boolean;
}
