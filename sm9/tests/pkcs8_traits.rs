//! The `pkcs8`/`spki` traits on the SM9 keys, used through generic code: the same bytes as the
//! inherent encoders (which GmSSL's vectors pin), PEM included, and the same rejections.

use pkcs8::der::pem::LineEnding;
use pkcs8::spki::{DecodePublicKey, EncodePublicKey};
use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use sm_testvectors::hex_at;

/// Encodes through the trait, decodes back through it (DER and PEM); returns the DER and PEM.
fn roundtrip<K: EncodePrivateKey + DecodePrivateKey>(key: &K) -> (Vec<u8>, String) {
    let der = EncodePrivateKey::to_pkcs8_der(key).unwrap();
    let back = <K as DecodePrivateKey>::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(
        EncodePrivateKey::to_pkcs8_der(&back).unwrap().as_bytes(),
        der.as_bytes()
    );
    let pem = EncodePrivateKey::to_pkcs8_pem(key, LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    let back = <K as DecodePrivateKey>::from_pkcs8_pem(&pem).unwrap();
    assert_eq!(
        EncodePrivateKey::to_pkcs8_der(&back).unwrap().as_bytes(),
        der.as_bytes()
    );
    (der.as_bytes().to_vec(), pem.to_string())
}

fn roundtrip_public<K: EncodePublicKey + DecodePublicKey + PartialEq + core::fmt::Debug>(
    key: &K,
) -> Vec<u8> {
    let der = key.to_public_key_der().unwrap();
    assert_eq!(&K::from_public_key_der(der.as_bytes()).unwrap(), key);
    let pem = key.to_public_key_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
    assert_eq!(&K::from_public_key_pem(&pem).unwrap(), key);
    der.as_bytes().to_vec()
}

/// A decoder that must refuse `der`.
fn refuses<K: DecodePrivateKey>(der: &[u8]) -> bool {
    K::from_pkcs8_der(der).is_err()
}

fn refuses_public<K: DecodePublicKey>(der: &[u8]) -> bool {
    K::from_public_key_der(der).is_err()
}

#[test]
fn private_keys_match_the_inherent_encoders_and_gmssl() {
    let v = sm_testvectors::gmssl();
    for c in v["sm9"].as_array().unwrap() {
        let h = |p: &str| hex_at(c, p);
        let s = |p: &str| c.pointer(p).unwrap().as_str().unwrap().to_string();
        let pw = s("/sign_master_key/pem_password");
        // The keys as GmSSL wrote them (encrypted PKCS#8), read by the inherent decoders.
        let smk = shangmi_sm9::SignMasterKey::from_encrypted_pem(
            &s("/sign_master_key/encrypted_pem"),
            pw.as_bytes(),
        )
        .unwrap();
        assert_eq!(
            smk.to_der().unwrap().to_vec(),
            h("/sign_master_key/master_key_der_hex")
        );
        let emk = shangmi_sm9::EncMasterKey::from_encrypted_pem(
            &s("/enc_master_key/encrypted_pem"),
            pw.as_bytes(),
        )
        .unwrap();
        let suk = shangmi_sm9::SignUserKey::from_encrypted_pem(
            &s("/sign_user_key/encrypted_pem"),
            pw.as_bytes(),
        )
        .unwrap();
        let euk = shangmi_sm9::EncUserKey::from_encrypted_pem(
            &s("/enc_user_key/encrypted_pem"),
            pw.as_bytes(),
        )
        .unwrap();
        let xuk = emk.extract_exchange(&h("/id_hex")).unwrap();
        assert_eq!(
            xuk.to_der().unwrap().to_vec(),
            h("/exch_user_key/user_key_der_hex")
        );

        // The trait writes exactly what the inherent encoder writes (and GmSSL encrypted).
        let (d, p) = roundtrip(&smk);
        assert_eq!(d, smk.to_pkcs8_der().unwrap().to_vec());
        assert_eq!(p, *smk.to_pkcs8_pem().unwrap());
        assert!(refuses::<shangmi_sm9::EncMasterKey>(&d));
        assert!(refuses::<shangmi_sm9::SignUserKey>(&d));
        let (d, p) = roundtrip(&emk);
        assert_eq!(d, emk.to_pkcs8_der().unwrap().to_vec());
        assert_eq!(p, *emk.to_pkcs8_pem().unwrap());
        assert!(refuses::<shangmi_sm9::SignMasterKey>(&d));
        let (d, p) = roundtrip(&suk);
        assert_eq!(d, suk.to_pkcs8_der().unwrap().to_vec());
        assert_eq!(p, *suk.to_pkcs8_pem().unwrap());
        assert!(refuses::<shangmi_sm9::EncUserKey>(&d));
        let (d, p) = roundtrip(&euk);
        assert_eq!(d, euk.to_pkcs8_der().unwrap().to_vec());
        assert_eq!(p, *euk.to_pkcs8_pem().unwrap());
        assert!(refuses::<shangmi_sm9::ExchangeUserKey>(&d));
        let (d, p) = roundtrip(&xuk);
        assert_eq!(d, xuk.to_pkcs8_der().unwrap().to_vec());
        assert_eq!(p, *xuk.to_pkcs8_pem().unwrap());
        assert!(refuses::<shangmi_sm9::EncUserKey>(&d));
    }
}

#[test]
fn private_key_decoding_rejects_what_the_inherent_decoder_rejects() {
    let v = sm_testvectors::gmssl();
    let c = &v["sm9"][0];
    let ks = hex_at(c, "/sign_master_key/ks_hex");
    let smk = shangmi_sm9::SignMasterKey::from_bytes(&ks.try_into().unwrap()).unwrap();
    let good = smk.to_pkcs8_der().unwrap().to_vec();
    // The master public point is the last 129 bytes: flip one bit of y (off the curve).
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 1] ^= 1;
    assert!(shangmi_sm9::SignMasterKey::from_pkcs8_der(&bad).is_err());
    assert!(refuses::<shangmi_sm9::SignMasterKey>(&bad));
    // Trailing data.
    let mut long = good.clone();
    long.push(0);
    assert!(refuses::<shangmi_sm9::SignMasterKey>(&long));
    assert!(refuses::<shangmi_sm9::SignMasterKey>(
        &good[..good.len() - 1]
    ));
}

#[test]
fn master_public_keys_as_spki() {
    let v = sm_testvectors::gmssl();
    let c = &v["sm9"][0];
    let smk = shangmi_sm9::SignMasterKey::from_bytes(
        &hex_at(c, "/sign_master_key/ks_hex").try_into().unwrap(),
    )
    .unwrap();
    let emk = shangmi_sm9::EncMasterKey::from_bytes(
        &hex_at(c, "/enc_master_key/ke_hex").try_into().unwrap(),
    )
    .unwrap();
    let spub = roundtrip_public(smk.public_key());
    let epub = roundtrip_public(emk.public_key());
    // SEQUENCE { SEQUENCE { OID sm9, OID sm9sign | sm9encrypt }, BIT STRING 00 ‖ 04 ‖ x ‖ y }.
    let oid_sm9 = hex::decode("06082a811ccf5501822e").unwrap();
    let expected = |param_last: u8, point: &[u8], lens: [&str; 2]| {
        let mut alg = hex::decode("3015").unwrap();
        alg.extend(&oid_sm9);
        alg.extend(hex::decode("06092a811ccf5501822e").unwrap());
        alg.push(param_last);
        let mut body = alg;
        body.extend(hex::decode(lens[0]).unwrap());
        body.push(0);
        body.extend(point);
        let mut out = hex::decode(lens[1]).unwrap();
        out.extend(body);
        out
    };
    let ppubs = hex_at(c, "/sign_master_key/Ppubs_hex");
    let ppube = hex_at(c, "/enc_master_key/Ppube_hex");
    assert_eq!(spub, expected(1, &ppubs, ["038182", "30819c"]));
    assert_eq!(epub, expected(3, &ppube, ["0342", "305b"]));
    // The other system's SPKI, a changed algorithm, a point off the curve: refused.
    assert!(refuses_public::<shangmi_sm9::EncMasterPublicKey>(&spub));
    assert!(refuses_public::<shangmi_sm9::SignMasterPublicKey>(&epub));
    let mut bad = spub.clone();
    bad[10] ^= 1; // inside the sm9 OID
    assert!(refuses_public::<shangmi_sm9::SignMasterPublicKey>(&bad));
    let mut bad = epub.clone();
    let n = bad.len();
    bad[n - 1] ^= 1;
    assert!(refuses_public::<shangmi_sm9::EncMasterPublicKey>(&bad));
    // The master keys' own SEQUENCE { BIT STRING } form is not an SPKI.
    assert!(refuses_public::<shangmi_sm9::SignMasterPublicKey>(
        &smk.public_key().to_der().unwrap()
    ));
}
