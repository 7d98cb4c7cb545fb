import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ArgsValidator } from '../../hooks/tool-call-rewrite.ts';

/** A tool spec may name its dialect; without one it is read as draft-07, the dialect of OpenAI-style tool specs. */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

// The checkers: a tool's schema is the operator's or a hook author's (trusted), the arguments are the
// model's. Unknown keywords and formats are not errors (a spec written for another validator still
// checks what it can); every failure is reported, not only the first.
const OPTIONS = { strict: false, allErrors: true, validateFormats: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/**
 * The check of rewritten arguments against a tool's argument schema (its spec's JSON Schema,
 * compiled with Ajv). A schema Ajv cannot compile (another dialect, a broken `$ref`) takes any
 * object. Imported dynamically (args-validator.ts), with the first rewrite to check: most turns
 * never check one, and the gateway's cold start does not load a JSON Schema compiler.
 *
 * @example
 * toolArgsValidator(terminalTool.spec.function.parameters)({ cmd: 'ls' })
 * // "(args): must have required property 'command'"
 */
export function toolArgsValidator(parameters: unknown): ArgsValidator {
  let validate: ValidateFunction | undefined;
  try {
    validate = compilerFor(parameters).compile(parameters as object);
  } catch {
    validate = undefined;
  }
  return (args) => {
    if (!validate || validate(args)) return undefined;
    return (validate.errors ?? []).map(issueText).join('; ') || 'the arguments do not match the tool schema';
  };
}

function compilerFor(parameters: unknown): Ajv | Ajv2020 {
  const dialect = (parameters as { $schema?: unknown } | null)?.$schema;
  if (typeof dialect === 'string' && DRAFT_2020_12.test(dialect)) return (draft2020 ??= new Ajv2020(OPTIONS));
  return (draft07 ??= new Ajv(OPTIONS));
}

/** `command: must be string`: the failing value's path, dotted, or `(args)` for the arguments object itself. */
function issueText(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map(unescapePointer).join('.');
  return `${path || '(args)'}: ${error.message ?? 'is not valid'}`;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
