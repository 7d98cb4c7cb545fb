import { describe, expect, it } from 'vitest';
import { terminalTool } from '../../src/agent/tools/terminal.ts';
import { toolArgsValidator } from '../../src/agent/tools/tool-args-validator.ts';

/** The check of a pre_tool_call rewrite against the tool's argument schema (hook-semantics §5.10). */
describe('toolArgsValidator', () => {
  const terminal = toolArgsValidator(terminalTool.spec.function.parameters);

  it('passes arguments that fit and names every way others do not, by path', () => {
    expect(terminal({ command: 'ls', timeout: 5 })).toBeUndefined();
    expect(terminal({ cmd: 'ls' })).toBe("(args): must have required property 'command'");
    expect(terminal({ command: 42, timeout: 1.5 })).toBe('command: must be string; timeout: must be integer');
  });

  it('reads a schema without $schema as draft-07 and one that declares 2020-12 as 2020-12', () => {
    const tuple = { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(toolArgsValidator(tuple)({ pair: ['a', 'b'] })).toBe('pair.1: must be integer');
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] }, 'a/b~c': { type: 'integer' } },
    };
    expect(toolArgsValidator(modern)({ pair: [1], 'a/b~c': 'x' })).toBe('pair.0: must be string; a/b~c: must be integer');
  });

  it('takes any arguments when the schema cannot be compiled, and ignores keywords and formats it does not know', () => {
    expect(toolArgsValidator({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })({ x: 1 })).toBeUndefined();
    expect(toolArgsValidator({ type: 'object', properties: { a: { $ref: '#/missing' } } })({ a: 1 })).toBeUndefined();
    const loose = { type: 'object', properties: { at: { type: 'string', format: 'moment', 'x-ui': 'clock' } } };
    expect(toolArgsValidator(loose)({ at: 'noon' })).toBeUndefined();
    expect(toolArgsValidator(loose)({ at: 12 })).toBe('at: must be string');
  });
});
