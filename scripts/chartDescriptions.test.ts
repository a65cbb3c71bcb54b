import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { withoutDescriptions, withoutStepDocumentation } from './chartDescriptions';

const root = path.resolve(import.meta.dirname, '..');

describe('charts without their descriptions (production bundle)', () => {
  it('removes plain-text descriptions and keeps every other property, including a computed one', () => {
    const source = [
      "const a = { description: 'Waiting.', on: { GO: 'b' } };",
      'const b = { on: { X: { description: `Ignored.` } }, tags: ["t"], description: "Last, it\'s quoted." };',
      "const c = { ...(extra.description ? { description: extra.description } : {}), target: 'd' };",
      "const d = { description: 'Paid – the buyer’s tickets…', after: 'e', label: '✓ done' };",
    ].join('\n');
    const out = withoutDescriptions(source, 'chart.ts');
    expect(out).not.toContain('Waiting.');
    expect(out).not.toContain('Ignored.');
    expect(out).not.toContain('quoted');
    expect(out).toContain("on: { GO: 'b' }");
    expect(out).toContain('tags: ["t"]');
    expect(out).toContain('{ description: extra.description }');
    expect(out).toContain("target: 'd'");
    // Text beyond ASCII before and inside a description is cut at the right place.
    expect(out).not.toContain('Paid');
    expect(out).toContain("after: 'e', label: '✓ done'");
    // Still valid code with the same values.
    const values = new Function('extra', `${out}\nreturn [a, b, c, d];`)({ description: undefined });
    expect(values).toEqual([
      { on: { GO: 'b' } },
      { on: { X: {} }, tags: ['t'] },
      { target: 'd' },
      { after: 'e', label: '✓ done' },
    ]);
  });

  it('takes out of the root chart only its descriptions', () => {
    const file = path.join(root, 'machines/checkout/checkout.machine.ts');
    const source = readFileSync(file, 'utf8');
    const out = withoutDescriptions(source, file);
    expect(source).toMatch(/description: '/);
    expect(out).not.toMatch(/description: '/);
    expect(out.split('\n').filter((l) => l.includes('invoke:')).length).toBe(
      source.split('\n').filter((l) => l.includes('invoke:')).length,
    );
  });

  it('takes out of a step module its chart’s documentation, and keeps what the app runs', async () => {
    const file = path.join(root, 'src/steps/payment/step.ts');
    const source = readFileSync(file, 'utf8');
    const out = withoutStepDocumentation(source, file);
    for (const key of ['file:', 'placement:', 'definition:']) {
      expect(source).toContain(key);
      expect(out).not.toContain(key);
    }
    expect(out).not.toContain('machines/payment/payment.machine');
    expect(out).toContain("step: 'payment'");
    expect(out).toContain("name: 'payment'");
    expect(out).toContain("import('./paymentActors')");
    expect(out).toContain("lazy(() => import('./PaymentStep'))");
  });
});
