/** Ports of the end-to-end servers; they differ only in configuration (see playwright.config.ts). */
export const servers = {
  main: 4310,
  captcha: 4311,
  expiry: 4312,
} as const;
