// `cargo xtask wasm bench [--quick] [--markdown FILE]`: the package against npm's sm-crypto and
// sm-crypto-v2 in one Node process. Contenders of one row run interleaved (round robin, a batch
// each per round), and min and median per operation over the rounds are reported. With
// --markdown the table replaces the block between the wasm-bench markers of FILE.
// Usage: node bench.mjs PKG [PKG_NO_TABLES] [--quick] [--markdown FILE]; the second package (the
// `--no-tables` build) joins the rows that use the generators' comb tables.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const pkg = args.shift();
const pkgNt = args[0] && !args[0].startsWith('--') ? args.shift() : null;
const quick = args.includes('--quick');
const mdIdx = args.indexOf('--markdown');
const mdFile = mdIdx >= 0 ? args[mdIdx + 1] : null;
const sm = await import(path.join(pkg, 'node.js'));
const nt = pkgNt ? await import(path.join(pkgNt, 'node.js')) : null;
const NT = 'sm-wasm --no-tables';
// The first calls of the --no-tables build compute the tables (once per module instance).
const firstUse = {};
if (nt) {
  let t = performance.now();
  nt.Sm2PrivateKey.generate().free();
  firstUse.sm2 = performance.now() - t;
  t = performance.now();
  nt.Sm9SignMasterKey.generate().free();
  firstUse.sm9 = performance.now() - t;
  console.log(`--no-tables first use: SM2 key generation ${firstUse.sm2.toFixed(1)} ms, SM9 master key generation ${firstUse.sm9.toFixed(1)} ms`);
}
/** The --no-tables contender of a row, when that build is loaded. */
const withNt = (f) => (nt ? [[NT, () => f(nt)]] : []);
const require = createRequire(path.join(process.env.NODE_PATH, 'x.js'));
const smc = require('sm-crypto');
const v2 = require('sm-crypto-v2');
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));

const ROUNDS = quick ? 5 : 15;
const BUDGET_MS = quick ? 20 : 60; // per contender and round

/** Times `f` in batches sized to ~BUDGET_MS; returns per-call ms for each round. */
function calibrate(f) {
  let n = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    const dt = performance.now() - t;
    if (dt > BUDGET_MS / 4 || n > 1e6) return Math.max(1, Math.round((n * BUDGET_MS) / Math.max(dt, 0.01)));
    n *= 4;
  }
}

function race(contenders) {
  const sizes = contenders.map(([, f]) => calibrate(f));
  const times = contenders.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    contenders.forEach(([, f], i) => {
      const n = sizes[i];
      const t = performance.now();
      for (let k = 0; k < n; k++) f();
      times[i].push((performance.now() - t) / n);
    });
  }
  return contenders.map(([name], i) => {
    const s = times[i].sort((a, b) => a - b);
    return { name, min: s[0], median: s[Math.floor(s.length / 2)] };
  });
}

const rows = [];
function row(op, contenders, unit = 'ms') {
  const res = race(contenders);
  rows.push({ op, unit, res });
  const fmt = (x) => (unit === 'MB/s' ? x.toFixed(0) : x < 0.1 ? x.toFixed(4) : x.toFixed(3));
  console.log(op.padEnd(34) + res.map((r) => `${r.name} ${fmt(r.min)} / ${fmt(r.median)}`).join('   '));
}

// --- SM3 ------------------------------------------------------------------------------------
const buf = new Uint8Array(8192).map((_, i) => i * 7);
const arr = Array.from(buf);
const mbps = (ms) => 8192 / 1048576 / (ms / 1000);
{
  const res = race([['sm-wasm', () => sm.sm3(buf)], ['sm-crypto-v2', () => v2.sm3(buf)], ['sm-crypto', () => smc.sm3(arr)]]);
  // MB/s: min time → max rate.
  rows.push({ op: 'SM3 8 KiB (MB/s, best / median)', unit: 'MB/s', res: res.map((r) => ({ name: r.name, min: mbps(r.min), median: mbps(r.median) })) });
  console.log('SM3 8 KiB MB/s'.padEnd(34) + res.map((r) => `${r.name} ${mbps(r.min).toFixed(0)} / ${mbps(r.median).toFixed(0)}`).join('   '));
}

// --- SM2 ------------------------------------------------------------------------------------
const kp = v2.sm2.generateKeyPairHex();
const priv = kp.privateKey.padStart(64, '0');
const sk = sm.Sm2PrivateKey.fromBytes(unhex(priv));
const pk = sk.publicKey();
const vk = new sm.Sm2VerifyingKey(pk);
const msg = 'benchmark message for SM2 signatures';
const pre = v2.sm2.precomputePublicKey(kp.publicKey);
const opt = { hash: true, publicKey: kp.publicKey };
const sig = sk.sign(msg);
const sigHex = hex(sig);
const skNt = nt && nt.Sm2PrivateKey.fromBytes(unhex(priv));
row('SM2 key generation', [
  ['sm-wasm', () => sm.Sm2PrivateKey.generate().free()],
  ...withNt((m) => m.Sm2PrivateKey.generate().free()),
]);
row('SM2 sign (default ID, ZA incl.)', [
  ['sm-wasm', () => sk.sign(msg)],
  ...withNt(() => skNt.sign(msg)),
  ['sm-crypto-v2', () => v2.sm2.doSignature(msg, priv, opt)],
  ['sm-crypto', () => smc.sm2.doSignature(msg, priv, opt)],
]);
row('SM2 verify', [
  ['sm-wasm', () => pk.verify(msg, sig)],
  ['sm-crypto-v2', () => v2.sm2.doVerifySignature(msg, sigHex, kp.publicKey, { hash: true })],
  ['sm-crypto', () => smc.sm2.doVerifySignature(msg, sigHex, kp.publicKey, { hash: true })],
]);
row('SM2 verify, precomputed key', [
  ['sm-wasm', () => vk.verify(msg, sig)],
  ['sm-crypto-v2', () => v2.sm2.doVerifySignature(msg, sigHex, pre, { hash: true })],
]);
const pt = 'thirty-two bytes of plaintext!!!';
const ct = pk.encrypt(pt);
const ctHex = hex(ct.subarray(1));
const pkNt = nt && skNt.publicKey();
row('SM2 encrypt 32 B', [
  ['sm-wasm', () => pk.encrypt(pt)],
  ...withNt(() => pkNt.encrypt(pt)),
  ['sm-crypto-v2', () => v2.sm2.doEncrypt(pt, kp.publicKey, 1)],
  ['sm-crypto', () => smc.sm2.doEncrypt(pt, kp.publicKey, 1)],
]);
row('SM2 encrypt 32 B, precomputed key', [
  ['sm-wasm', () => pk.encrypt(pt)],
  ['sm-crypto-v2', () => v2.sm2.doEncrypt(pt, pre, 1)],
]);
row('SM2 decrypt 32 B', [
  ['sm-wasm', () => sk.decrypt(ct)],
  ['sm-crypto-v2', () => v2.sm2.doDecrypt(ctHex, priv, 1)],
  ['sm-crypto', () => smc.sm2.doDecrypt(ctHex, priv, 1)],
]);

// --- SM9 (no JavaScript peer exists on npm) ---------------------------------------------------
const kgc = sm.Sm9SignMasterKey.generate();
const master = kgc.publicKey();
const alice = kgc.extract('alice@example.com');
const s9 = alice.sign(master, msg);
const ekgc = sm.Sm9EncMasterKey.generate();
const em = ekgc.publicKey();
const bob = ekgc.extract('bob@example.com');
const c9 = em.encrypt('bob@example.com', pt);
const kem = em.encapsulate('bob@example.com', 32);
const kemC = kem.ciphertext;
const P = em.toBytes();
const Q = master.toBytes();
const f = sm.sm9MillerLoop(P, Q);
const PQ = new sm.Sm9PairingPoints(P, Q);
row('SM9 pairing, decoded points', [['sm-wasm', () => PQ.pairing()]]);
row('SM9 pairing from bytes (G2 check incl.)', [['sm-wasm', () => sm.sm9Pairing(P, Q)]]);
row('SM9 Miller loop, decoded points', [['sm-wasm', () => PQ.millerLoop()]]);
row('SM9 final exponentiation', [['sm-wasm', () => sm.sm9FinalExponentiation(f)]]);
row('SM9 sign master key generation', [
  ['sm-wasm', () => sm.Sm9SignMasterKey.generate().free()],
  ...withNt((m) => m.Sm9SignMasterKey.generate().free()),
]);
row('SM9 sign', [['sm-wasm', () => alice.sign(master, msg)]]);
row('SM9 verify', [['sm-wasm', () => master.verify('alice@example.com', msg, s9)]]);
const emNt = nt && nt.Sm9EncMasterPublicKey.fromBytes(em.toBytes());
row('SM9 encrypt 32 B (KDF stream)', [
  ['sm-wasm', () => em.encrypt('bob@example.com', pt)],
  ...withNt(() => emNt.encrypt('bob@example.com', pt)),
]);
row('SM9 decrypt 32 B', [['sm-wasm', () => bob.decrypt('bob@example.com', c9)]]);
row('SM9 KEM encapsulate 32 B', [['sm-wasm', () => em.encapsulate('bob@example.com', 32).free()]]);
row('SM9 KEM decapsulate 32 B', [['sm-wasm', () => bob.decapsulate('bob@example.com', kemC, 32)]]);

function moduleSize(dir) {
  const wasm = readFileSync(path.join(dir, 'sm_wasm_bg.wasm'));
  return { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length };
}
const size = moduleSize(pkg);
console.log(`module: ${size.raw} bytes, ${size.gzip} gzipped`);
const sizeNt = nt && moduleSize(pkgNt);
if (nt) console.log(`--no-tables module: ${sizeNt.raw} bytes, ${sizeNt.gzip} gzipped`);

if (mdFile) {
  // The model string alone does not tell CPU generations apart ("AMD EPYC" is Zen 3 or Zen 5
  // on these machines): add the family and model numbers where /proc/cpuinfo has them.
  let cpu = os.cpus()[0].model.replace(/\s+/g, ' ');
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (k) => info.match(new RegExp(`^${k}\\s*:\\s*(\\d+)`, 'm'))?.[1];
    if (field('cpu family')) cpu += ` (family ${field('cpu family')} model ${field('model')})`;
  } catch {
    // not Linux: the model string only
  }
  const names = ['sm-wasm', ...(nt ? [NT] : []), 'sm-crypto-v2', 'sm-crypto'];
  const fmt = (r, unit) => !r ? '–' : unit === 'MB/s'
    ? `${r.min.toFixed(0)} / ${r.median.toFixed(0)}`
    : `${(r.min * 1000).toFixed(0)} / ${(r.median * 1000).toFixed(0)}`;
  let md = `Node ${process.versions.node}, ${cpu}, one process, contenders interleaved; min / median of ${ROUNDS} rounds, **µs per operation** (SM3: MB/s, best / median); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs at the end of the run (a shared machine: compare within a row). Generated by \`cargo xtask wasm bench --markdown README.md\`.\n\n`;
  md += `| operation | ${names.join(' | ')} |\n|---|${names.map(() => '---:').join('|')}|\n`;
  for (const { op, unit, res } of rows) {
    md += `| ${op} | ${names.map((n) => fmt(res.find((r) => r.name === n), unit)).join(' | ')} |\n`;
  }
  const kib = (s) => `${(s.raw / 1024).toFixed(0)} KiB raw, ${(s.gzip / 1024).toFixed(0)} KiB gzipped`;
  md += `\nModule size: ${kib(size)}`;
  if (nt) {
    md += `; \`--no-tables\` build: ${kib(sizeNt)}. Its first use computes the tables once per module instance: the first SM2 key generation took ${firstUse.sm2.toFixed(1)} ms, the first SM9 master key generation ${firstUse.sm9.toFixed(1)} ms`;
  }
  md += '.\n';
  const text = readFileSync(mdFile, 'utf8');
  const begin = '<!-- wasm-bench:begin -->';
  const end = '<!-- wasm-bench:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${mdFile}: no ${begin} ... ${end} block`);
  writeFileSync(mdFile, text.slice(0, i + begin.length) + '\n' + md + text.slice(j));
  console.log(`wrote the table into ${mdFile}`);
}
