// Loads README example pages (written by scripts/doc_examples.py) in Debian's Chromium through
// playwright-core, served over HTTP from the example npm project, and prints one line per page:
// "<page>\tok <checks>" or "<page>\terror <why>".
//
//   node scripts/doc_browser.mjs APP_DIR PAGE...
import { launch, watchPage } from '../sdk-js/test/browser/chromium.mjs';
import { serve } from '../sdk-js/test/browser/server.mjs';

const [dir, ...pages] = process.argv.slice(2);
const server = await serve({ '/': dir });
const browser = await launch();
try {
  for (const page of pages) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const problems = watchPage(tab, page);
    let checks = 0;
    tab.on('console', (m) => { if (m.text().startsWith('ok: ')) checks++; });
    let result;
    try {
      await tab.goto(`${server.url}/${page}`);
      await tab.waitForFunction(() => window.__docExample !== undefined, null, { timeout: 90_000 });
      result = await tab.evaluate(() => window.__docExample);
    } catch (e) {
      result = `error: ${e.message.split('\n')[0]}`;
    }
    if (result === 'ok' && problems.length) result = `error: ${problems.join('; ')}`;
    console.log(`${page}\t${result === 'ok' ? `ok ${checks}` : result.replace(/\n/g, ' | ')}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
