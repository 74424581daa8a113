// Secrets in a spec are read from the environment by name, never written into the file.

/** The value of environment variable `name`; throws, naming it and what it is for, when it is unset or empty. */
export function requireEnv(name: string, purpose?: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `Set the environment variable ${name}${purpose ? ` (${purpose})` : ''} before running this test: its value is a secret and is not stored in the spec.`,
    );
  }
  return value;
}
