import { escapeControlCharacters } from '../logging/escape-control-characters.ts';
import { redactSecrets } from '../secrets/redact-secrets.ts';

const LOADED_HOOK = "[hooks] Loaded hook '";

/**
 * Where `hookgate dev`'s engines print their `[hooks] …` lines: standard output, as they are
 * (hook-semantics §0.5: each line starts with `[hooks] `; the banner around them is plain text
 * too). A reload's engine leaves out `[hooks] Loaded hook '…' for events: […]`: the reload says
 * what it added or removed, and a line per hook at every save would bury it. Errors and skips
 * (`[hooks] Skipping …`) always print.
 *
 * @example
 * createHookEngine({ home, gatewayHooks: true, print: devEnginePrinter() });
 * createHookEngine({ home, gatewayHooks: true, print: devEnginePrinter({ reload: true }) });
 */
export function devEnginePrinter(
  options: { reload?: boolean } = {},
  stream: NodeJS.WritableStream = process.stdout,
): (line: string) => void {
  return (line) => {
    // Plain, but as every log line is: secrets redacted (a handler's error may quote one) and
    // control characters escaped (a hook's name or error cannot forge a line).
    if (!(options.reload && line.startsWith(LOADED_HOOK))) stream.write(`${escapeControlCharacters(redactSecrets(line))}\n`);
  };
}
