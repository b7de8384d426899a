// Round trips, tamper rejection, bad input → SmError with a stable code (and the module still
// works afterwards), freeing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sm, hex, utf8, throwsCode } from './helpers.mjs';

const flip = (b, i) => { const c = Uint8Array.from(b); c[i] ^= 1; return c; };

test('SM2 round trips: keys in every encoding, signatures with IDs, all ciphertext modes', () => {
  const sk = sm.Sm2PrivateKey.generate();
  const pk = sk.publicKey();
  const d = hex(sk.toBytes());
  assert.equal(hex(sm.Sm2PrivateKey.fromDer(sk.toDer()).toBytes()), d);
  assert.equal(hex(sm.Sm2PrivateKey.fromDer(sk.toSec1Der()).toBytes()), d);
  assert.equal(hex(sm.Sm2PrivateKey.fromPem(sk.toPem()).toBytes()), d);
  assert.equal(hex(sm.Sm2PrivateKey.fromPem(new TextDecoder().decode(sk.toPem())).toBytes()), d);
  const enc = sk.toEncryptedPem('pw', 16);
  assert.equal(typeof enc, 'string');
  assert.equal(hex(sm.Sm2PrivateKey.fromPem(enc, 'pw').toBytes()), d);
  throwsCode(assert, () => sm.Sm2PrivateKey.fromPem(enc, 'wrong'), 'SM2_DECRYPTION');
  throwsCode(assert, () => sm.Sm2PrivateKey.fromPem(enc), 'SM_INVALID_ARGUMENT');
  assert.equal(hex(sm.Sm2PublicKey.fromPem(pk.toPem()).toBytes()), hex(pk.toBytes()));
  assert.equal(hex(sm.Sm2PublicKey.fromDer(pk.toDer()).toBytes()), hex(pk.toBytes()));
  assert.equal(hex(sm.Sm2PublicKey.fromBytes(pk.toBytes(true)).toBytes()), hex(pk.toBytes()));

  for (const id of [undefined, 'alice@example.com', utf8('张三'), new Uint8Array([0, 1, 2])]) {
    const sig = sk.sign('message', id);
    assert.equal(sig.length, 64);
    assert.equal(pk.verify('message', sig, id), true);
    assert.equal(pk.verify('messagf', sig, id), false);
    assert.equal(pk.verify('message', flip(sig, 5), id), false);
    assert.equal(pk.verify('message', sig, 'other id'), false);
    const der = sk.signDer(utf8('message'), id);
    assert.equal(pk.verifyDer('message', der, id), true);
    assert.equal(pk.verifyDer('message', flip(der, der.length - 1), id), false);
    const vk = new sm.Sm2VerifyingKey(pk, id);
    const signer = new sm.Sm2SigningKey(sk, id);
    assert.equal(vk.verify('m2', signer.sign('m2')), true);
    assert.equal(vk.verifyDer('m2', signer.signDer('m2')), true);
    assert.equal(vk.verify('m3', signer.sign('m2')), false);
    vk.free(); signer.free();
  }
  for (const mode of [undefined, 'C1C3C2', 'C1C2C3', 'DER']) {
    const ct = pk.encrypt('attack at dawn', mode);
    assert.equal(new TextDecoder().decode(sk.decrypt(ct, mode)), 'attack at dawn');
    for (const i of [1, 70, ct.length - 1]) throwsCode(assert, () => sk.decrypt(flip(ct, i), mode), 'SM2_DECRYPTION');
    throwsCode(assert, () => sk.decrypt(ct.subarray(0, ct.length - 1), mode), 'SM2_DECRYPTION');
  }
  throwsCode(assert, () => pk.encrypt(''), 'SM2_EMPTY_PLAINTEXT');
});

test('SM2 key exchange with confirmation, and a wrong confirmation', () => {
  const a = sm.Sm2PrivateKey.generate(); const b = sm.Sm2PrivateKey.generate();
  const ia = new sm.Sm2KeyExchangeInitiator(a, 'alice', b.publicKey(), 'bob');
  const rb_ = new sm.Sm2KeyExchangeResponder(b, 'bob', a.publicKey(), 'alice');
  const ra = ia.start();
  const rb = rb_.respond(ra, 16);
  const ka = ia.finish(rb, rb_.confirmation, 16);
  const kb = rb_.confirm(ia.confirmation);
  assert.equal(ka.length, 16);
  assert.equal(hex(ka), hex(kb));
  const i2 = new sm.Sm2KeyExchangeInitiator(a, 'alice', b.publicKey(), 'bob');
  const r2 = new sm.Sm2KeyExchangeResponder(b, 'bob', a.publicKey(), 'alice');
  const rb2 = r2.respond(i2.start(), 16);
  throwsCode(assert, () => i2.finish(rb2, flip(r2.confirmation, 0), 16), 'SM2_KEY_EXCHANGE');
  throwsCode(assert, () => i2.finish(rb2, r2.confirmation, 16), 'SM_INVALID_ARGUMENT'); // state used up
});

test('SM9 round trips: master/user keys in DER/PEM, sign/verify, batch, encrypt modes, KEM, exchange', () => {
  const kgc = sm.Sm9SignMasterKey.generate();
  const master = kgc.publicKey();
  const alice = kgc.extract('Alice');
  assert.equal(hex(sm.Sm9SignMasterKey.fromDer(kgc.toDer()).toBytes()), hex(kgc.toBytes()));
  assert.equal(hex(sm.Sm9SignMasterKey.fromPem(kgc.toEncryptedPem('pw', 16), 'pw').toBytes()), hex(kgc.toBytes()));
  assert.equal(hex(sm.Sm9SignMasterKey.fromPem(kgc.toPem()).toBytes()), hex(kgc.toBytes()));
  assert.equal(hex(sm.Sm9SignMasterPublicKey.fromPem(master.toPem()).toDer()), hex(master.toDer()));
  assert.equal(hex(sm.Sm9SignUserKey.fromDer(alice.toDer()).toDer()), hex(alice.toDer()));
  assert.equal(hex(sm.Sm9SignUserKey.fromPem(alice.toEncryptedPem('pw', 16), 'pw').toDer()), hex(alice.toDer()));
  const sig = alice.sign(master, 'hello');
  assert.equal(master.verify('Alice', 'hello', sig), true);
  assert.equal(master.verify('Bob', 'hello', sig), false);
  assert.equal(master.verify('Alice', 'hellp', sig), false);
  for (const i of [6, 40, sig.length - 1]) assert.equal(master.verify('Alice', 'hello', flip(sig, i)), false);
  const sigs = ['a', 'b', 'c'].map((m) => alice.sign(master, m));
  assert.deepEqual([...master.verifyBatch(['Alice', 'Alice', 'Alice'], ['a', 'b', 'c'], sigs)], [1, 1, 1]);
  assert.deepEqual([...master.verifyBatch(['Alice', 'Alice', 'Alice'], ['a', 'x', 'c'], sigs)], [1, 0, 1]);
  assert.deepEqual([...master.verifyBatch(['Alice', 'Alice'], ['a', 'b'], [sigs[0], new Uint8Array(3)])], [1, 0]);

  const ekgc = sm.Sm9EncMasterKey.generate();
  const em = ekgc.publicKey();
  const bob = ekgc.extract('Bob');
  assert.equal(hex(sm.Sm9EncUserKey.fromDer(bob.toDer()).toDer()), hex(bob.toDer()));
  assert.equal(hex(sm.Sm9EncMasterPublicKey.fromDer(em.toDer()).toBytes()), hex(em.toBytes()));
  for (const mode of [undefined, 'xor', 'sm4-ecb', 'sm4-cbc']) {
    for (const mac of [undefined, 'sm3', 'hmac-sm3']) {
      const ct = em.encrypt('Bob', 'Chinese IBE standard', mode, mac);
      assert.equal(new TextDecoder().decode(bob.decrypt('Bob', ct, mac)), 'Chinese IBE standard');
      throwsCode(assert, () => bob.decrypt('Bobb', ct, mac), 'SM9_DECRYPTION');
      throwsCode(assert, () => bob.decrypt('Bob', flip(ct, ct.length - 1), mac), 'SM9_DECRYPTION');
    }
  }
  const kem = em.encapsulate('Bob', 48);
  assert.equal(hex(bob.decapsulate('Bob', kem.ciphertext, 48)), hex(kem.key));
  assert.notEqual(hex(bob.decapsulate('Bobb', kem.ciphertext, 48)), hex(kem.key));

  const ka = ekgc.extractExchange('Alice'); const kb = ekgc.extractExchange('Bob');
  const ia = new sm.Sm9KeyExchangeInitiator(ka, em, 'Alice', 'Bob');
  const rb = new sm.Sm9KeyExchangeResponder(kb, em, 'Bob', 'Alice');
  const RB = rb.respond(ia.start());
  const keyA = ia.finish(RB, rb.confirmation, 16);
  const keyB = rb.confirm(ia.confirmation, 16);
  assert.equal(hex(keyA), hex(keyB));
  const i2 = new sm.Sm9KeyExchangeInitiator(ka, em, 'Alice', 'Bob');
  const r2 = new sm.Sm9KeyExchangeResponder(kb, em, 'Bob', 'Alice');
  const RB2 = r2.respond(i2.start());
  throwsCode(assert, () => i2.finish(RB2, flip(r2.confirmation, 3), 16), 'SM9_KEY_CONFIRMATION');
});

test('bad input: SmError with a stable code, never a trap; the module still works after', () => {
  const sk = sm.Sm2PrivateKey.generate();
  const pk = sk.publicKey();
  // wrong type
  throwsCode(assert, () => sm.sm3(42), 'SM_INVALID_TYPE');
  throwsCode(assert, () => sm.sm3({ length: 3 }), 'SM_INVALID_TYPE');
  throwsCode(assert, () => sm.Sm2PublicKey.fromBytes('04abcd'), 'SM_INVALID_TYPE');
  throwsCode(assert, () => pk.verify('m', [1, 2, 3]), 'SM_INVALID_TYPE');
  throwsCode(assert, () => sk.decrypt(null), 'SM_INVALID_TYPE');
  // truncated / oversized / wrong length
  throwsCode(assert, () => sm.Sm2PrivateKey.fromBytes(new Uint8Array(31)), 'SM_INVALID_ARGUMENT');
  throwsCode(assert, () => sm.Sm2PrivateKey.fromBytes(new Uint8Array(33)), 'SM_INVALID_ARGUMENT');
  throwsCode(assert, () => sm.Sm2PrivateKey.fromBytes(new Uint8Array(32)), 'SM2_INVALID_SECRET_KEY');
  throwsCode(assert, () => sm.Sm2PrivateKey.fromBytes(new Uint8Array(32).fill(0xff)), 'SM2_INVALID_SECRET_KEY');
  throwsCode(assert, () => pk.verify('m', new Uint8Array(63)), 'SM_INVALID_ARGUMENT');
  const der = sk.toDer();
  throwsCode(assert, () => sm.Sm2PrivateKey.fromDer(der.subarray(0, der.length - 2)), 'SM2_ENCODING');
  const big = new Uint8Array(der.length + 1); big.set(der);
  throwsCode(assert, () => sm.Sm2PrivateKey.fromDer(big), 'SM2_ENCODING');
  // not on the curve
  const p = pk.toBytes(); p[64] ^= 1;
  throwsCode(assert, () => sm.Sm2PublicKey.fromBytes(p), 'SM2_INVALID_PUBLIC_KEY');
  const kgc = sm.Sm9EncMasterKey.generate();
  const g1 = kgc.publicKey().toBytes(); g1[64] ^= 1;
  throwsCode(assert, () => sm.Sm9EncMasterPublicKey.fromBytes(g1), 'SM9_INVALID_POINT');
  throwsCode(assert, () => sm.sm9Pairing(g1, sm.Sm9SignMasterKey.generate().publicKey().toBytes()), 'SM9_INVALID_POINT');
  throwsCode(assert, () => new sm.Sm9PairingPoints(g1, sm.Sm9SignMasterKey.generate().publicKey().toBytes()), 'SM9_INVALID_POINT');
  throwsCode(assert, () => sm.sm9FinalExponentiation(new Uint8Array(384).fill(0xff)), 'SM_INVALID_ARGUMENT');
  // wrong PEM label
  throwsCode(assert, () => sm.Sm2PublicKey.fromPem(new TextDecoder().decode(sk.toPem())), 'SM2_ENCODING');
  throwsCode(assert, () => sm.Sm2PrivateKey.fromPem(pk.toPem()), 'SM2_ENCODING');
  const smaster = sm.Sm9SignMasterKey.generate().publicKey();
  throwsCode(assert, () => sm.Sm9EncMasterPublicKey.fromPem(smaster.toPem()), 'SM9_UNKNOWN_ALGORITHM');
  throwsCode(assert, () => sm.Sm9SignUserKey.fromDer(new Uint8Array([0x30, 0x03, 1, 2, 3])), 'SM9_ENCODING');
  // bad options
  throwsCode(assert, () => pk.encrypt('m', 'C3C1C2'), 'SM_INVALID_ARGUMENT');
  throwsCode(assert, () => kgc.publicKey().encrypt('Bob', 'm', 'sm4-gcm'), 'SM_INVALID_ARGUMENT');
  throwsCode(assert, () => kgc.publicKey().encrypt('Bob', 'm', 'xor', 'md5'), 'SM_INVALID_ARGUMENT');
  throwsCode(assert, () => sm.kdf('z', 2 ** 30), 'SM_INVALID_ARGUMENT');
  // freed objects are refused by the glue (an Error, not a trap)
  const tmp = sm.Sm2PrivateKey.generate();
  tmp.free();
  assert.throws(() => tmp.sign('m'));
  // the module is still fine
  assert.equal(pk.verify('ok', sk.sign('ok')), true);
  assert.equal(hex(sm.sm3('abc')).slice(0, 8), '66c7f0f4');
});

test('free() releases objects; Symbol.dispose is wired to it', () => {
  const k = sm.Sm9SignMasterKey.generate();
  assert.equal(typeof k.free, 'function');
  assert.equal(k[Symbol.dispose], k.free);
  k.free();
  assert.throws(() => k.toBytes());
});
