import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, as .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

/** A headless Chromium with the flags this machine needs (no sandbox as root, no calls home). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
