import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless Chromium driven by playwright-core (no browser download: Debian's build), with a
 * fresh profile and nothing of its own going out to the network.
 *
 * @example
 * const browser = await openBrowser();
 * const page = await browser.newPage();
 */
export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the viewer's browser checks need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (or set GROVE_CHROMIUM)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
