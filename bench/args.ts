import { parseArgs } from "node:util";

type Values<D> = { [K in keyof D]: D[K] extends string ? string : string | undefined };

/**
 * A benchmark's command line, parsed by node:util's parseArgs. Every flag takes a value
 * (`--name value` or `--name=value`) and has the default given here (undefined: none); the bench
 * turns the strings into numbers and lists. `--help` (`-h`) prints the flags with their defaults and
 * exits; an unknown flag or a missing value prints parseArgs's message and the flags, and exits 1.
 */
export function benchArgs<const D extends Record<string, string | undefined>>(command: string, defaults: D, argv = process.argv.slice(2)): Values<D> {
  const usage = [
    `Usage: ${command} [-- options]   (see the comment at the top of the file for what they mean)`,
    ...Object.entries(defaults).map(([name, value]) => `  --${name} <value>${value === undefined ? "" : `   default ${value}`}`),
    "  --help, -h",
  ].join("\n");
  const options: Record<string, { type: "string"; default?: string }> = {};
  for (const [name, value] of Object.entries(defaults)) options[name] = value === undefined ? { type: "string" } : { type: "string", default: value };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(1);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  delete values.help;
  return values as Values<D>;
}
