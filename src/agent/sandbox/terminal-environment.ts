/** The variables the terminal's child always gets (hook-semantics §5.8), besides every `LC_*`. */
export const TERMINAL_ENV_ALLOWLIST: readonly string[] = ['PATH', 'HOME', 'LANG', 'TZ', 'TERM', 'TMPDIR'];

/**
 * The environment of the terminal tool's child — what a chat user steers: only the short
 * allowlist (`PATH`, `HOME`, `LANG`, `LC_*`, `TZ`, `TERM`, `TMPDIR`) and the names the operator
 * lists in `terminal.env_passthrough`, each where it is set. Nothing else of the process's
 * environment (credentials, tokens, keys) reaches it.
 *
 * @example
 * terminalEnvironment(['GOPATH'], { PATH: '/usr/bin', GOPATH: '/go', AWS_SECRET_ACCESS_KEY: 'x' })
 * // { PATH: '/usr/bin', GOPATH: '/go' }
 */
export function terminalEnvironment(
  passthrough: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of [...TERMINAL_ENV_ALLOWLIST, ...passthrough]) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('LC_') && value !== undefined) out[name] = value;
  }
  return out;
}
