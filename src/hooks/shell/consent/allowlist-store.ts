/** One consent record (hook-semantics §3.9, §5.5). Field names are the file format's. */
export interface AllowlistEntry {
  readonly event: string;
  readonly command: string;
  /** ISO-8601 UTC, `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`. */
  readonly approved_at: string;
  readonly script_mtime_at_approval: string | null;
  /** hookgate addition; absent in entries written by other clients. */
  readonly script_sha256_at_approval?: string | null;
}

/**
 * Shell-hook consent records. The file store serves local runs; the DynamoDB store serves a
 * deployed stack. Both pass the same contract tests.
 */
export interface AllowlistStore {
  /** The entry for (event, command), compared string-equal. */
  find(event: string, command: string): Promise<AllowlistEntry | undefined>;
  /** Every well-formed entry, in stored order. */
  list(): Promise<AllowlistEntry[]>;
  /**
   * Records an approval: the old entry for (event, command) is removed and the new one is
   * appended at the end. Never throws: a failure to persist is logged (§3.9) and reported
   * as `false`.
   */
  record(entry: AllowlistEntry): Promise<boolean>;
  /** Removes every entry whose command equals `command` exactly; returns how many. */
  revoke(command: string): Promise<number>;
  /** A human-readable location for messages (a file path, or `dynamodb://table`). */
  readonly location: string;
}
