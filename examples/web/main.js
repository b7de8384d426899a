// The demo page: imports the package's browser entry, runs the annex KATs and round trips, and
// writes each result into the table (the browser test reads them back from the DOM).
import * as sm from './pkg/index.js';

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (h) => new Uint8Array(h.match(/../g)?.map((x) => parseInt(x, 16)) ?? []);
const lower = (h) => h.toLowerCase();
const rows = document.querySelector('#results tbody');
let failures = 0;

function check(name, f) {
  const t0 = performance.now();
  let ok;
  let detail = '';
  try {
    ok = f() === true;
    if (!ok) detail = ' (mismatch)';
  } catch (e) {
    ok = false;
    detail = ` (${e.code || e.name}: ${e.message})`;
  }
  const ms = performance.now() - t0;
  if (!ok) failures++;
  const tr = document.createElement('tr');
  tr.dataset.check = name;
  tr.dataset.ok = String(ok);
  tr.innerHTML = `<td></td><td class="${ok ? 'ok' : 'fail'}"></td><td class="num">${ms.toFixed(2)}</td>`;
  tr.children[0].textContent = name;
  tr.children[1].textContent = (ok ? 'pass' : 'FAIL') + detail;
  rows.append(tr);
}

const V = await (await fetch('./vectors.json')).json();
const s2 = V.sm2_sm3;
const s9 = V.sm9;

check('SM3 GM/T 0004 example 1 ("abc")', () =>
  hex(sm.sm3(unhex(s2.sm3.vectors[0].msg_hex))) === lower(s2.sm3.vectors[0].digest));
check('SM3 GM/T 0004 example 2 (512 bits)', () =>
  hex(sm.sm3(unhex(s2.sm3.vectors[1].msg_hex))) === lower(s2.sm3.vectors[1].digest));
check('SM2 GM/T 0003.5 annex A signature', () => {
  const a = s2.sm2_sign_recommended;
  const sk = sm.Sm2PrivateKey.fromBytes(unhex(a.dA));
  const sig = sm.hazmatSm2SignWithNonce(sk, unhex(a.msg_hex), unhex(a.k), a.id_ascii);
  return hex(sig) === lower(a.r + a.s) && sk.publicKey().verify(unhex(a.msg_hex), sig);
});
check('SM2 GM/T 0003.5 annex C encryption', () => {
  const e = s2.sm2_encrypt_recommended;
  const pk = sm.Sm2PublicKey.fromBytes(unhex('04' + e.xB + e.yB));
  const ct = sm.hazmatSm2EncryptWithNonce(pk, unhex(e.msg_hex), unhex(e.k));
  const sk = sm.Sm2PrivateKey.fromBytes(unhex(e.dB));
  return hex(ct) === lower(e.ciphertext_raw_C1C3C2) && hex(sk.decrypt(ct)) === lower(e.msg_hex);
});
check('SM9 GM/T 0044 annex A signature', () => {
  const a = s9.sign_annexA;
  const kgc = sm.Sm9SignMasterKey.fromBytes(unhex(a.ks));
  const master = kgc.publicKey();
  const sig = sm.hazmatSm9SignWithNonce(kgc.extract(a.ID_A), master, a.M, unhex(a.r));
  const want = a.derived['signature_DER_GmSSL_gmsm (SEQUENCE{h OCTET STRING, S BIT STRING 04||x||y})'];
  return hex(sig) === lower(want) && master.verify(a.ID_A, a.M, sig);
});
check('SM9 GM/T 0044 annex C key encapsulation', () => {
  const c = s9.kem_annexC;
  const kgc = sm.Sm9EncMasterKey.fromBytes(unhex(c.ke));
  const kem = sm.hazmatSm9EncapsulateWithNonce(kgc.publicKey(), c.ID_B, c.klen_bits / 8, unhex(c.r));
  return hex(kem.key) === lower(c.K) && hex(kgc.extract(c.ID_B).decapsulate(c.ID_B, kem.ciphertext, 32)) === lower(c.K);
});
check('SM9 GM/T 0044 annex D encryption (KDF stream, SM3 MAC)', () => {
  const d = s9.encrypt_annexD;
  const kgc = sm.Sm9EncMasterKey.fromBytes(unhex(d.ke));
  const ct = sm.hazmatSm9EncryptWithNonce(kgc.publicKey(), d.ID_B, unhex(d.M_hex), unhex(d.r), new Uint8Array(16), 'xor', 'sm3');
  const h = hex(ct);
  return h.includes(lower(d.C1)) && h.includes(lower(d.xor_mode.C2)) &&
    new TextDecoder().decode(kgc.extract(d.ID_B).decrypt(d.ID_B, ct)) === d.M;
});
check('SM9 pairing e(P1, P2)', () => {
  const cv = s9.curve;
  const p1 = unhex('04' + cv.P1_x + cv.P1_y);
  const p2 = unhex('04' + cv.P2_x_a1 + cv.P2_x_a0 + cv.P2_y_a1 + cv.P2_y_a0);
  return hex(sm.sm9Pairing(p1, p2)) === lower(cv.derived['e(P1,P2) (not printed in the standard; computed by sm9_ref.py)']);
});

// Fresh keys: SM9 sign/verify and encrypt/decrypt, SM2 round trip.
const kgc = sm.Sm9SignMasterKey.generate();
const master = kgc.publicKey();
const alice = kgc.extract('alice@example.com');
let sig9;
check('SM9 sign (fresh master key, first call builds the tables)', () => {
  sig9 = alice.sign(master, 'hello from the browser');
  return sig9.length > 0;
});
check('SM9 verify', () => master.verify('alice@example.com', 'hello from the browser', sig9));
check('SM9 verify rejects another message', () => !master.verify('alice@example.com', 'hello from the browseR', sig9));
const ekgc = sm.Sm9EncMasterKey.generate();
const emaster = ekgc.publicKey();
const bob = ekgc.extract('bob@example.com');
let ct9;
check('SM9 encrypt (SM4-CBC)', () => {
  ct9 = emaster.encrypt('bob@example.com', 'for Bob only', 'sm4-cbc');
  return ct9.length > 0;
});
check('SM9 decrypt', () => new TextDecoder().decode(bob.decrypt('bob@example.com', ct9)) === 'for Bob only');
check('SM2 sign / verify / encrypt / decrypt round trip', () => {
  const sk = sm.Sm2PrivateKey.generate();
  const pk = sk.publicKey();
  const sig = sk.sign('page');
  const ct = pk.encrypt('page', 'C1C3C2');
  return pk.verify('page', sig) && new TextDecoder().decode(sk.decrypt(ct)) === 'page';
});
check('bad input throws SmError with a code', () => {
  try {
    sm.Sm2PublicKey.fromBytes(new Uint8Array(65));
    return false;
  } catch (e) {
    return e instanceof sm.SmError && e.code === 'SM2_INVALID_PUBLIC_KEY';
  }
});

const total = rows.children.length;
document.querySelector('#summary').textContent =
  failures === 0 ? `all ${total} checks passed` : `${failures} of ${total} checks FAILED`;
document.body.dataset.failures = String(failures);
document.body.dataset.done = 'true';
