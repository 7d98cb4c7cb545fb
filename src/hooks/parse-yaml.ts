/**
 * Parses YAML text with the `yaml` package, loaded on first use: a deployed function runs
 * from a hooks home described at synth (src/hooks/bundled-hooks.ts) and never parses YAML,
 * so its cold start does not compile the parser (116 KB; docs/performance.md#cold-start).
 * Throws what `yaml`'s `parse` throws.
 *
 * @example
 * const config = await parseYaml(await readFile(join(home, 'config.yaml'), 'utf8'));
 */
export async function parseYaml(text: string): Promise<unknown> {
  const { parse } = await import('yaml');
  return parse(text);
}
