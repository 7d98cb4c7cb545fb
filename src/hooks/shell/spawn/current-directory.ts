/** The process's working directory at firing time, `""` when it cannot be determined. */
export function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return '';
  }
}
