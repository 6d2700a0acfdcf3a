import { parseArgs } from 'node:util';

/** The knobs every cluster check takes from the command line. */
export type CheckOptions = { students: number; thinkMs: number; seed: number };

/**
 * Runs a cluster check from `--students`, `--think-ms` and `--seed` (each defaulting to
 * `defaults`) and prints the plain closing line CI reads, each check counting as one test.
 * Answers the exit code.
 */
export async function runCheckCli(
  argv: string[],
  defaults: CheckOptions,
  run: (options: CheckOptions) => Promise<{ ok: boolean; passed: number; failures: string[] }>,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      students: { type: 'string' },
      'think-ms': { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const result = await run({
    students: num(values.students, defaults.students),
    thinkMs: num(values['think-ms'], defaults.thinkMs),
    seed: num(values.seed, defaults.seed),
  });
  console.log(`${result.passed} passed, ${result.failures.length} failed`);
  return result.ok ? 0 : 1;
}
