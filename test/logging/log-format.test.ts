import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHookgateLogger } from '../../src/logging/hookgate-logger.ts';
import { annotateLogContext, withLogContext } from '../../src/logging/log-context.ts';
import { createLinePrinter, formatLogLine, logStyleFor } from '../../src/logging/log-line.ts';
import { createStderrLogger } from '../../src/hooks/hook-logger.ts';
import { parseLogThreshold } from '../../src/logging/log-threshold.ts';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';

afterEach(() => vi.restoreAllMocks());

/** Every line written to stdout and stderr while `fn` runs. */
async function capture(fn: () => Promise<void> | void): Promise<string[]> {
  const out: string[] = [];
  const keep = (chunk: string | Uint8Array) =>
    out.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l !== ''),
    ) > 0;
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  await fn();
  vi.restoreAllMocks();
  return out;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the one log format', () => {
  it('is JSON off a terminal and in Lambda, readable on a terminal, and can be forced', () => {
    expect(logStyleFor({ isTTY: false }, {})).toBe('json');
    expect(logStyleFor({ isTTY: true }, {})).toBe('text');
    expect(logStyleFor({ isTTY: true }, { AWS_LAMBDA_FUNCTION_NAME: 'turn' })).toBe('json');
    expect(logStyleFor({ isTTY: false }, { HOOKGATE_LOG_FORMAT: 'text' })).toBe('text');
    expect(logStyleFor({ isTTY: true }, { HOOKGATE_LOG_FORMAT: 'json' })).toBe('json');
  });

  it('puts the turn, chat and delivery of the async context on every line, without mixing concurrent turns', async () => {
    const logger = createHookgateLogger('test', 'info', { HOOKGATE_LOG_FORMAT: 'json' });
    const engine = createStderrLogger('debug', undefined, 'json');
    const turn = async (n: number) =>
      withLogContext({ delivery_id: `d${n}`, chat_id: `c${n}` }, async () => {
        await tick();
        annotateLogContext({ turn_id: `t${n}` });
        await tick();
        logger.info(`gateway line ${n}`);
        await tick();
        engine.warn(`engine line ${n}`);
      });
    const lines = (await capture(() => Promise.all([turn(1), turn(2), turn(3)]).then(() => logger.info('outside')))).map(
      (l) => JSON.parse(l) as Record<string, unknown>,
    );
    for (const n of [1, 2, 3]) {
      for (const prefix of ['gateway', 'engine']) {
        expect(lines.find((l) => l.message === `${prefix} line ${n}`)).toMatchObject({
          turn_id: `t${n}`,
          chat_id: `c${n}`,
          delivery_id: `d${n}`,
        });
      }
    }
    const outside = lines.find((l) => l.message === 'outside')!;
    expect(outside.turn_id).toBeUndefined();
    expect(outside).toMatchObject({ level: 'INFO', service: 'test' });
    // No debug sampling configured: no sampling_rate: 0 on every line.
    expect(outside).not.toHaveProperty('sampling_rate');
  });

  it('prints readable lines on a terminal, the ids first, and keeps quoted fragments verbatim', async () => {
    const logger = createHookgateLogger('test', 'info', { HOOKGATE_LOG_FORMAT: 'text', NO_COLOR: '1' });
    const lines = await capture(() =>
      withLogContext({ delivery_id: 'local:1', chat_id: 'c1', turn_id: 'turn_1' }, () =>
        logger.warn('reply failed', { platform: 'local' }),
      ),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}reply failed {2}turn=turn_1 chat=c1 delivery=local:1 platform=local$/,
    );
    const hooksLine = "[hooks] Loaded hook 'log' for events: ['agent:start']";
    for (const style of ['text', 'json'] as const)
      expect(formatLogLine({ level: 'INFO', message: hooksLine, service: 's' }, style, false)).toContain(hooksLine);
  });

  it('prints [hooks] lines to stdout whatever the log level', async () => {
    const lines = await capture(() =>
      createLinePrinter('dev', process.stdout, { HOOKGATE_LOG_LEVEL: 'error', HOOKGATE_LOG_FORMAT: 'json' })(
        '[hooks] Skipping x: no events declared',
      ),
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'INFO', message: '[hooks] Skipping x: no events declared' });
  });
});

describe('HOOKGATE_LOG_LEVEL, read one way everywhere', () => {
  it('parses case-insensitively, warning as warn, silent; anything else is not a level', () => {
    expect(parseLogThreshold(' WARNING ')).toBe('warn');
    expect(parseLogThreshold('Silent')).toBe('silent');
    expect(parseLogThreshold('verbose')).toBeUndefined();
    expect(loadDeploymentConfig({ HOOKGATE_LOG_LEVEL: 'warning' }).logLevel).toBe('warn');
  });

  it("the hook engine's stderr logger honours warn and silent as the config does", () => {
    const lines: string[] = [];
    const warnOnly = createStderrLogger(parseLogThreshold('warning'), (line) => void lines.push(line), 'text');
    warnOnly.info('not shown');
    warnOnly.warn('shown');
    createStderrLogger(parseLogThreshold('silent'), (line) => void lines.push(line), 'text').error('not shown either');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('WARN  shown');
  });
});
