import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkContextKeys } from '../../infra/lib/stack-context.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('-c options given to the stack (checkContextKeys)', () => {
  it('a typo of an option fails, naming the option: the default is not deployed in silence', () => {
    expect(() => checkContextKeys(['alarmEmail', 'turnConcurency'])).toThrow(
      'context turnConcurency: not an option of this stack; did you mean -c turnConcurrency=…?',
    );
    expect(() => checkContextKeys(['ToolsNetwork'])).toThrow(/did you mean -c toolsNetwork=/);
    expect(() => checkContextKeys(['hooksHom'])).toThrow(/did you mean -c hooksHome=/);
  });

  it("CDK's own keys pass; any other key is returned, for a warning", () => {
    expect(
      checkContextKeys([
        '@aws-cdk/core:checkSecretUsage',
        'aws:cdk:enable-path-metadata',
        'acknowledged-issue-numbers',
        'alarmEmail',
        'turnConcurrency',
      ]),
    ).toEqual([]);
    // `node` is near `model` (0.67), not near enough to be taken for its typo.
    expect(checkContextKeys(['team', 'node'])).toEqual(['team', 'node']);
  });

  it('the app refuses a typo before it builds anything', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'infra/bin/app.ts'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        CDK_OUTDIR: '/nonexistent/never-written',
        CDK_CONTEXT_JSON: JSON.stringify({ alarmEmail: 'ops@example.com', toolsNetwrk: 'internet' }),
      },
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('hookgate: context toolsNetwrk: not an option of this stack; did you mean -c toolsNetwork=…?');
  }, 60_000);
});
