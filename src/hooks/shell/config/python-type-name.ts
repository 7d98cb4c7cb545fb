/**
 * The Python type name of a parsed YAML value, for warnings that "name the type received"
 * (hook-semantics §3.2): configs are shared with Hermes, whose messages say `str`, `dict`…
 *
 * @example
 * pythonTypeName('x') // 'str'
 */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'object':
      return value instanceof Date ? 'datetime' : 'dict';
    default:
      return typeof value;
  }
}
