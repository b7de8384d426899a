#!/usr/bin/env python3
"""Seed corpora from the project's vector files (sm-testvectors/data/*.json) and the outputs of
the operation catalogue (`sm-catalogue outputs`: signatures, ciphertexts, DER/PEM keys and
key-exchange messages of every operation, on fixed and random secrets).

Every hex string of 8+ bytes (keys, points, signatures, ciphertexts, DER documents, messages),
every PEM block and every catalogue output is written into every target's seed corpus: raw for targets without a
selector byte, and prefixed with each of a few selector bytes for targets that take one. The
fuzzer then finds which seeds reach deep code. Output: fuzz/corpus/<target>/seed-<hash>.
"""
import glob, hashlib, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "sm-testvectors", "data")
# Targets whose first byte is a selector, with the selectors worth seeding.
SELECTOR = {
    "sm2_key_pem": [0, 1],
    "sm2_signature": [64, 72, 8],
    "sm2_ciphertext": [0, 1, 2],
    "sm2_exchange": [0, 1],
    "sm2_verify_diff": [0, 1, 3],
    "sm3_streaming": [0, 7, 64],
    "sm9_keys": [0, 1, 2, 3],
    "sm9_signature": [97, 104, 8],
    "sm9_ciphertext": [0, 1, 2, 8, 9, 10],
    "sm9_kem_exchange": [0, 1, 2],
}
RAW = ["sm2_key_der", "sm9_points"]


def blobs():
    out = set()
    for f in sorted(glob.glob(os.path.join(DATA, "*.json"))):
        text = open(f).read()
        for m in re.finditer(r'"([0-9a-fA-F]{16,})"', text):
            h = m.group(1)
            if len(h) % 2 == 0:
                out.add(bytes.fromhex(h))
        def walk(v):
            if isinstance(v, str) and "-----BEGIN" in v:
                out.add(v.encode())
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(json.loads(text))
    return sorted(out)


def catalogue_outputs():
    """The catalogue's outputs (built and run in the main workspace, release mode)."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(
            ["cargo", "run", "--release", "--quiet", "--manifest-path",
             os.path.join(HERE, "..", "Cargo.toml"), "-p", "sm-catalogue", "--", "outputs", d],
            check=True,
        )
        return {open(f, "rb").read() for f in glob.glob(os.path.join(d, "*.bin"))}


def main():
    vectors = blobs()
    outputs = catalogue_outputs()
    # Verdict bytes and other outputs shorter than 8 bytes are no useful seed.
    seeds = sorted(set(vectors) | {b for b in outputs if len(b) >= 8})
    total = 0
    for target in RAW + list(SELECTOR):
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        for b in seeds:
            variants = [b] if target in RAW else [bytes([s]) + b for s in SELECTOR[target]]
            for v in variants:
                name = "seed-" + hashlib.sha1(v).hexdigest()[:16]
                with open(os.path.join(d, name), "wb") as fh:
                    fh.write(v)
                total += 1
    print(
        f"seeded {total} files from {len(vectors)} vector values and {len(outputs)} catalogue "
        f"outputs ({len(seeds)} distinct) into {len(RAW) + len(SELECTOR)} corpora"
    )


if __name__ == "__main__":
    sys.exit(main())
