// biome-ignore lint/style/noRestrictedImports: fromJSONSchema exists only in classic zod; this module loads on first use, not at cold start.
import { fromJSONSchema } from 'zod';
import type { ArgsValidator } from '../../hooks/tool-call-rewrite.ts';

/**
 * The check of rewritten arguments against a tool's argument schema (its spec's JSON Schema,
 * read with classic zod's `fromJSONSchema`). A schema zod cannot read takes any object. Imported
 * dynamically (args-validator.ts): classic zod costs a cold start ≈ 13 ms
 * (src/validation/zod.ts), and most turns never check a rewrite.
 *
 * @example
 * toolArgsValidator(terminalTool.spec.function.parameters)({ cmd: 'ls' })
 * // 'command: Invalid input: expected string, received undefined'
 */
export function toolArgsValidator(parameters: unknown): ArgsValidator {
  let schema: ReturnType<typeof fromJSONSchema> | undefined;
  try {
    schema = fromJSONSchema(parameters as Parameters<typeof fromJSONSchema>[0]);
  } catch {
    schema = undefined;
  }
  return (args) => {
    if (!schema) return undefined;
    const parsed = schema.safeParse(args);
    return parsed.success
      ? undefined
      : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join('; ');
  };
}
