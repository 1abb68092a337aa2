import type { z } from 'zod';

/**
 * Parses the environment once, at start-up; a bad value stops the process with a message naming
 * the variable (never its value: some are secrets). Empty strings count as unset, as in a shell.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
): z.infer<S> {
  const result = schema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
