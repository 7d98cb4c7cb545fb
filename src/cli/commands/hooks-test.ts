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
import { hookAnswer, isHookName, VALID_HOOK_NAMES_TEXT, type HookName } from '../../hooks/catalogue.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { fireShellHook } from '../../hooks/shell/shell-hook-callback.ts';
import { renderWireJson } from '../../hooks/wire-json.ts';
import type { HooksContext } from './hooks-context.ts';
import { testPayload } from './hooks-payloads.ts';
import { BAD, bold, clip, finishExpectation, jsonOrString, say, seconds } from './hooks-output.ts';
import { gatewayTestContext, isGatewayEvent, testGatewayHooks } from './hooks-test-gateway.ts';
import { errorText } from '../../errors/error-text.ts';

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

  let pluginBlocked = false;
  let pluginContext = false;
  const kwargs = testPayload(event);
  if (options.forTool !== undefined) kwargs.tool_name = options.forTool;
  if (options.payloadFile !== undefined) {
    const merged = readPayloadFile(options.payloadFile);
    if (merged === undefined) return invalid;
    Object.assign(kwargs, merged);
  }

  // The plugins' callbacks for the event run first, as at run time (§1.2: plugins before shell hooks).
  const plugins = await testPluginCallbacks(ctx, event, kwargs);
  if (plugins.blocked) pluginBlocked = true;
  if (plugins.context) pluginContext = true;

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
    if (expectation === undefined) return 0;
    if (plugins.ran === 0) return finishExpectation(expectation, false, 'no hook was selected');
    return finishExpectation(
      expectation,
      expectation === 'block' ? pluginBlocked : expectation === 'allow' ? !pluginBlocked : pluginContext,
    );
  }

  say(bold(`Firing ${selected.length} hook(s) for event '${event}':`));
  say();
  let blocked = pluginBlocked;
  let context = pluginContext;
  let failedOpen = false;
  let broken = false;
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
      if (!failedClosed) failedOpen = true;
      if (failedClosed && result) say(`  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`);
    } else {
      say(`  exit=${run.returncode}  elapsed=${seconds(run.elapsed_seconds)}s`);
      if (run.stdout.trim() !== '') say(`  stdout: ${clip(run.stdout.trim(), 400)}`);
      if (run.stderr.trim() !== '') say(`  stderr: ${clip(run.stderr.trim(), 400)}`);
      // bash exits 2 on a syntax error, which reads as a block: a broken script must not pass for a guard.
      if (run.returncode === 2 && /syntax error|unexpected (token|end of file)/i.test(run.stderr)) {
        broken = true;
        say(
          `  ${BAD()} exit 2 with a shell syntax error on stderr: the script is broken, not deciding (run \`hookgate hooks doctor\`)`,
        );
      }
      say(
        result
          ? `  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`
          : '  parsed: <none — hook contributed nothing to the dispatcher>',
      );
    }
    if (result && 'action' in result) blocked = true;
    if (result && 'context' in result) context = true;
    say();
  }
  if (expectation === undefined) return 0;
  if (failedOpen) return finishExpectation(expectation, false, 'a hook failed open (spawn error or timeout)');
  if (broken) return finishExpectation(expectation, false, 'a hook has a shell syntax error');
  const met = expectation === 'block' ? blocked : expectation === 'allow' ? !blocked : context;
  return finishExpectation(expectation, met);
}

/**
 * Runs the enabled plugins' callbacks for `event` once on the synthetic kwargs and shows each
 * one's result or error (`hookgate hooks test` covers the plugin hooks as well as the shell
 * hooks; a gateway event such as `command:model` goes to hooks-test-gateway instead).
 */
async function testPluginCallbacks(
  ctx: HooksContext,
  event: HookName,
  kwargs: Record<string, unknown>,
): Promise<{ ran: number; blocked: boolean; context: boolean }> {
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
  if (callbacks.length === 0) return { ran: 0, blocked: false, context: false };
  say(bold(`Running ${callbacks.length} plugin callback(s) for event '${event}':`));
  say();
  const runs: HookRunRecord[] = [];
  const results = await runCallbacks(
    event,
    callbacks,
    withTelemetryTag(event === 'pre_tool_call' ? withObjectArgs(kwargs) : kwargs),
    { logger: quiet, onRun: (r) => runs.push(r) },
  );
  for (const run of runs) {
    say(`→ plugin ${run.plugin ?? '?'}: ${run.callback}  (${Math.round(run.durationMs)} ms)`);
    if (run.error !== undefined) say(`  ${BAD()} error: ${clip(run.error, 400)}`);
    else say(`  returned: ${clip(jsonOrString(run.result), 400)}`);
    say();
  }
  const answer: Record<string, unknown> = hookAnswer(event, results);
  return {
    ran: runs.length,
    blocked: answer.action === 'block',
    context: typeof answer.context === 'string' && answer.context !== '',
  };
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
