import * as z from 'zod';

/**
 * `plugin.yaml`: every field optional (a plugin needs none), unknown fields kept; what is
 * present must have the right type. `name` overrides the directory name (§1.2).
 */
export const PluginManifestSchema = z.looseObject({
  name: z.string().min(1, 'must be a non-empty string').nullish(),
  version: z.union([z.string(), z.number()]).nullish(),
  description: z.string().nullish(),
  author: z.string().nullish(),
  provides_hooks: z.array(z.string()).nullish(),
  provides_tools: z.array(z.string()).nullish(),
});

export type PluginManifest = z.infer<typeof PluginManifestSchema>;

/** One line per zod issue, naming the field: `field 'name': must be a non-empty string`. */
export function describeManifestIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `field '${issue.path.length > 0 ? issue.path.join('.') : '(root)'}': ${issue.message}`)
    .join('; ');
}
