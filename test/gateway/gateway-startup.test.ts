import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { loadDeploymentConfig } from '../../src/config/deployment-config.ts';
import { announceGatewayStartup, claimGatewayStartup, releaseGatewayStartup } from '../../src/gateway/gateway-startup.ts';
import { useTestDataPlane } from '../support/local-aws.ts';
import { recordingEngine } from './support/recording-engine.ts';

const local = useTestDataPlane();
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

const configFor = (version: string) =>
  loadDeploymentConfig(
    {
      HOOKGATE_DEPLOYMENT_VERSION: version,
      TELEGRAM_BOT_TOKEN: '1:a',
      TELEGRAM_SECRET_TOKEN: 's',
      HOOKGATE_LOCAL_ADAPTER: 'false',
    },
    { runtime: 'aws' },
  );

describe('gateway:startup', () => {
  it('fires once per deployed version across concurrent cold starts, with the enabled platforms', async () => {
    const engines = Array.from({ length: 5 }, recordingEngine);
    const won = await Promise.all(
      engines.map((engine) =>
        announceGatewayStartup({ config: configFor('v1'), engine, dedup: local.plane.dedup, logger }, { once: true }),
      ),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    const fired = engines.flatMap((e) => e.calls.filter((c) => c.op === 'observe'));
    expect(fired).toEqual([{ op: 'observe', name: 'gateway:startup', payload: { platforms: ['telegram'] }, meta: undefined }]);
    // A new version fires again.
    const next = recordingEngine();
    expect(
      await announceGatewayStartup({ config: configFor('v2'), engine: next, dedup: local.plane.dedup, logger }, { once: true }),
    ).toBe(true);
  });

  it('takes a claim sent before the engine was built; gives back only a claim it won', async () => {
    const config = configFor('v3');
    const deps = (engine: ReturnType<typeof recordingEngine>) => ({ config, engine, dedup: local.plane.dedup, logger });
    const claims = Array.from({ length: 3 }, () => claimGatewayStartup({ config, dedup: local.plane.dedup }));
    const engines = claims.map(recordingEngine);
    const won = await Promise.all(claims.map((claim, i) => announceGatewayStartup(deps(engines[i]!), { once: true, claim })));
    expect(won.filter(Boolean)).toHaveLength(1);
    // A cold start that lost the claim and then failed gives nothing back: the version has fired.
    const lost = claimGatewayStartup({ config, dedup: local.plane.dedup });
    await releaseGatewayStartup({ config, dedup: local.plane.dedup }, lost);
    expect(await announceGatewayStartup(deps(recordingEngine()), { once: true })).toBe(false);
    // A claim that could not be sent is logged, not thrown.
    const unreachable = Promise.reject(new Error('table unreachable'));
    expect(await announceGatewayStartup(deps(recordingEngine()), { once: true, claim: unreachable })).toBe(false);
    await releaseGatewayStartup({ config, dedup: local.plane.dedup }, unreachable);
  });

  it('fires at every start when not once-per-version (hookgate dev)', async () => {
    const engine = recordingEngine();
    for (let i = 0; i < 2; i++)
      await announceGatewayStartup({ config: configFor('dev'), engine, dedup: local.plane.dedup, logger }, { once: false });
    expect(engine.calls.filter((c) => c.name === 'gateway:startup')).toHaveLength(2);
  });

  it('never throws when the event cannot be published', async () => {
    const engine = recordingEngine();
    engine.failObserve = true;
    await expect(
      announceGatewayStartup({ config: configFor('v9'), engine, dedup: local.plane.dedup, logger }, { once: true }),
    ).resolves.toBe(false);
    // The claim was given back: the next cold start of v9 publishes it.
    const later = recordingEngine();
    expect(
      await announceGatewayStartup({ config: configFor('v9'), engine: later, dedup: local.plane.dedup, logger }, { once: true }),
    ).toBe(true);
  });
});
