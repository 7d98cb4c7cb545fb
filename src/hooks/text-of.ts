/**
 * `String(value)`, or `undefined` when that throws (a `toString` or `Symbol.toPrimitive`
 * that throws, an object with a null prototype): hook results are untrusted values, and one
 * that cannot be turned into text is ignored rather than failing its caller.
 *
 * @example
 * textOf(42) // '42'
 * textOf(Object.create(null)) // undefined: no toString to call
 */
export function textOf(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}
