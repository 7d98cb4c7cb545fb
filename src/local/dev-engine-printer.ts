import { createLinePrinter } from '../logging/log-line.ts';

const LOADED_HOOK = "[hooks] Loaded hook '";

/**
 * Where `hookgate dev`'s engines print their `[hooks] …` lines: the one log format, minus
 * `[hooks] Loaded hook '…' for events: […]` — the banner lists every gateway hook with its
 * events, and a reload says what it added or removed, so a line per hook at every start and
 * every reload only buries what matters. Errors and skips (`[hooks] Skipping …`) still print.
 *
 * @example
 * createHookEngine({ home, gatewayHooks: true, print: devEnginePrinter() });
 */
export function devEnginePrinter(stream: NodeJS.WriteStream = process.stdout): (line: string) => void {
  const print = createLinePrinter('hookgate-dev', stream);
  return (line) => {
    if (!line.startsWith(LOADED_HOOK)) print(line);
  };
}
