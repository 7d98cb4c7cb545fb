/**
 * Deepest nesting of arrays and objects the hook API and the webhooks take. Hook kwargs and
 * platform payloads are a few levels deep (conversation history: message → tool call →
 * arguments; Discord's subcommand options); a body nested thousands of levels deep cannot be
 * validated or rendered (recursive parsers and serialisers run out of stack), so it is refused
 * at the door with 400 instead of failing later as if it were temporary.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The nesting depth of a parsed JSON value (a scalar is 0, `{}` and `[]` are 1), walked
 * without recursion; stops counting once `limit` is exceeded.
 *
 * @example
 * jsonDepth({ a: [1, { b: 2 }] }) // 3
 */
export function jsonDepth(value: unknown, limit: number = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, here]);
    }
  }
  return deepest;
}
