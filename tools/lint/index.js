/** typescript-eslint, resolved from here so that it finds the TypeScript beside it (see package.json). */
export { default as tseslint } from 'typescript-eslint';
