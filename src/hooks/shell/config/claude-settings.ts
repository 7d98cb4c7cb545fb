import * as z from '../../../validation/zod.ts';
import { HookgateError } from '../../../errors/hookgate-error.ts';
import { errorText } from '../../../errors/error-text.ts';

/** One handler of a Claude Code matcher group: `type` decides which other fields apply. */
const ClaudeHookHandlerSchema = z.looseObject({
  type: z.string({ error: 'must be a string ("command", "prompt", "http", …)' }),
  command: z.optional(z.string({ error: 'must be a string' })),
  url: z.optional(z.string({ error: 'must be a string' })),
  headers: z.optional(z.record(z.string(), z.unknown(), { error: 'must be a mapping of header names to values' })),
  prompt: z.optional(z.string({ error: 'must be a string' })),
  model: z.optional(z.string({ error: 'must be a string' })),
  timeout: z.optional(z.number({ error: 'must be a number of seconds' })),
});

const ClaudeMatcherGroupSchema = z.looseObject({
  matcher: z.optional(z.string({ error: 'must be a string (a tool name or regex)' })),
  hooks: z.array(ClaudeHookHandlerSchema, { error: 'must be a list of hook handlers' }),
});

/**
 * The part of a Claude Code settings file (`.claude/settings.json`, `~/.claude/settings.json`)
 * the import reads: `hooks` maps an event name to matcher groups, each with its handlers.
 * Other settings keys are ignored.
 */
export const ClaudeSettingsSchema = z.looseObject({
  hooks: z.optional(z.record(z.string(), z.array(ClaudeMatcherGroupSchema, { error: 'must be a list of matcher groups' }))),
});

export type ClaudeSettings = z.infer<typeof ClaudeSettingsSchema>;
export type ClaudeHookHandler = z.infer<typeof ClaudeHookHandlerSchema>;

/** A settings file that is not JSON or not in Claude Code's shape; the message names the problems. */
export class ClaudeSettingsError extends HookgateError {
  override readonly name = 'ClaudeSettingsError';
}

/**
 * Parses and validates the text of a Claude Code settings file. Throws
 * {@link ClaudeSettingsError} with one line per problem (`hooks.PreToolUse[0].hooks: …`).
 *
 * @example
 * const settings = parseClaudeSettings(await readFile('.claude/settings.json', 'utf8'));
 * Object.keys(settings.hooks ?? {}); // ['PreToolUse', 'Stop']
 */
export function parseClaudeSettings(text: string): ClaudeSettings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ClaudeSettingsError(`not valid JSON: ${errorText(error)}`);
  }
  const parsed = ClaudeSettingsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ClaudeSettingsError(
    parsed.error.issues
      .map(
        (issue) =>
          `${
            issue.path.length > 0
              ? issue.path
                  .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
                  .join('')
                  .replace(/^\./, '')
              : '(root)'
          }: ${issue.message}`,
      )
      .join('\n'),
  );
}
