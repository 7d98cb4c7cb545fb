import { describe, expect, it } from 'vitest';
import { recordHookRun } from '../../src/agent/trace/hook-run-scope.ts';
import { loadDeploymentConfig, type DeploymentConfig } from '../../src/config/deployment-config.ts';
import type { CreateHookEngineOptions } from '../../src/hooks/create-hook-engine.ts';
import { DataPlaneEnvError } from '../../src/pipeline/data-plane.ts';
import { createRuntime, type RuntimeRole } from '../../src/runtime/create-runtime.ts';
import { createHookgateLogger } from '../../src/logging/hookgate-logger.ts';
import { recordingEngine } from '../gateway/support/recording-engine.ts';

/** A deployed function's environment (names only: nothing here talks to AWS). */
const STACK_ENV = {
  HOOKGATE_TABLE_NAME: 'hookgate-table',
  HOOKGATE_TURNS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/hookgate-turns.fifo',
  HOOKGATE_TIMERS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/hookgate-timers',
  HOOKGATE_EVENTS_TOPIC_ARN: 'arn:aws:sns:us-east-1:000000000000:hookgate-events',
  HOOKGATE_PAYLOAD_BUCKET: 'hookgate-payloads',
  HOOKGATE_LOG_LEVEL: 'silent',
};

/** A runtime whose engine factory records the options it is called with. */
function recordingRuntime(
  config: DeploymentConfig = loadDeploymentConfig(STACK_ENV, { runtime: 'aws' }),
  logger?: ReturnType<typeof createHookgateLogger>,
) {
  const calls: CreateHookEngineOptions[] = [];
  const runtime = createRuntime(config, {
    createEngine: (options) => {
      calls.push(options);
      return recordingEngine();
    },
    engineOptions: { home: '/hooks-home', acceptHooks: false },
    ...(logger ? { logger } : {}),
  });
  return { runtime, calls };
}

describe('createRuntime', () => {
  it('gives each role its engine options over the one data plane, the home and flags passed through', async () => {
    const { runtime, calls } = recordingRuntime();
    const { plane } = runtime;
    const roles: RuntimeRole[] = ['gateway', 'turn', 'observer', 'local'];
    for (const role of roles) await runtime.createEngine(role);
    const [gateway, turn, observer, local] = calls;
    for (const options of calls) expect(options).toMatchObject({ home: '/hooks-home', acceptHooks: false });

    expect(gateway).toMatchObject({ gatewayHooks: true, logger: runtime.logger('gateway') });
    expect(gateway?.observerSink).toBe(plane.observerSink);
    expect(gateway?.allowlist).toBe(plane.allowlist);
    expect(gateway?.onRun).toBeUndefined();

    // The turn publishes gateway events for the observer to run, and records callback runs for its trace.
    expect(turn).toMatchObject({ gatewayHooks: false, logger: runtime.logger('turn'), onRun: recordHookRun });
    expect(turn?.observerSink).toBe(plane.observerSink);
    expect(turn?.allowlist).toBe(plane.allowlist);

    // The observer is where observers run: no sink (the engine runs them inline).
    expect(observer).toMatchObject({ gatewayHooks: true, logger: runtime.logger('observer') });
    expect(observer?.observerSink).toBeUndefined();
    expect(observer?.allowlist).toBe(plane.allowlist);

    // hookgate dev: one engine for all three; consent from the hooks home's file, the engine's own printing.
    expect(local).toMatchObject({ gatewayHooks: true, onRun: recordHookRun });
    expect(local?.observerSink).toBe(plane.observerSink);
    expect(local?.allowlist).toBeUndefined();
    expect(local?.logger).toBeUndefined();
  });

  it("prints a deployed engine's `[hooks] …` lines in the one log format, the text verbatim; leaves dev's to dev", async () => {
    const { runtime, calls } = recordingRuntime();
    for (const role of ['gateway', 'turn', 'observer', 'local'] as const) await runtime.createEngine(role);
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      calls[1]?.print?.("[hooks] Loaded hook 'log' for events: ['agent:start']");
    } finally {
      process.stdout.write = write;
    }
    // Off a terminal (as in Lambda) the line is JSON, with the message text unchanged inside it.
    expect(JSON.parse(written.join(''))).toMatchObject({
      level: 'INFO',
      service: 'hookgate-turn',
      message: "[hooks] Loaded hook 'log' for events: ['agent:start']",
    });
    expect(calls[3]?.print).toBeUndefined();
  });

  it('builds one logger per function, once; an explicit logger serves every role', () => {
    const { runtime } = recordingRuntime();
    expect(runtime.logger('gateway')).toBe(runtime.logger('gateway'));
    expect(runtime.logger('gateway')).not.toBe(runtime.logger('turn'));
    const dev = createHookgateLogger('hookgate-dev', 'silent');
    const local = recordingRuntime(undefined, dev).runtime;
    for (const role of ['gateway', 'turn', 'observer', 'local'] as const) expect(local.logger(role)).toBe(dev);
  });

  it('fails at once, naming the variable, when the config lacks a resource of the data plane', () => {
    const { HOOKGATE_PAYLOAD_BUCKET: _bucket, ...env } = STACK_ENV;
    expect(() => recordingRuntime(loadDeploymentConfig(env, { runtime: 'aws' }))).toThrow(DataPlaneEnvError);
    expect(() => recordingRuntime(loadDeploymentConfig(env, { runtime: 'aws' }))).toThrow(/HOOKGATE_PAYLOAD_BUCKET/);
  });

  it('reads nothing from the environment after the config is parsed', async () => {
    const config = loadDeploymentConfig(STACK_ENV, { runtime: 'aws' });
    const saved = { ...process.env };
    try {
      // A stray variable of the process's own environment changes nothing.
      process.env.HOOKGATE_TABLE_NAME = 'other-table';
      process.env.HOOKGATE_LOG_LEVEL = 'not a level';
      const { runtime } = recordingRuntime(config);
      expect(runtime.plane.table.tableName).toBe('hookgate-table');
      expect(runtime.config).toBe(config);
    } finally {
      process.env = saved;
    }
  });
});
