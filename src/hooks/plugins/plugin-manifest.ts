import * as z from '../../validation/zod.ts';

/**
 * `plugin.yaml`: every field optional (a plugin needs none), unknown fields kept; what is
 * present must have the right type. `name` overrides the directory name (§1.2).
 */
export const PluginManifestSchema = z.looseObject({
  name: z.nullish(z.string().check(z.minLength(1, 'must be a non-empty string'))),
  version: z.nullish(z.union([z.string(), z.number()])),
  description: z.nullish(z.string()),
  author: z.nullish(z.string()),
  provides_hooks: z.nullish(z.array(z.string())),
  provides_tools: z.nullish(z.array(z.string())),
});

export type PluginManifest = z.infer<typeof PluginManifestSchema>;

/** One line per zod issue, naming the field: `field 'name': must be a non-empty string`. */
export function describeManifestIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `field '${issue.path.length > 0 ? issue.path.join('.') : '(root)'}': ${issue.message}`)
    .join('; ');
}
