//! Every vector file is pinned by its SHA-256: a changed, added or removed file fails here until
//! the pin (and `data/PROVENANCE.md`, which names each file's source and generator) is updated
//! on purpose.

use sha2::{Digest, Sha256};

const PINS: [(&str, &str); 3] = [
    (
        "gmssl-kat-sample.json",
        "553d676d35ccf41598ac997feccb422db58babab1121765d6a90ee6d225e9041",
    ),
    (
        "sm2-sm3-vectors.json",
        "0dfb14b0f92aaf277638001670ebb314c69f8abed14b695e5dc00e005ae1826f",
    ),
    (
        "sm9-vectors.json",
        "4bdbf1f815f52b0a3add21f5bf9f5581bd483f232e8bf5c4eec12f6ab0efc59e",
    ),
];

#[test]
fn every_vector_file_has_its_pinned_sha256_and_provenance() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut listed: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "PROVENANCE.md")
        .collect();
    listed.sort();
    let pinned: Vec<&str> = PINS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        listed, pinned,
        "vector files without a pin, or pins without a file"
    );
    let provenance = std::fs::read_to_string(dir.join("PROVENANCE.md")).unwrap();
    for (name, want) in PINS {
        let got = hex::encode(Sha256::digest(std::fs::read(dir.join(name)).unwrap()));
        assert_eq!(got, want, "{name} changed");
        assert!(
            provenance.contains(&format!("| `{name}` |")),
            "PROVENANCE.md has no row for {name}"
        );
    }
}
