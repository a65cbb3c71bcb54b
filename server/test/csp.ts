/** A Content-Security-Policy header's directives, each with its sources. */
export function directives(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}
