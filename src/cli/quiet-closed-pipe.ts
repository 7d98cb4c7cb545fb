/**
 * `hookgate hooks list | head -1`: once the reader is gone, the next write fails with EPIPE,
 * which Node raises as an unhandled 'error' event (a stack trace on the terminal). A command
 * whose output nobody reads any more has nothing left to do: it exits, quietly, with status 0.
 * Any other stream error is still thrown.
 *
 * @example
 * exitQuietlyOnClosedPipe(); // first thing in bin/hookgate.js
 */
export function exitQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw error;
    });
  }
}
