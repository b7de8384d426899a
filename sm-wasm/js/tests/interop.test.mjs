// Interop in one Node process with npm's sm-crypto (0.5.x) and sm-crypto-v2: SM2 signatures,
// ciphertexts and keys, both ways. Their conventions: hex strings, public keys 04‖x‖y, raw
// signatures r‖s (or DER with `der: true`), ciphertexts C1‖… without the 04 byte of C1
// (cipherMode 1 = C1C3C2, 0 = C1C2C3), IDs as UTF-8 strings.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sm, peer, hex, unhex } from './helpers.mjs';

const peers = {
  'sm-crypto': peer('sm-crypto'),
  'sm-crypto-v2': peer('sm-crypto-v2'),
};
const strip04 = (b) => hex(b.subarray(1));
const add04 = (h) => unhex('04' + h);
const ID = 'alice@example.com';
const MSG = 'interop message 互操作';

for (const [name, lib] of Object.entries(peers)) {
  test(`${name}: version and SM3 agree`, () => {
    assert.equal(lib.sm3('abc'), hex(sm.sm3('abc')));
    assert.equal(lib.sm3(MSG), hex(sm.sm3(MSG)));
  });

  test(`${name}: its keys and signatures verify here`, () => {
    const kp = lib.sm2.generateKeyPairHex();
    const ours = sm.Sm2PrivateKey.fromBytes(unhex(kp.privateKey.padStart(64, '0')));
    assert.equal(hex(ours.publicKey().toBytes()), kp.publicKey);
    const pk = sm.Sm2PublicKey.fromBytes(unhex(kp.publicKey));
    for (const userId of [undefined, ID]) {
      const opt = { hash: true, publicKey: kp.publicKey, ...(userId ? { userId } : {}) };
      const raw = lib.sm2.doSignature(MSG, kp.privateKey, opt);
      assert.equal(pk.verify(MSG, unhex(raw), userId), true, 'raw r||s');
      const der = lib.sm2.doSignature(MSG, kp.privateKey, { ...opt, der: true });
      assert.equal(pk.verifyDer(MSG, unhex(der), userId), true, 'DER');
      assert.equal(pk.verify(MSG + 'x', unhex(raw), userId), false);
    }
  });

  test(`${name}: our signatures verify there`, () => {
    const sk = sm.Sm2PrivateKey.generate();
    const pub = hex(sk.publicKey().toBytes());
    for (const userId of [undefined, ID]) {
      const opt = { hash: true, ...(userId ? { userId } : {}) };
      assert.equal(lib.sm2.doVerifySignature(MSG, hex(sk.sign(MSG, userId)), pub, opt), true);
      assert.equal(lib.sm2.doVerifySignature(MSG, hex(sk.signDer(MSG, userId)), pub, { ...opt, der: true }), true);
      assert.equal(lib.sm2.doVerifySignature(MSG + 'x', hex(sk.sign(MSG, userId)), pub, opt), false);
    }
  });

  test(`${name}: ciphertexts both ways (C1C3C2 and C1C2C3)`, () => {
    const kp = lib.sm2.generateKeyPairHex();
    const sk = sm.Sm2PrivateKey.fromBytes(unhex(kp.privateKey.padStart(64, '0')));
    for (const [mode, cipherMode] of [['C1C3C2', 1], ['C1C2C3', 0]]) {
      const theirs = lib.sm2.doEncrypt(MSG, kp.publicKey, cipherMode);
      assert.equal(new TextDecoder().decode(sk.decrypt(add04(theirs), mode)), MSG, `their ${mode}`);
      const ours = sk.publicKey().encrypt(MSG, mode);
      assert.equal(lib.sm2.doDecrypt(strip04(ours), kp.privateKey, cipherMode), MSG, `our ${mode}`);
    }
  });
}

test('sm-crypto-v2: DER (asn1) ciphertexts both ways; precomputed public key', () => {
  const lib = peers['sm-crypto-v2'];
  const kp = lib.sm2.generateKeyPairHex();
  const sk = sm.Sm2PrivateKey.fromBytes(unhex(kp.privateKey.padStart(64, '0')));
  const theirs = lib.sm2.doEncrypt(MSG, kp.publicKey, 1, { asn1: true });
  assert.equal(new TextDecoder().decode(sk.decrypt(unhex(theirs), 'DER')), MSG);
  const ours = sk.publicKey().encrypt(MSG, 'DER');
  assert.equal(lib.sm2.doDecrypt(hex(ours), kp.privateKey, 1, { asn1: true }), MSG);
  const pre = lib.sm2.precomputePublicKey(kp.publicKey);
  assert.equal(lib.sm2.doVerifySignature(MSG, hex(sk.sign(MSG)), pre, { hash: true }), true);
});
