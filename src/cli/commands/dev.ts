import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { createTurnConsumer } from '../../runtime/turn-consumer.ts';
import { createHookEngine } from '../../hooks/create-hook-engine.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { findHooksConfigProblems, formatProblem } from '../../hooks/validate-hooks-home.ts';
import { startDevRuntime, type DevRuntimeOptions } from '../../local/dev-runtime.ts';
import { describeHookCodeOwner } from '../../hooks/hook-code.ts';
import { keepServingAfterHookErrors } from '../../hooks/stray-hook-errors.ts';
import { DEFAULT_STATE_DIR, devStateDir } from '../../local/dev-state.ts';
import { devEnginePrinter } from '../../local/dev-engine-printer.ts';
import type { GlobalFlags } from '../global-flags.ts';
import { errorText } from '../../errors/error-text.ts';

/** The repository's example hooks home, for the first-run hint. */
const EXAMPLES_HOME = fileURLToPath(new URL('../../../examples', import.meta.url));

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('must be a port number (0-65535; 0 = any free port)');
  return port;
}

/** The real parts `hookgate dev` runs: the hook engine and the turn runtime. */
const defaultWiring: Pick<DevRuntimeOptions, 'createEngine' | 'createTurnConsumer'> = {
  // The runtime's `local` role records callback runs for the per-turn trace (`hookgate trace <turn_id>`).
  // `[hooks] …` lines in the one log format (the text verbatim in the message), unless the caller
  // holds them (a hot reload prints a new engine's lines only once the engine is taken).
  createEngine: (options) => createHookEngine({ ...options, print: options.print ?? devEnginePrinter() }),
  createTurnConsumer: (context) => createTurnConsumer(context),
};

/** After SIGINT/SIGTERM the process is gone within this, whatever hooks do (`dev.stop()` takes ≤ ~4 s). */
const STOP_BACKSTOP_MS = 4_500;

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      done(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * `hookgate dev [--port 8787] [--home DIR] [--state DIR] [--fresh] [--no-watch] [--accept-hooks] [--allow-invalid-config] [--otlp URL]`:
 * the embedded pipeline on one machine, until Ctrl+C / SIGTERM. An invalid hooks configuration
 * stops it with exit 2 (file, line, reason) unless `--allow-invalid-config`. Hooks are reloaded
 * when the hooks home changes, unless `--no-watch`.
 *
 * @example
 * installDevCommand(program, flags); // then: hookgate dev --home examples
 */
export function installDevCommand(
  program: Command,
  flags: GlobalFlags,
  wiring: Pick<DevRuntimeOptions, 'createEngine' | 'createTurnConsumer'> = defaultWiring,
): void {
  program
    .command('dev')
    .description('run the whole pipeline locally: emulators, gateway on 127.0.0.1, observer and turn consumers')
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', parsePort, 8787)
    .option('--home <dir>', 'hooks home (default: HOOKGATE_HOME, HERMES_HOME, ~/.hermes)')
    .option(
      '--allow-invalid-config',
      'start even when config.yaml, a plugin.yaml or a HOOK.yaml is invalid (what is invalid is ignored, with a warning)',
    )
    .option(
      '--state <dir>',
      `where the table and the unanswered turns are kept across restarts (default: $HOOKGATE_DEV_STATE or ${DEFAULT_STATE_DIR})`,
    )
    .option('--fresh', 'start with empty state (deletes the stored table first)')
    .option('--no-watch', 'do not reload the hooks when plugins, gateway hooks, config.yaml or the allowlist change')
    .option('--otlp <url>', 'export traces and metrics to this OTLP/HTTP endpoint (as HOOKGATE_OTLP_ENDPOINT; docs/telemetry.md)')
    .action(
      async (options: {
        port: number;
        home?: string;
        state?: string;
        fresh?: boolean;
        watch: boolean;
        allowInvalidConfig?: boolean;
        otlp?: string;
      }) => {
        const home = resolve(options.home ?? resolveHooksHome());
        const homeFrom =
          options.home !== undefined
            ? '--home'
            : process.env.HOOKGATE_HOME
              ? 'HOOKGATE_HOME'
              : process.env.HERMES_HOME
                ? 'HERMES_HOME'
                : '~/.hermes';
        // The hooks find their home as hookgate does (HOOKGATE_HOME first): the examples' gateway
        // hooks write their logs and read BOOT.md there, shell hooks inherit it.
        process.env.HOOKGATE_HOME = home;
        // A gateway started with --accept-hooks conveys the flag through its environment
        // (hook-semantics §3.4), as Hermes does: what it starts (shell hooks, plugins' children,
        // a `hookgate` run by a hook) sees the consent bypass the operator gave.
        if (flags.acceptHooks) process.env.HOOKGATE_ACCEPT_HOOKS = '1';
        if (existsSync(home) && !statSync(home).isDirectory()) {
          process.stderr.write(`hookgate dev: the hooks home ${home} (${homeFrom}) is a file, not a directory\n`);
          process.exitCode = 2;
          return;
        }
        if (!existsSync(home)) {
          process.stdout.write(
            `hookgate dev: no hooks home at ${home} yet, so no hooks run. To try the examples: npx hookgate dev --home ${EXAMPLES_HOME}\n`,
          );
        }
        // An invalid file would silently drop hooks (a typo turning a guard off): refuse, as synth
        // and a Lambda cold start do, unless the operator asks for Hermes's lenient loading.
        const problems = await findHooksConfigProblems(home);
        if (problems.length > 0) {
          const list = problems.map((p) => `  ${formatProblem(p)}\n`).join('');
          if (!options.allowInvalidConfig) {
            process.stderr.write(
              `hookgate dev: invalid hooks configuration:\n${list}(fix it, or start anyway with --allow-invalid-config)\n`,
            );
            process.exitCode = 2;
            return;
          }
          process.stderr.write(`hookgate dev: invalid hooks configuration, ignored as --allow-invalid-config asks:\n${list}`);
        }
        let dev;
        // From before the hooks load: a plugin's register may leave failing work behind too.
        const stopReporting = keepServingAfterHookErrors({
          report: (stray) =>
            process.stderr.write(
              stray.kind === 'rejection'
                ? `hookgate dev: a promise rejected with no handler (${stray.owner ? `${describeHookCodeOwner(stray.owner)}'s` : "a hook's"} unawaited work?), going on: ${stray.reason}\n`
                : `hookgate dev: work ${describeHookCodeOwner(stray.owner)} left behind threw, going on: ${stray.reason}\n`,
            ),
        });
        try {
          const dir = devStateDir(options.state, process.env, home);
          const state = dir === undefined ? undefined : { dir, fresh: options.fresh ?? false };
          dev = await startDevRuntime({
            home,
            port: options.port,
            acceptHooks: flags.acceptHooks,
            watch: options.watch,
            allowInvalidConfig: options.allowInvalidConfig ?? false,
            ...(state ? { state } : {}),
            ...(options.otlp !== undefined ? { otlpEndpoint: options.otlp } : {}),
            ...wiring,
          });
        } catch (error) {
          stopReporting();
          process.stderr.write(`hookgate dev: ${errorText(error)}\n`);
          process.exitCode = 1;
          return;
        }
        const signal = await untilSignal();
        process.stdout.write(`hookgate dev: ${signal}, stopping\n`);
        // Stopping must not depend on hooks behaving: a second signal, or the backstop, ends the
        // process even if a callback, a child process or a socket is still holding it.
        const exitNow = (why: string) => {
          process.stderr.write(`hookgate dev: ${why}; exiting\n`);
          process.exit(0);
        };
        const again = () => exitNow('second signal');
        process.once('SIGINT', again);
        process.once('SIGTERM', again);
        setTimeout(() => exitNow(`not stopped after ${STOP_BACKSTOP_MS / 1000} s`), STOP_BACKSTOP_MS).unref();
        await dev.stop();
        stopReporting();
        process.exitCode = 0;
        // Stopped. Whatever a hook left running (a timer, a child process) must not keep the process.
        setTimeout(() => exitNow('stopped, but a hook left work running'), 200).unref();
      },
    );
}
