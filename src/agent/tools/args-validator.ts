import type { ArgsValidator } from '../../hooks/tool-call-rewrite.ts';
import type { Tool } from './tool.ts';

const validators = new WeakMap<Tool, ArgsValidator>();

/**
 * The check of rewritten arguments against `tool`'s argument schema (tool-args-validator.ts,
 * loaded with the first one: it brings a JSON Schema compiler), one per tool.
 *
 * @example
 * (await argsValidator(terminalTool))({ cmd: 'ls' }) // "(args): must have required property 'command'"
 */
export async function argsValidator(tool: Tool): Promise<ArgsValidator> {
  let validator = validators.get(tool);
  if (validator) return validator;
  const { toolArgsValidator } = await import('./tool-args-validator.ts');
  validator = toolArgsValidator(tool.spec.function.parameters);
  validators.set(tool, validator);
  return validator;
}
