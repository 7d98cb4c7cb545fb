import { clipCharacters } from '../../hooks/first-characters.ts';

/** Printing helpers of `hookgate hooks`: colour only on a TTY (and never with NO_COLOR). */
const useColour = (): boolean => Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

const paint = (code: number) => (text: string) => (useColour() ? `\x1b[${code}m${text}\x1b[0m` : text);
export const green = paint(32);
export const red = paint(31);
export const yellow = paint(33);
export const cyan = paint(36);
export const bold = paint(1);

export const OK = () => green('✓');
export const BAD = () => red('✗');
export const WARN = () => yellow('⚠');
export const INFO = () => cyan('ℹ');

export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Longer than `max` characters (code points) → the first `max - 3` plus `...` (§4.2). */
export const clip = clipCharacters;

/** Seconds as Python prints a 3-decimal float (`0.01`, `1.0`). */
export function seconds(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** The last line of `hooks test --expect`: met (exit 0) or not, and why (exit 1). */
export function finishExpectation(expectation: string, met: boolean, why?: string): number {
  say(met ? green(`Expectation '${expectation}' met.`) : red(`Expectation '${expectation}' NOT met${why ? `: ${why}` : ''}.`));
  return met ? 0 : 1;
}

/** A value as JSON for a one-line listing, or its String() when it cannot be serialised. */
export function jsonOrString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}
