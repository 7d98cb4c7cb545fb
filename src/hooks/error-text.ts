/** The text of a thrown value for log lines: an Error's message, anything else via String(). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
