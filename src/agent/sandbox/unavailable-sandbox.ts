import { SandboxError, type ToolSandbox } from './tool-sandbox.ts';

/**
 * Where no sandbox can run and the operator did not choose `terminal.sandbox: none`
 * (hook-semantics §5.9): every terminal and file tool call answers an error result with
 * `reason`, which names the fix. Nothing runs.
 *
 * @example
 * const sandbox = createUnavailableSandbox('no tool sandbox can run here (…). Fix: …');
 */
export function createUnavailableSandbox(reason: string): ToolSandbox {
  return {
    kind: 'unavailable',
    run() {
      return Promise.reject(new SandboxError(reason));
    },
  };
}
