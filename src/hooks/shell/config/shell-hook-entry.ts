/**
 * One parsed, validated `hooks:` entry of `config.yaml` (hook-semantics §3.1–§3.3, §5.1, §5.4).
 */
export interface ShellHookEntry {
  /** One of the 19 valid event names. */
  readonly event: string;
  /** The configured command, trimmed: the hook's identity (callback name, allowlist key). */
  readonly command: string;
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
