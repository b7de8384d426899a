// `npm pack` of the built package (SM_WASM_TARBALL, made by scripts/wasm.sh) installs into a
// scratch Node project that imports it by name and uses it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

test('npm pack tarball: installs offline into a scratch project, imports by name, works', () => {
  const tarball = process.env.SM_WASM_TARBALL;
  const dir = process.env.SM_WASM_SCRATCH;
  assert.ok(tarball && dir, 'SM_WASM_TARBALL / SM_WASM_SCRATCH unset');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir, stdio: 'inherit' });
  writeFileSync(path.join(dir, 'use.mjs'), `
import { sm3, Sm2PrivateKey, Sm9SignMasterKey, SmError } from 'sm-crypto-wasm';
const hex = (b) => Buffer.from(b).toString('hex');
const sk = Sm2PrivateKey.generate();
const kgc = Sm9SignMasterKey.generate();
const master = kgc.publicKey();
const sig = kgc.extract('Alice').sign(master, 'm');
let code;
try { Sm2PrivateKey.fromBytes(new Uint8Array(32)); } catch (e) { code = e instanceof SmError && e.code; }
console.log(JSON.stringify({
  sm3: hex(sm3('abc')),
  sm2: sk.publicKey().verify('m', sk.sign('m')),
  sm9: master.verify('Alice', 'm', sig),
  code,
}));
`);
  const outp = JSON.parse(execFileSync('node', ['use.mjs'], { cwd: dir, encoding: 'utf8' }));
  assert.deepEqual(outp, {
    sm3: '66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0',
    sm2: true,
    sm9: true,
    code: 'SM2_INVALID_SECRET_KEY',
  });
  // The CommonJS-free package still resolves its types and the files list is complete.
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const f of ['package/index.js', 'package/node.js', 'package/index.d.ts', 'package/sm_wasm_bg.wasm', 'package/errors.js', 'package/sm_wasm.d.ts']) {
    assert.ok(files.includes(f), `${f} in the tarball`);
  }
});
