/**
 * Terminal commands that need the user's yes before they run (issue 6 item 4). Each row
 * has a stable `key` (what `/approve session|always` grants are remembered under) and the
 * description shown in the chat and passed to the approval hooks.
 *
 * | key                     | what it catches                                                  |
 * |-------------------------|------------------------------------------------------------------|
 * | `recursive_delete`      | `rm -r`/`-rf` of `/`, `~`, `$HOME`, `*`, `.`, `..` or a top-level system dir |
 * | `sudo`                  | `sudo`, `doas`, `su -c`                                          |
 * | `world_writable_chmod`  | `chmod -R 777` (or `a+rwx`) recursively                          |
 * | `pipe_to_shell`         | `curl …` / `wget …` piped into `sh`, `bash`, `zsh`, `python`, …   |
 * | `make_filesystem`       | `mkfs`, `mkfs.*`, `mke2fs`, `wipefs`                             |
 * | `raw_disk_write`        | `dd … of=/dev/…`, `> /dev/sd*`, `shred /dev/…`                   |
 * | `fork_bomb`             | `:(){ :|:& };:` and its look-alikes                              |
 * | `system_shutdown`       | `shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`             |
 * | `recursive_chown_root`  | `chown -R` of `/` or a top-level system dir                      |
 * | `git_force_push`        | `git push --force` / `-f` (rewrites shared history)              |
 * | `kill_all`              | `kill -9 -1`, `pkill -9 .`, `killall5`                           |
 */
export interface DangerousPattern {
  readonly key: string;
  readonly description: string;
  readonly pattern: RegExp;
}

const BROAD_PATH = String.raw`(?:\/|~\/?|\$HOME\/?|\*|\.\/?|\.\.\/?|\/\*|\/(?:bin|boot|dev|etc|home|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var)\/?)`;
const END = String.raw`(?=$|[\s;&|)])`;
// Command position: the start, or after `;`, `&`, `|`, `(` or a backtick (so `echo sudo` is harmless).
const CMD = String.raw`(?:^\s*|[;&|(\x60]\s*)`;

export const DANGEROUS_PATTERNS: readonly DangerousPattern[] = [
  {
    key: 'recursive_delete',
    description: 'recursive delete of a broad path',
    pattern: new RegExp(String.raw`${CMD}rm\s+(?:-[A-Za-z]*\s+)*(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)(?:\s+-[A-Za-z-]+)*\s+(?:["']?)${BROAD_PATH}(?:["']?)${END}`),
  },
  { key: 'sudo', description: 'runs a command as root', pattern: new RegExp(String.raw`${CMD}(?:sudo|doas)\b|${CMD}su\s+(?:-\s+)?(?:root\s+)?-c\b`) },
  {
    key: 'world_writable_chmod',
    description: 'recursively makes files world-writable',
    pattern: new RegExp(String.raw`${CMD}chmod\s+(?:-[A-Za-z]*\s+)*(?:-[A-Za-z]*R[A-Za-z]*|--recursive)\s+(?:-[A-Za-z]+\s+)*(?:0?777|a\+rwx|ugo\+rwx)\b`),
  },
  {
    key: 'pipe_to_shell',
    description: 'pipes a downloaded script into a shell',
    pattern: new RegExp(String.raw`\b(?:curl|wget|fetch)\b[^|;&]*\|\s*(?:sudo\s+)?(?:sh|bash|zsh|dash|ksh|fish|python3?|perl|ruby|node)\b`),
  },
  { key: 'make_filesystem', description: 'creates or wipes a filesystem', pattern: new RegExp(String.raw`${CMD}(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|wipefs)\b`) },
  {
    key: 'raw_disk_write',
    description: 'writes raw data to a device',
    pattern: new RegExp(String.raw`${CMD}dd\b[^;&|]*\bof=\/dev\/|>\s*\/dev\/(?:sd|hd|nvme|vd|xvd|disk|mmcblk)|${CMD}shred\b[^;&|]*\/dev\/`),
  },
  { key: 'fork_bomb', description: 'fork bomb', pattern: /(\w+|:)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&[^}]*\}\s*;?\s*\1/ },
  { key: 'system_shutdown', description: 'shuts down or reboots the machine', pattern: new RegExp(String.raw`${CMD}(?:shutdown|reboot|halt|poweroff)\b|${CMD}init\s+[06]\b`) },
  {
    key: 'recursive_chown_root',
    description: 'recursively changes the owner of a system path',
    pattern: new RegExp(String.raw`${CMD}chown\s+(?:-[A-Za-z]*\s+)*(?:-[A-Za-z]*R[A-Za-z]*|--recursive)\s+\S+\s+${BROAD_PATH}${END}`),
  },
  { key: 'git_force_push', description: 'force-pushes (rewrites shared history)', pattern: /\bgit\s+push\b[^;&|]*\s(?:--force\b|-f\b|--force-with-lease\b)/ },
  { key: 'kill_all', description: 'kills every process', pattern: new RegExp(String.raw`${CMD}kill\s+-(?:9|KILL)\s+-1\b|${CMD}killall5\b|${CMD}pkill\s+-9\s+\.`) },
];

export interface DangerousMatch {
  /** The first matching row's key and description (the approval's headline). */
  pattern_key: string;
  description: string;
  /** Every matching row's key, table order. */
  pattern_keys: string[];
}

/**
 * The dangerous patterns a terminal command matches, or undefined when it is harmless.
 *
 * @example
 * detectDangerousCommand('rm -rf /') // { pattern_key: 'recursive_delete', … }
 * detectDangerousCommand('ls -la')   // undefined
 */
export function detectDangerousCommand(command: string): DangerousMatch | undefined {
  const matches = DANGEROUS_PATTERNS.filter((row) => row.pattern.test(command));
  if (matches.length === 0) return undefined;
  return { pattern_key: matches[0]!.key, description: matches[0]!.description, pattern_keys: matches.map((row) => row.key) };
}
