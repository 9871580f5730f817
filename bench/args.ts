/** The command line of a bench script: its arguments, and the value after a flag (`--max 100000`). */
export const args = process.argv.slice(2)

export function argValue(name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
