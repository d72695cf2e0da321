// Starts Debian's Chromium through playwright-core (no browser download).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Forwards the page's console errors and uncaught exceptions to stderr; returns the list. */
export function watchPage(page, label) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') {
      problems.push(m.text());
      console.error(`[${label} console.error] ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => {
    problems.push(String(e));
    console.error(`[${label} pageerror] ${e}`);
  });
  return problems;
}
