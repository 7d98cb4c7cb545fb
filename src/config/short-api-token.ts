/** Below this many characters a `/v1` token (and the console behind it) is called short: it can be guessed. */
export const SHORT_API_TOKEN_CHARS = 16;

/**
 * The warning for a `HOOKGATE_API_TOKEN` shorter than {@link SHORT_API_TOKEN_CHARS}, or undefined.
 * Any length is taken (the token is the operator's choice); start-up says what a short one risks.
 *
 * @example
 * shortApiTokenWarning('test-token') // 'HOOKGATE_API_TOKEN is 10 characters: …'
 * shortApiTokenWarning(undefined)    // undefined: /v1 is closed
 */
export function shortApiTokenWarning(token: string | undefined): string | undefined {
  if (token === undefined || token.length >= SHORT_API_TOKEN_CHARS) return undefined;
  return (
    `HOOKGATE_API_TOKEN is ${token.length} characters: a token that short can be guessed, and it guards /v1 ` +
    '(and the console where it is served); use at least 32 random characters'
  );
}
