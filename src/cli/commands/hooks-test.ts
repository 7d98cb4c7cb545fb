import { readFileSync } from 'node:fs';
import { CallbackRegistry } from '../../hooks/callback-registry.ts';
import { discoverHooksHome } from '../../hooks/discover-hooks-home.ts';
import type { HookRunRecord } from '../../hooks/hook-engine.ts';
import type { HookLogger } from '../../hooks/hook-logger.ts';
import { moduleSource } from '../../hooks/module-source.ts';
import { loadPlugins } from '../../hooks/plugins/load-plugins.ts';
import { PluginCommandRegistry } from '../../hooks/plugins/plugin-commands.ts';
import { runCallbacks } from '../../hooks/run-callbacks.ts';
import { withTelemetryTag } from '../../hooks/telemetry-tag.ts';
import { withObjectArgs } from '../../hooks/tool-call-args.ts';
import { isHookName, VALID_HOOK_NAMES_TEXT, type HookName } from '../../hooks/catalogue.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { answersPermission } from '../../hooks/shell/claude-event-gate.ts';
import { permissionAnswerOf } from '../../hooks/shell/permission-request.ts';
import { fireShellHook } from '../../hooks/shell/shell-hook-callback.ts';
import { renderWireJson } from '../../hooks/wire-json.ts';
import type { HooksContext } from './hooks-context.ts';
import { testPayload } from './hooks-payloads.ts';
import { BAD, bold, clip, finishExpectation, jsonOrString, say, seconds, WARN } from './hooks-output.ts';
import { gatewayTestContext, isGatewayEvent, testGatewayHooks } from './hooks-test-gateway.ts';
import { errorText } from '../../errors/error-text.ts';
import { applyRewrite, isRewrite } from '../../hooks/tool-call-rewrite.ts';
import { shellRegisteredCallback } from '../../hooks/shell/register-shell-hooks.ts';
import type { ShellHookEntry } from '../../hooks/shell/config/shell-hook-entry.ts';

export const EXPECTATIONS = ['block', 'allow', 'context'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

export interface TestHooksOptions {
  forTool?: string;
  payloadFile?: string;
  expect?: string;
}

/**
 * `hookgate hooks test <event>` (hook-semantics §4.2, §5.6): fires the configured hooks of
 * one event once on a synthetic payload — un-allowlisted ones too — and shows each outcome.
 * Exit status 0, or with `--expect`: 0 met, 1 not met, 2 invalid input.
 */
export async function testHooks(ctx: HooksContext, event: string, options: TestHooksOptions): Promise<number> {
  const expectation = options.expect;
  const invalid = expectation !== undefined ? 2 : 0;
  if (expectation !== undefined && !(EXPECTATIONS as readonly string[]).includes(expectation)) {
    say(`Invalid --expect value: '${expectation}' (expected one of: ${EXPECTATIONS.join(', ')})`);
    return 2;
  }
  if (isGatewayEvent(event)) {
    const context = gatewayTestContext(event);
    if (options.payloadFile !== undefined) {
      const merged = readPayloadFile(options.payloadFile);
      if (merged === undefined) return invalid;
      Object.assign(context, merged);
    }
    return testGatewayHooks(ctx, event, context, expectation);
  }
  if (!isHookName(event)) {
    say(`Unknown event: '${event}'`);
    say(`Valid events: ${VALID_HOOK_NAMES_TEXT}`);
    return invalid;
  }

  const kwargs = testPayload(event);
  if (options.forTool !== undefined) kwargs.tool_name = options.forTool;
  if (options.payloadFile !== undefined) {
    const merged = readPayloadFile(options.payloadFile);
    if (merged === undefined) return invalid;
    // Defined, not assigned: a `__proto__` key in the file is a key like any other (§4.2: nothing is dropped).
    for (const [key, value] of Object.entries(merged)) {
      Object.defineProperty(kwargs, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }

  // The shell hooks first, printed and judged exactly as §4.2 and §5.6 say; the plugins' callbacks
  // for the event are shown after them (what each returned), and do not count for --expect.
  const shell = await testShellHooks(ctx, event, kwargs, options);
  await testPluginCallbacks(ctx, event, kwargs);
  if (expectation === undefined) return 0;
  if (shell.selected === 0) return finishExpectation(expectation, false, 'no hook was selected');
  if (shell.failedOpen) return finishExpectation(expectation, false, 'a hook failed open (spawn error or timeout)');
  const met = expectation === 'block' ? shell.blocked : expectation === 'allow' ? !shell.blocked : shell.context;
  return finishExpectation(expectation, met);
}

/** What the selected shell hooks came to, for `--expect`. */
interface ShellHooksOutcome {
  selected: number;
  blocked: boolean;
  context: boolean;
  failedOpen: boolean;
}

/** §4.2 steps 5–7: selects the event's shell hooks, runs each once and prints its outcome. */
async function testShellHooks(
  ctx: HooksContext,
  event: HookName,
  kwargs: Record<string, unknown>,
  options: TestHooksOptions,
): Promise<ShellHooksOutcome> {
  const outcome: ShellHooksOutcome = { selected: 0, blocked: false, context: false, failedOpen: false };
  const forEvent = ctx.entries.filter((e) => e.event === event);
  const matching = forEvent.filter(
    (e) =>
      options.forTool === undefined ||
      !(e.event === 'pre_tool_call' || e.event === 'post_tool_call') ||
      e.matches(options.forTool),
  );
  const disabled = matching.filter((e) => !e.enabled).length;
  const selected = matching.filter((e) => e.enabled);
  if (disabled > 0) say(`Skipping ${disabled} disabled hook(s) (enabled: false).`);
  if (selected.length === 0) {
    say(`No shell hooks configured for event: ${event}`);
    if (options.forTool !== undefined) say(`(with matcher filter --for-tool=${options.forTool})`);
    return outcome;
  }
  outcome.selected = selected.length;

  say(bold(`Firing ${selected.length} hook(s) for event '${event}':`));
  say();
  for (const entry of selected) {
    say(`→ ${entry.command}`);
    const { run, result, failedClosed } = await fireShellHook(entry, kwargs, ctx.logger, {
      path: 'exact',
      environment: ctx.environment,
      http: ctx.http,
      ...(ctx.judge ? { judge: ctx.judge } : {}),
    });
    if (run.error !== null || run.timed_out) {
      say(run.error !== null ? `  ${BAD()} error: ${run.error}` : `  ${BAD()} timed out after ${seconds(run.elapsed_seconds)}s`);
      if (!failedClosed) outcome.failedOpen = true;
      if (failedClosed && result) say(`  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`);
    } else {
      say(`  exit=${run.returncode}  elapsed=${seconds(run.elapsed_seconds)}s`);
      if (run.stdout.trim() !== '') say(`  stdout: ${clip(run.stdout.trim(), 400)}`);
      if (run.stderr.trim() !== '') say(`  stderr: ${clip(run.stderr.trim(), 400)}`);
      // bash exits 2 on a syntax error, which blocks at run time (§5.2) and so meets --expect block (§5.6):
      // the author is told the block may be the script breaking, not deciding.
      if (run.returncode === 2 && /syntax error|unexpected (token|end of file)/i.test(run.stderr)) {
        say(
          `  ${WARN()} exit 2 with a shell syntax error on stderr: this blocks, but the script may be broken rather than deciding (run \`hookgate hooks doctor\`)`,
        );
      }
      if (answersPermission(entry)) {
        // A PermissionRequest entry answers the approval gate, as in the live turn: read as Claude Code reads it.
        const answer = permissionAnswerOf(run);
        say(
          answer === undefined
            ? '  parsed: <no PermissionRequest decision — the user would be asked>'
            : `  parsed (PermissionRequest): ${answer.permission === 'deny' ? `deny: ${answer.message}` : 'allow'}`,
        );
        if (answer?.permission === 'deny') outcome.blocked = true;
        say();
        continue;
      }
      say(
        result
          ? `  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`
          : '  parsed: <none — hook contributed nothing to the dispatcher>',
      );
      // §5.10: arguments the tool does not take make a failed run; shown as the live call applies it.
      const live = await rewriteInTheLiveCall(entry, kwargs, result, ctx.logger);
      if (live === 'ignored') {
        say(`  ${WARN()} the ${String(kwargs.tool_name)} tool would not take these arguments: the live call ignores the rewrite`);
      } else if (live !== undefined) {
        say(`  ${WARN()} in the live call: ${renderWireJson(live, { asciiOnly: true })}`);
        outcome.blocked = true;
      }
    }
    // A rewrite (§5.10) also has an `action`, but lets the call run: only a block counts for --expect block.
    if (result && 'action' in result && result.action !== 'rewrite') outcome.blocked = true;
    if (result && 'context' in result) outcome.context = true;
    say();
  }
  return outcome;
}

/**
 * What the live call makes of a `pre_tool_call` rewrite, through the same `applyRewrite`: undefined
 * when it takes the arguments (or there is no rewrite, or no built-in tool), `'ignored'` when the
 * tool would not take them, or a `fail_closed` entry's block. `applyRewrite` logs its warning.
 */
async function rewriteInTheLiveCall(
  entry: ShellHookEntry,
  kwargs: Record<string, unknown>,
  result: unknown,
  logger: HookLogger,
): Promise<'ignored' | Record<string, unknown> | undefined> {
  if (entry.event !== 'pre_tool_call' || !isRewrite(result) || typeof kwargs.tool_name !== 'string') return undefined;
  // Loaded only for a rewrite: the tools (and their schema compiler) are not the CLI's to load otherwise.
  const [{ BUILTIN_TOOLS }, { argsValidator }] = await Promise.all([
    import('../../agent/tools/tool-set.ts'),
    import('../../agent/tools/args-validator.ts'),
  ]);
  const tool = BUILTIN_TOOLS.get(kwargs.tool_name);
  if (!tool) return undefined;
  const callback = shellRegisteredCallback(entry, () => undefined);
  const { value } = applyRewrite(callback, result, kwargs, await argsValidator(tool), logger);
  if (isRewrite(value)) return undefined;
  return isPlainObject(value) ? value : 'ignored';
}

/**
 * Runs the enabled plugins' callbacks for `event` once on the synthetic kwargs and shows each
 * one's result or error, after the shell hooks (`hookgate hooks test` shows the plugin hooks
 * too; `--expect` judges the shell hooks, §5.6; a gateway event such as `command:model` goes to
 * hooks-test-gateway instead).
 */
async function testPluginCallbacks(ctx: HooksContext, event: HookName, kwargs: Record<string, unknown>): Promise<void> {
  const description = await discoverHooksHome(ctx.home, { gatewayHooks: false });
  const registry = new CallbackRegistry();
  const errors: string[] = [];
  const quiet: HookLogger = { ...ctx.logger, warn: (message) => errors.push(message), error: (message) => errors.push(message) };
  await loadPlugins(description.plugins, {
    home: ctx.home,
    registry,
    logger: quiet,
    load: moduleSource(ctx.home),
    commands: new PluginCommandRegistry(quiet, 1),
  });
  const callbacks = registry.callbacks(event).filter((c) => c.source === 'plugin');
  if (callbacks.length === 0) return;
  say(bold(`Running ${callbacks.length} plugin callback(s) for event '${event}':`));
  say();
  const runs: HookRunRecord[] = [];
  await runCallbacks(event, callbacks, withTelemetryTag(event === 'pre_tool_call' ? withObjectArgs(kwargs) : kwargs), {
    logger: quiet,
    onRun: (r) => runs.push(r),
  });
  for (const run of runs) {
    say(`→ plugin ${run.plugin ?? '?'}: ${run.callback}  (${Math.round(run.durationMs)} ms)`);
    if (run.error !== undefined) say(`  ${BAD()} error: ${clip(run.error, 400)}`);
    else say(`  returned: ${clip(jsonOrString(run.result), 400)}`);
    say();
  }
}

/** `--payload-file`'s JSON object ({} with a warning when it is not an object); undefined when unreadable. */
function readPayloadFile(path: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    say(`Error reading payload file: ${errorText(error)}`);
    return undefined;
  }
  if (isPlainObject(parsed)) return parsed;
  say(`Warning: ${path} is not a JSON object; ignoring`);
  return {};
}
