import type { HookLogger, LogLevel } from '../hooks/hook-logger.ts';

type HeldLine = { level: LogLevel; message: string } | { level: 'print'; message: string };

/**
 * The log and `[hooks] ` lines of an engine being built for a hot reload, held back until it
 * is known whether the engine is used: {@link release} writes them and lets later lines
 * through (the engine went live), {@link discard} drops them (the reload failed, and its own
 * line says why). Read {@link lines} for the reasons a build gave.
 *
 * @example
 * const output = new HeldEngineOutput({ logger: createStderrLogger(), print: console.log });
 * const engine = await createHookEngine({ home, logger: output.logger, print: output.print });
 * ok ? output.release() : output.discard();
 */
export class HeldEngineOutput {
  #held: HeldLine[] | undefined = [];
  #live = false;
  readonly logger: HookLogger;
  readonly print: (line: string) => void;

  constructor(private readonly target: { logger: HookLogger; print: (line: string) => void }) {
    const at = (level: LogLevel) => (message: string) => this.#write({ level, message });
    this.logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    this.print = (message) => this.#write({ level: 'print', message });
  }

  /** What the build said so far (held lines only). */
  get lines(): readonly HeldLine[] {
    return this.#held ?? [];
  }

  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    this.#live = true;
    for (const line of held) this.#emit(line);
  }

  discard(): void {
    this.#held = undefined;
  }

  #write(line: HeldLine): void {
    if (this.#live) this.#emit(line);
    else this.#held?.push(line);
  }

  #emit(line: HeldLine): void {
    if (line.level === 'print') this.target.print(line.message);
    else this.target.logger[line.level](line.message);
  }
}
