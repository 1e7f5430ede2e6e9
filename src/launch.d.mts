/** src/launch.mjs's functions, for the tests that import them. */
export function fingerprint(esbuildVersion: string, root?: string): string;
export function bundle(): Promise<string>;
