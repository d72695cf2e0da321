// The adversarial corpus in headless Chromium (Debian's chromium via playwright-core): the
// package's browser build, a WorkerRuntime (the module in a Worker, as pages should use it).
import { join } from 'node:path';
import { launch, watchPage } from '../browser/chromium.mjs';
import { serve } from '../browser/server.mjs';
import { repoRoot, sdkRoot } from '../conformance/corpus.mjs';

const server = await serve({ '/adversarial/': join(repoRoot, 'conformance', 'adversarial'), '/': sdkRoot });
const browser = await launch();
let ok = false;
try {
  const page = await browser.newPage();
  const problems = watchPage(page, 'chromium');
  await page.goto(server.url + '/test/browser/adversarial.html');
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 30_000 });
  const res = await page.evaluate(() => window.runAdversarial());
  console.log(`chromium: adversarial corpus, ${res.ran} cases through a WorkerRuntime, ${res.failures.length} failures (${res.userAgent})`);
  for (const f of res.failures) console.log(`  ${f}`);
  ok = res.ran >= 50 && res.failures.length === 0 && problems.length === 0;
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = ok ? 0 : 1;
