/**
 * Runs npm scripts at the same time and fails when any of them fails: the static checks of
 * `npm test` (types, lint, charts) each keep one core busy, so on a machine of several they finish
 * in about the time of the longest. Each script's output is printed whole when it ends, under its
 * name, so the outputs do not interleave.
 *
 *   tsx scripts/together.ts typecheck lint charts:check
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: tsx scripts/together.ts <npm script> [<npm script> …]');
  process.exit(2);
}

const started = performance.now();
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise<{ name: string; code: number; output: string; seconds: number }>((resolve) => {
        const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        child.once('error', (err) =>
          resolve({
            name,
            code: 1,
            output: `${output}${String(err)}\n`,
            seconds: (performance.now() - started) / 1000,
          }),
        );
        child.once('exit', (code, signal) => {
          const seconds = (performance.now() - started) / 1000;
          console.log(
            `\n── npm run ${name}: ${code === 0 ? 'passed' : `failed (${signal ?? code})`} in ${seconds.toFixed(0)} s`,
          );
          if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
          resolve({ name, code: code ?? 1, output, seconds });
        });
      }),
  ),
);

const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) {
  console.error(`\n${failed.map((r) => r.name).join(', ')} failed`);
  process.exit(1);
}
