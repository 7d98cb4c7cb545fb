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

/** Longer than `max` → the first `max - 3` characters plus `...` (§4.2). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Seconds as Python prints a 3-decimal float (`0.01`, `1.0`). */
export function seconds(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
