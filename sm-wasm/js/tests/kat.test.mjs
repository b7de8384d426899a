// Known answers: the GM/T annex examples and the GmSSL cases of sm-testvectors, byte for byte.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sm, vectors, hex, unhex, utf8 } from './helpers.mjs';

const V = vectors.sm2_sm3;
const S9 = vectors.sm9;
const G = vectors.gmssl;
const lower = (h) => h.toLowerCase();

test('SM3: GM/T 0004 annex examples and GmSSL cases (one-shot and incremental)', () => {
  const cases = [
    ...V.sm3.vectors.map((v) => [v.msg_hex, v.digest]),
    ...G.sm3.map((c) => [c.message_hex, c.digest_hex]),
  ];
  assert.ok(cases.length >= 7);
  for (const [m, d] of cases) {
    assert.equal(hex(sm.sm3(unhex(m))), lower(d));
    const h = new sm.Sm3();
    const b = unhex(m);
    h.update(b.subarray(0, 3));
    h.update(b.subarray(3));
    assert.equal(hex(h.digest()), lower(d));
    h.free();
  }
  assert.equal(hex(sm.sm3('abc')), lower(V.sm3.vectors[0].digest));
});

test('HMAC-SM3 vectors', () => {
  for (const v of V.hmac_sm3.vectors) {
    const tag = hex(sm.hmacSm3(unhex(v.key), unhex(v.msg)));
    if (v.result === 'valid') assert.equal(tag, lower(v.tag), `tcId ${v.tcId}`);
    else assert.notEqual(tag, lower(v.tag), `tcId ${v.tcId}`);
  }
});

test('SM2 annex A signature (GM/T 0003.5) and annex C encryption', () => {
  const s = V.sm2_sign_recommended;
  const sk = sm.Sm2PrivateKey.fromBytes(unhex(s.dA));
  assert.equal(hex(sk.publicKey().toBytes()), lower('04' + s.xA + s.yA));
  const sig = sm.hazmatSm2SignWithNonce(sk, unhex(s.msg_hex), unhex(s.k), s.id_ascii);
  assert.equal(hex(sig), lower(s.r + s.s));
  assert.equal(sk.publicKey().verify(unhex(s.msg_hex), sig), true);
  assert.equal(sk.publicKey().verifyDer(unhex(s.msg_hex), unhex(s.signature_der)), true);
  assert.equal(hex(sk.publicKey().toDer()), lower(s.spki_public_key_der));
  assert.equal(hex(sm.Sm2PrivateKey.fromDer(unhex(s.pkcs8_private_key_der)).toBytes()), lower(s.dA));

  const e = V.sm2_encrypt_recommended;
  const pk = sm.Sm2PublicKey.fromBytes(unhex('04' + e.xB + e.yB));
  const dk = sm.Sm2PrivateKey.fromBytes(unhex(e.dB));
  const m = unhex(e.msg_hex);
  assert.equal(hex(sm.hazmatSm2EncryptWithNonce(pk, m, unhex(e.k))), lower(e.ciphertext_raw_C1C3C2));
  assert.equal(hex(sm.hazmatSm2EncryptWithNonce(pk, m, unhex(e.k), 'C1C2C3')), lower(e.ciphertext_raw_C1C2C3));
  assert.equal(hex(sm.hazmatSm2EncryptWithNonce(pk, m, unhex(e.k), 'DER')), lower(e.ciphertext_der_gmt0009));
  assert.equal(hex(dk.decrypt(unhex(e.ciphertext_raw_C1C3C2))), e.msg_hex.toLowerCase());
  assert.equal(hex(dk.decrypt(unhex(e.ciphertext_raw_C1C2C3), 'C1C2C3')), e.msg_hex.toLowerCase());
  assert.equal(hex(dk.decrypt(unhex(e.ciphertext_der_gmt0009), 'DER')), e.msg_hex.toLowerCase());
});

test('SM2: OpenSSL-generated signature and ciphertexts', () => {
  const o = V.openssl_generated_rustcrypto;
  const pk = sm.Sm2PublicKey.fromBytes(unhex(o.sign.public_key_sec1));
  assert.equal(pk.verify(o.sign.msg_ascii, unhex(o.sign.r + o.sign.s), o.sign.id_ascii), true);
  const sk = sm.Sm2PrivateKey.fromBytes(unhex(o.decrypt.private_key));
  const pt = new TextDecoder().decode(sk.decrypt(unhex(o.decrypt.ciphertext_raw_C1C3C2)));
  assert.equal(pt, o.decrypt.plaintext_ascii);
  const pt2 = new TextDecoder().decode(sk.decrypt(unhex(o.decrypt.ciphertext_der_from_openssl_pkeyutl), 'DER'));
  assert.equal(pt2, o.decrypt.plaintext_ascii);
});

test('SM2: every GmSSL case (keys in DER/PEM/encrypted PEM, signatures, ciphertexts)', () => {
  assert.ok(G.sm2.length >= 11);
  for (const c of G.sm2) {
    const what = `case ${c.case}`;
    const sk = sm.Sm2PrivateKey.fromBytes(unhex(c.private_key_hex));
    assert.equal(hex(sk.publicKey().toBytes()), c.public_key_hex, what);
    assert.equal(hex(sm.Sm2PrivateKey.fromDer(unhex(c.private_key_pkcs8_der_hex)).toBytes()), c.private_key_hex, what);
    assert.equal(hex(sm.Sm2PrivateKey.fromPem(c.private_key_pem).toBytes()), c.private_key_hex, what);
    const enc = c.private_key_encrypted;
    assert.equal(hex(sm.Sm2PrivateKey.fromPem(enc.encrypted_pem, enc.pem_password).toBytes()), c.private_key_hex, what);
    assert.equal(hex(sm.Sm2PublicKey.fromDer(unhex(c.public_key_spki_der_hex)).toBytes()), c.public_key_hex, what);
    assert.equal(hex(sm.Sm2PublicKey.fromPem(c.public_key_pem).toBytes()), c.public_key_hex, what);
    assert.equal(hex(sk.publicKey().toDer()), c.public_key_spki_der_hex, what);
    const id = unhex(c.id_hex);
    const msg = unhex(c.sign.message_hex);
    const sig = sm.hazmatSm2SignWithNonce(sk, msg, unhex(c.sign.k_hex), id);
    assert.equal(hex(sig), c.sign.r_hex + c.sign.s_hex, what);
    assert.equal(sk.publicKey().verifyDer(msg, unhex(c.sign.signature_der_hex), id), true, what);
    assert.equal(new sm.Sm2VerifyingKey(sk.publicKey(), id).verify(msg, sig), true, what);
    const pt = unhex(c.encrypt.plaintext_hex);
    const der = sm.hazmatSm2EncryptWithNonce(sk.publicKey(), pt, unhex(c.encrypt.k_hex), 'DER');
    assert.equal(hex(der), c.encrypt.ciphertext_der_hex, what);
    assert.equal(hex(sk.decrypt(unhex(c.encrypt.c1c3c2_hex))), c.encrypt.plaintext_hex, what);
    assert.equal(hex(sk.decrypt(unhex(c.encrypt.ciphertext_der_hex), 'DER')), c.encrypt.plaintext_hex, what);
  }
});

test('SM9 annex A signature, annex C KEM, annex D encryption (standard MAC)', () => {
  const a = S9.sign_annexA;
  const kgc = sm.Sm9SignMasterKey.fromBytes(unhex(a.ks));
  const master = kgc.publicKey();
  assert.equal(hex(master.toBytes()), lower('04' + a.Ppubs));
  const alice = kgc.extract(a.ID_A);
  const sig = sm.hazmatSm9SignWithNonce(alice, master, a.M, unhex(a.r));
  assert.equal(hex(sig), lower(a.derived['signature_DER_GmSSL_gmsm (SEQUENCE{h OCTET STRING, S BIT STRING 04||x||y})']));
  assert.equal(master.verify(a.ID_A, a.M, sig), true);

  const c = S9.kem_annexC;
  const ekgc = sm.Sm9EncMasterKey.fromBytes(unhex(c.ke));
  const emaster = ekgc.publicKey();
  assert.equal(hex(emaster.toBytes()), lower('04' + c.Ppube));
  const kem = sm.hazmatSm9EncapsulateWithNonce(emaster, c.ID_B, c.klen_bits / 8, unhex(c.r));
  assert.equal(hex(kem.ciphertext), lower('04' + c.C));
  assert.equal(hex(kem.key), lower(c.K));
  const bob = ekgc.extract(c.ID_B);
  assert.equal(hex(bob.decapsulate(c.ID_B, kem.ciphertext, 32)), lower(c.K));

  const d = S9.encrypt_annexD;
  const iv = new Uint8Array(16);
  const x = sm.hazmatSm9EncryptWithNonce(emaster, d.ID_B, unhex(d.M_hex), unhex(d.r), iv, 'xor', 'sm3');
  const ct = hex(x);
  assert.ok(ct.includes(lower(d.C1)), 'C1');
  assert.ok(ct.includes(lower(d.xor_mode.C2)), 'C2 (xor)');
  assert.ok(ct.includes(lower(d.xor_mode['C3=SM3(C2||K2)'])), 'C3 (xor)');
  assert.equal(new TextDecoder().decode(bob.decrypt(d.ID_B, x)), d.M);
  const e = sm.hazmatSm9EncryptWithNonce(emaster, d.ID_B, unhex(d.M_hex), unhex(d.r), iv, 'sm4-ecb', 'sm3');
  assert.ok(hex(e).includes(lower(d.sm4_ecb_pkcs7_mode.C2)), 'C2 (SM4-ECB)');
  assert.ok(hex(e).includes(lower(d.sm4_ecb_pkcs7_mode['C3=SM3(C2||K2)'])), 'C3 (SM4-ECB)');
  assert.equal(new TextDecoder().decode(bob.decrypt(d.ID_B, e)), d.M);
});

test('SM9: every GmSSL case (DER/PEM keys, encrypted PEM, signatures, HMAC-SM3 ciphertexts)', () => {
  assert.ok(G.sm9.length >= 12);
  for (const c of G.sm9) {
    const what = `case ${c.case}`;
    const id = unhex(c.id_hex);
    const msg = unhex(c.message_hex);
    const s = c.sign_master_key;
    const kgc = sm.Sm9SignMasterKey.fromBytes(unhex(s.ks_hex));
    assert.equal(hex(kgc.toDer()), s.master_key_der_hex, what);
    assert.equal(hex(sm.Sm9SignMasterKey.fromDer(unhex(s.master_key_der_hex)).toBytes()), s.ks_hex, what);
    assert.equal(hex(sm.Sm9SignMasterKey.fromPem(s.encrypted_pem, s.pem_password).toBytes()), s.ks_hex, what);
    const master = sm.Sm9SignMasterPublicKey.fromPem(s.master_public_key_pem);
    assert.equal(hex(master.toBytes()), s.Ppubs_hex, what);
    assert.equal(hex(master.toDer()), s.master_public_key_der_hex, what);
    assert.equal(master.toPem().trim(), s.master_public_key_pem.trim(), what);
    const u = c.sign_user_key;
    const user = kgc.extract(id);
    assert.equal(hex(user.toDer()), u.user_key_der_hex, what);
    assert.equal(hex(sm.Sm9SignUserKey.fromPem(u.encrypted_pem, u.pem_password).toDer()), u.user_key_der_hex, what);
    const sig = sm.hazmatSm9SignWithNonce(user, master, msg, unhex(c.signature.r_hex));
    assert.equal(hex(sig), c.signature.signature_der_hex, what);
    assert.equal(master.verify(id, msg, unhex(c.signature.signature_der_hex)), true, what);

    const e = c.enc_master_key;
    const ekgc = sm.Sm9EncMasterKey.fromPem(e.encrypted_pem, e.pem_password);
    assert.equal(hex(ekgc.toBytes()), e.ke_hex, what);
    assert.equal(hex(ekgc.toDer()), e.master_key_der_hex, what);
    const emaster = sm.Sm9EncMasterPublicKey.fromDer(unhex(e.master_public_key_der_hex));
    assert.equal(hex(emaster.toBytes()), e.Ppube_hex, what);
    assert.equal(emaster.toPem().trim(), e.master_public_key_pem.trim(), what);
    const eu = c.enc_user_key;
    const bob = sm.Sm9EncUserKey.fromPem(eu.encrypted_pem, eu.pem_password);
    assert.equal(hex(bob.toDer()), eu.user_key_der_hex, what);
    assert.equal(hex(ekgc.extract(id).toDer()), eu.user_key_der_hex, what);
    assert.equal(hex(ekgc.extractExchange(id).toDer()), c.exch_user_key.user_key_der_hex, what);
    const iv = new Uint8Array(16);
    const r = unhex(c.encryption.r_hex);
    // One GmSSL case encrypts the empty message; it goes through the same checks.
    const ct = sm.hazmatSm9EncryptWithNonce(emaster, id, msg, r, iv, 'xor', 'hmac-sm3');
    assert.equal(hex(ct), c.encryption.ciphertext_der_hex, what);
    assert.equal(hex(bob.decrypt(id, unhex(c.encryption.ciphertext_der_hex), 'hmac-sm3')), c.message_hex, what);
    // The same ciphertext does not pass under the standard's MAC.
    assert.throws(() => bob.decrypt(id, ct, 'sm3'), (err) => err.code === 'SM9_DECRYPTION');
  }
});

test('SM9 pairing: GmSSL cases and e(P1, P2) of the standard; Miller loop + final exponentiation', () => {
  for (const c of G.sm9_pairing) {
    const e = sm.sm9Pairing(unhex(c.P_hex), unhex(c.Q_hex));
    assert.equal(hex(e), c.e_hex, `case ${c.case}`);
    const f = sm.sm9MillerLoop(unhex(c.P_hex), unhex(c.Q_hex));
    assert.equal(hex(sm.sm9FinalExponentiation(f)), c.e_hex, `case ${c.case}`);
    const pq = new sm.Sm9PairingPoints(unhex(c.P_hex), unhex(c.Q_hex));
    assert.equal(hex(pq.pairing()), c.e_hex, `case ${c.case}, decoded points`);
    assert.equal(hex(pq.millerLoop()), hex(f), `case ${c.case}, decoded points`);
    pq.free();
  }
  const k = 'e(P1,P2) (not printed in the standard; computed by sm9_ref.py)';
  const p1 = unhex('04' + S9.curve.P1_x + S9.curve.P1_y);
  const cv = S9.curve;
  const p2 = unhex('04' + cv.P2_x_a1 + cv.P2_x_a0 + cv.P2_y_a1 + cv.P2_y_a0);
  assert.equal(hex(sm.sm9Pairing(p1, p2)), lower(S9.curve.derived[k]));
});
