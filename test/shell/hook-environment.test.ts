import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { hookEnvironment, hookEnvPassthrough } from '../../src/hooks/shell/spawn/hook-environment.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import { runShellCommand } from '../../src/hooks/shell/spawn/run-shell-command.ts';
import { rememberDeploymentSecret } from '../../src/secrets/secret-variables.ts';

// Secret names of hook-semantics §5.8, one extra key of the deployment secret, and a harmless variable.
const PLANTED: Record<string, string> = {
  AWS_ACCESS_KEY_ID: 'FAKEKEYID7QZ2M4X8P1R',
  AWS_SECRET_ACCESS_KEY: 'fake-secret-access-key-value',
  AWS_SESSION_TOKEN: 'fake-session-token-value',
  TELEGRAM_BOT_TOKEN: '1:fake-telegram',
  HOOKGATE_MODEL_API_KEY: 'fake-model-key',
  HOOKGATE_API_TOKEN: 'fake-api-token',
  DEPLOYMENT_EXTRA_KEY: 'fake-extra',
  HOOKGATE_HARMLESS_VAR: 'kept',
};
const saved: Record<string, string | undefined> = {};

beforeAll(() => {
  rememberDeploymentSecret({ DEPLOYMENT_EXTRA_KEY: 'fake-extra' });
  for (const [name, value] of Object.entries(PLANTED)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const printNames = `/bin/sh -c 'env | cut -d= -f1 | sort'`;

describe.each(['fast', 'exact'] as const)(
  'shell hooks on the %s path inherit the environment minus the secrets (§3.5, §5.8)',
  (path) => {
    it('withholds every secret variable and keeps the rest', async () => {
      const names = (await runShellCommand(printNames, '', 10, { path })).stdout.split('\n');
      expect(names).toContain('HOOKGATE_HARMLESS_VAR');
      expect(names).toContain('PATH');
      for (const name of Object.keys(PLANTED).filter((n) => n !== 'HOOKGATE_HARMLESS_VAR'))
        expect(names, name).not.toContain(name);
    });

    it('hooks.env_passthrough gives named ones back, and a later change of the list is honoured', async () => {
      const given = await runShellCommand(`/bin/sh -c 'echo "$AWS_ACCESS_KEY_ID|$HOOKGATE_API_TOKEN"'`, '', 10, {
        path,
        environment: hookEnvironment(['AWS_ACCESS_KEY_ID']),
      });
      expect(given.stdout).toBe('FAKEKEYID7QZ2M4X8P1R|\n');
      const again = await runShellCommand(`/bin/sh -c 'echo "$AWS_ACCESS_KEY_ID|$HOOKGATE_API_TOKEN"'`, '', 10, { path });
      expect(again.stdout).toBe('|\n');
    });
  },
);

describe('hookEnvironment().variables()', () => {
  it('copies every variable but the withheld ones, a `__proto__` one included, onto a plain object', () => {
    const env = JSON.parse(
      '{"PATH": "/bin", "__proto__": "p", "AWS_ACCESS_KEY_ID": "k", "HOOK_ENV_TEST_BLANK": ""}',
    ) as NodeJS.ProcessEnv;
    const copy = hookEnvironment().variables(env);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.entries(copy)).toEqual([
      ['PATH', '/bin'],
      ['__proto__', 'p'],
      ['HOOK_ENV_TEST_BLANK', ''],
    ]);
  });

  it('withholds a deployment secret remembered after an earlier firing (the environment is reused until then)', () => {
    const env = { PATH: '/bin', HOOK_ENV_TEST_LATE_SECRET: 'late' };
    expect(hookEnvironment().variables(env)).toEqual(env);
    rememberDeploymentSecret({ HOOK_ENV_TEST_LATE_SECRET: 'late' });
    expect(hookEnvironment().variables(env)).toEqual({ PATH: '/bin' });
    expect(hookEnvironment().withheld).toContain('HOOK_ENV_TEST_LATE_SECRET');
  });
});

describe('hooks.env_passthrough in config.yaml', () => {
  it('is a list of variable names, validated; anything else warns and passes nothing', () => {
    const logger = createMemoryLogger();
    expect(hookEnvPassthrough({ hooks: { env_passthrough: ['AWS_REGION', 'GITHUB_TOKEN'] } }, logger)).toEqual([
      'AWS_REGION',
      'GITHUB_TOKEN',
    ]);
    expect(hookEnvPassthrough({ hooks: {} }, logger)).toEqual([]);
    expect(logger.lines).toEqual([]);
    expect(hookEnvPassthrough({ hooks: { env_passthrough: 'GITHUB_TOKEN' } }, logger)).toEqual([]);
    expect(hookEnvPassthrough({ hooks: { env_passthrough: ['OK', 'not a name'] } }, logger)).toEqual([]);
    expect(logger.lines.map((l) => l.message)).toEqual([
      expect.stringMatching(/^hooks\.env_passthrough: .*expected array.*; ignoring hooks\.env_passthrough/),
      expect.stringMatching(/^hooks\.env_passthrough\[1\]: must be an environment variable name; ignoring/),
    ]);
  });

  it('is not taken for an event by the hooks: parser', () => {
    const logger = createMemoryLogger();
    const entries = parseShellHooks({ hooks: { env_passthrough: ['X'], pre_tool_call: [{ command: '/bin/true' }] } }, logger);
    expect(entries.map((e) => e.event)).toEqual(['pre_tool_call']);
    expect(logger.lines).toEqual([]);
  });
});
