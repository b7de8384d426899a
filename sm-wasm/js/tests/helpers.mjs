// Shared by the Node tests: the built package (SM_WASM_PKG), the exported known-answer data
// (SM_WASM_VECTORS, written by `cargo xtask wasm`), and the npm peers (NODE_PATH, installed by
// scripts/wasm.sh with npm ci). Missing pieces fail the tests: nothing is skipped.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the tests with \`cargo xtask wasm test\``);
  return v;
}

export const pkgDir = need('SM_WASM_PKG');
export const sm = await import(path.join(pkgDir, 'node.js'));
export const vectors = JSON.parse(readFileSync(need('SM_WASM_VECTORS'), 'utf8'));

// CommonJS peers from target/wasm/node/node_modules (createRequire honours NODE_PATH).
const require = createRequire(path.join(need('NODE_PATH'), 'x.js'));
export const peer = (name) => require(name);

export const hex = (b) => Buffer.from(b).toString('hex');
export const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
export const utf8 = (s) => new TextEncoder().encode(s);

/** Runs `f`, which must throw an SmError with `code`. */
export function throwsCode(assert, f, code) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof sm.SmError, `expected SmError, got ${e && e.constructor && e.constructor.name}: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.code, code, `code of "${e.message}"`);
    return true;
  });
}
