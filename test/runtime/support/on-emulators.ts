import type { DeploymentConfig } from '../../../src/config/deployment-config.ts';
import type { RunningEmulators } from '../../../src/local/emulators.ts';
import { dataPlaneFromLocalAws } from '../../../src/pipeline/data-plane.ts';

/**
 * A deployment config whose resources are the running emulators (endpoints, credentials,
 * names), as `hookgate dev` makes it: the emulators stand in for the stack's resource variables.
 *
 * @example
 * const runtime = createRuntime(onEmulators(loadDeploymentConfig(env, { runtime: 'aws' }), aws), { createEngine });
 */
export function onEmulators(config: DeploymentConfig, aws: RunningEmulators): DeploymentConfig {
  return { ...config, resources: { ...config.resources, ...dataPlaneFromLocalAws(aws) } };
}
