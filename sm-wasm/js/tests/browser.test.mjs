// A real browser: Debian's chromium, headless, driven by playwright-core, loads examples/web/
// from 127.0.0.1 and runs the page's KATs and round trips; the test reads the results back
// from the DOM and fails on any failed check or any console error. Also saves a screenshot
// (target/wasm/screenshot.png; the README's copy is examples/web/screenshot.png).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { peer, pkgDir } from './helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { serve } = await import(path.join(root, 'examples/web/serve.mjs'));
const { chromium } = peer('playwright-core');

test('examples/web in headless Chromium: every check passes, no console error', async () => {
  const server = await serve({ pkg: pkgDir, vectors: process.env.SM_WASM_VECTORS });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'sm-wasm-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  }).catch((e) => { throw new Error(`cannot start /usr/bin/chromium: ${e.message}`); });
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    const url = `http://127.0.0.1:${server.address().port}/`;
    await page.goto(url);
    await page.waitForSelector('body[data-done="true"]', { timeout: 60000 });
    const rows = await page.$$eval('#results tbody tr', (trs) =>
      trs.map((tr) => ({ name: tr.dataset.check, ok: tr.dataset.ok === 'true', text: tr.children[1].textContent })));
    const ua = await page.evaluate(() => navigator.userAgent);
    console.log(`browser: ${ua}`);
    for (const r of rows) console.log(`  ${r.ok ? 'pass' : 'FAIL'}  ${r.name}`);
    assert.ok(rows.length >= 15, `only ${rows.length} checks on the page`);
    for (const r of rows) assert.ok(r.ok, `${r.name}: ${r.text}`);
    assert.equal(await page.getAttribute('body', 'data-failures'), '0');
    await page.setViewportSize({ width: 760, height: 620 });
    await page.screenshot({ path: path.join(root, 'target/wasm/screenshot.png') });
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  assert.deepEqual(errors, [], 'console errors');
});
