import { selectToolSandbox } from '../agent/sandbox/select-tool-sandbox.ts';
import { toolPolicyFromConfig } from '../agent/tools/tool-policy.ts';
import type { HooksStatus } from '../console/console-data.ts';
import { enabledPlatforms, type DeploymentConfig } from '../config/deployment-config.ts';
import type { HookEngine } from '../hooks/hook-engine.ts';
import { createMemoryLogger } from '../hooks/hook-logger.ts';
import { shellWord } from '../hooks/shell/shell-word.ts';
import { shortApiTokenWarning } from '../config/short-api-token.ts';

/**
 * The banner lines of `hookgate dev` that say what the hooks home holds as it starts: the
 * plugins (loaded, or present but not enabled), the gateway hooks with their events (and the
 * `[hooks]` reason of any skipped), and every shell hook with its consent state and drift —
 * a shell hook that is not allowlisted does not run, and the line says how to approve it.
 *
 * @example
 * for (const line of loadedHooksLines(await data.hooks())) print(line);
 */
export function loadedHooksLines(status: HooksStatus): string[] {
  const lines: string[] = [];
  const enabled = status.plugins.filter((p) => p.enabled && p.failed === null);
  const idle = status.plugins.filter((p) => !p.enabled);
  lines.push(
    `  plugins: ${enabled.length > 0 ? enabled.map((p) => p.name).join(', ') : 'none loaded'}` +
      (idle.length > 0 ? `  (not enabled in config.yaml: ${idle.map((p) => p.name).join(', ')})` : ''),
  );
  // An enabled plugin that failed to load may be a guard: it says so as loudly as a shell hook that is off.
  for (const p of status.plugins)
    if (p.failed !== null) lines.push(`    ✗ plugin ${p.name} not running: failed to load: ${p.failed}`);
  lines.push(
    `  gateway hooks: ${status.gateway_hooks.length > 0 ? status.gateway_hooks.map((g) => `${g.name} (${g.events.join(', ')})`).join(', ') : 'none'}`,
  );
  for (const skipped of status.skipped) lines.push(`    ${skipped}`);
  if (status.shell_hooks.length === 0) lines.push('  shell hooks: none');
  else lines.push(`  shell hooks (${status.config_path}):`);
  const home = shellWord(status.home);
  for (const h of status.shell_hooks) {
    const consent = !h.enabled
      ? 'disabled (enabled: false)'
      : !h.approved
        ? // Every remedy of the registration warning this line stands in for (hook-semantics §3.4).
          `✗ not allowlisted, does not run (to allow it: hookgate hooks approve ${h.event} ${shellWord(h.command)} --home ${home} --yes, --accept-hooks, HOOKGATE_ACCEPT_HOOKS=1 (or HERMES_ACCEPT_HOOKS=1), hooks_auto_accept: true in config.yaml, or approving at the TTY prompt on the next run)`
        : h.drift === 'content-changed' && !h.running
          ? `✗ script changed since approval: does not run (hookgate hooks doctor --home ${home}; then approve it again: hookgate hooks approve ${h.event} ${shellWord(h.command)} --home ${home} --yes)`
          : h.drift === 'content-changed'
            ? '⚠ script changed since approval: runs anyway (hooks_on_drift: warn)'
            : h.drift === 'mtime-later'
              ? '✓ allowed; ⚠ script modified since approval'
              : '✓ allowed';
    lines.push(`    [${h.event}] ${h.command}${h.matcher !== null ? `  matcher='${h.matcher}'` : ''}  ${consent}`);
  }
  return lines;
}

/**
 * The banner line that says where the chat's tools run (config.yaml `terminal.sandbox`,
 * hook-semantics §5.9): the sandbox, or the warning (`none`) or fix (no sandbox can run) that
 * start-up owes the operator. Config warnings are the turn consumer's to print, not repeated here.
 *
 * @example
 * for (const line of toolSandboxLines(engine, home)) print(line); // '  tool sandbox: bwrap (network: none; …)'
 */
export function toolSandboxLines(engine: Pick<HookEngine, 'config'>, home: string): string[] {
  const choice = selectToolSandbox({
    host: 'local',
    config: toolPolicyFromConfig(engine.config ?? {}, home, createMemoryLogger()),
  });
  if (choice.sandbox.kind === 'bwrap')
    return [`  tool sandbox: ${choice.summary}`, ...(choice.notice ? [`    ⚠ ${choice.notice}`] : [])];
  return [`  tool sandbox: ${choice.sandbox.kind === 'none' ? '⚠' : '✗'} ${choice.notice ?? choice.summary}`];
}

export interface DevBannerFacts {
  url: string;
  home: string;
  config: DeploymentConfig;
  /** `loadedHooksLines` of the hooks home. */
  loaded: readonly string[];
  /** The state folder, when kept, with what the journal did at start. */
  state?: { dir: string; redriven: number; dropped: number };
  console: boolean;
  hotReload: boolean;
  /** The `/v1` token when dev generated it (none was set). */
  generatedToken?: string;
  /** `toolSandboxLines`, or undefined when no turn runtime is wired. */
  toolSandbox?: readonly string[];
  /** `discordAnswerWindowWarning`, when Discord is on and hooks run before its interactions are answered. */
  discordWindow?: string;
}

/**
 * `hookgate dev`'s start banner, one text (harnesses read it whole as soon as `serving`
 * shows): where it serves, what the hooks home holds, the state, console, hot reload,
 * platforms, the local chat and hook API, telemetry, the model and the tool sandbox.
 *
 * @example
 * print(devBanner({ url, home, config, loaded, console: true, hotReload: true, toolSandbox: toolSandboxLines(engine, home) }));
 */
export function devBanner(facts: DevBannerFacts): string {
  const { url, config, state } = facts;
  const banner = [`hookgate dev: serving ${url}`];
  banner.push(`  hooks home: ${facts.home}`);
  for (const line of facts.loaded) banner.push(line);
  banner.push(
    state
      ? `  state: ${state.dir} (kept across restarts; --fresh to start empty${state.redriven ? `; ${state.redriven} unanswered turn(s) re-queued` : ''}${state.dropped ? `; ${state.dropped} turn(s) dropped: each stopped the server twice` : ''})`
      : '  state: in memory (lost when dev stops)',
  );
  if (facts.console) banner.push(`  console: ${url}/console`);
  banner.push(
    facts.hotReload
      ? '  hot reload: on (plugins, gateway hooks, config.yaml, the allowlist; --no-watch to turn it off)'
      : '  hot reload: off',
  );
  banner.push(`  platforms: ${enabledPlatforms(config).join(', ') || 'none'}  (POST ${url}/webhooks/<platform>)`);
  for (const { platform, missing } of config.disabled) banner.push(`  ${platform} is off: set ${missing.join(', ')}`);
  if (facts.discordWindow) banner.push(`  ⚠ ${facts.discordWindow}`);
  if (config.platforms.local) {
    banner.push(
      `  local chat: POST ${url}/webhooks/local {"chat_id","user_id","text"} (content-type: application/json); replies: GET ${url}/webhooks/local/messages?chat_id=…`,
    );
  }
  banner.push(
    `  hook API: ${url}/v1/hooks/<hook>, ${url}/v1/events  (Authorization: Bearer ${facts.generatedToken ? `${facts.generatedToken}, generated; set HOOKGATE_API_TOKEN to choose one` : '$HOOKGATE_API_TOKEN'})`,
  );
  const shortToken = shortApiTokenWarning(config.apiToken);
  if (shortToken) banner.push(`  ⚠ ${shortToken}`);
  if (config.otlp) banner.push(`  telemetry: OTLP (${config.otlp.protocol}) to ${config.otlp.endpoint}`);
  if (!config.model.baseUrl)
    banner.push('  model: the built-in local stand-in model (set HOOKGATE_MODEL_BASE_URL for a real one)');
  if (!facts.toolSandbox) banner.push('  turns: no turn runtime wired; messages stay on the turns queue');
  else banner.push(...facts.toolSandbox);
  return banner.join('\n');
}
