"""Benchmark of the smcrypto wheel against the Python SM2/SM3/SM9 libraries, in one process.

    cargo xtask py bench [--quick] [--markdown FILE]

Every row times the same operation on the same inputs for each implementation; the
implementations of a row are interleaved round by round (so a noisy neighbour hurts all of them
alike), and each round times a batch of calls. min and median are per operation. "native" is the
same smcrypto operation run in a Rust loop inside this process, which gives the Python-call
overhead. `--markdown FILE` replaces the text between the `py-bench` markers of FILE.
"""

import argparse
import concurrent.futures as cf
import os
import platform
import statistics
import time

import gmalg
import gmssl_pyx
import pysmx.SM2 as snow_sm2
from gmssl import sm2 as gmssl_sm2
from gmssl import sm3 as gmssl_sm3

import smcrypto
from smcrypto import sm2, sm9
from smcrypto._native import sm9 as native_sm9

MSG = b"benchmark message" * 4
ID = b"alice@example.com"


def _gmalg_sm3(data):
    h = gmalg.SM3()
    h.update(data)
    return h.value()


def timed(fn, k):
    t = time.perf_counter()
    for _ in range(k):
        fn()
    return (time.perf_counter() - t) / k


def calibrate(fn, budget):
    """Calls per batch so that one batch takes about `budget` seconds (at least 1)."""
    t = timed(fn, 1)
    return max(1, int(budget / max(t, 1e-9)))


def run_row(impls, rounds, budget):
    """impls: {name: fn or ("per-op seconds", fn)}. Returns {name: [per-op seconds]}."""
    plan = {}
    for name, fn in impls.items():
        if isinstance(fn, tuple):  # a native loop reporting its own per-op time
            plan[name] = (None, fn[1])
        else:
            fn()  # warm up (prepared tables, caches)
            plan[name] = (calibrate(fn, budget), fn)
    samples = {name: [] for name in impls}
    for _ in range(rounds):
        for name, (k, fn) in plan.items():
            samples[name].append(fn() if k is None else timed(fn, k))
    return samples


def fmt_time(s):
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.2f} µs"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="short run (about a minute)")
    ap.add_argument("--markdown", metavar="FILE")
    args = ap.parse_args()
    rounds, budget = (5, 0.02) if args.quick else (15, 0.05)
    slow_rounds = 3 if args.quick else 5  # for the pure-Python peers (≈ 0.1–0.5 s per call)

    rows = []

    def row(group, op, impls, rounds_=rounds, unit=None):
        res = run_row(impls, rounds_, budget)
        base = statistics.median(res["smcrypto"])
        for name, xs in res.items():
            med = statistics.median(xs)
            rows.append((group, op, name, min(xs), med, med / base, unit))
        print(f"{group} {op}: " + ", ".join(f"{n} {fmt_time(statistics.median(x))}" for n, x in res.items()), flush=True)

    # --- SM3
    m64, m8k = b"a" * 64, bytes(range(256)) * 32
    row("sm3", "64 B", {
        "smcrypto": lambda: smcrypto.sm3(m64).digest(),
        "native": ("loop", lambda: smcrypto._native._native_sm3_loop(m64, 20000) / 20000),
        "gmssl-pyx": lambda: gmssl_pyx.sm3_hash(m64),
    })
    row("sm3", "8 KiB", {
        "smcrypto": lambda: smcrypto.sm3(m8k).digest(),
        "native": ("loop", lambda: smcrypto._native._native_sm3_loop(m8k, 2000) / 2000),
        "gmssl-pyx": lambda: gmssl_pyx.sm3_hash(m8k),
        "gmssl": lambda: gmssl_sm3.sm3_hash(list(m8k)),
        "gmalg": lambda: _gmalg_sm3(m8k),
    }, slow_rounds, unit=len(m8k))

    # --- SM2
    key = sm2.PrivateKey.generate()
    pub = key.public_key()
    d, pk = key.to_bytes(), pub.to_bytes()
    sig_der, sig_raw = key.sign(MSG, id=ID), key.sign(MSG, id=ID, encoding="raw")
    ct_raw, ct_der = pub.encrypt(MSG), pub.encrypt(MSG, mode="der")
    g_alg = gmalg.SM2(sk=d, uid=ID, pk=pk)
    g_py = gmssl_sm2.CryptSM2(private_key=d.hex(), public_key=pk[1:].hex(), mode=1)
    r, s = sig_raw[:32], sig_raw[32:]
    sig_default_hex = key.sign(MSG, encoding="raw").hex()  # gmssl: default ID only
    row("sm2", "sign", {
        "smcrypto": lambda: key.sign(MSG, id=ID),
        "gmssl-pyx": lambda: gmssl_pyx.sm2_sign(d, pk[1:], MSG, ID),
        "gmalg": lambda: g_alg.sign(MSG),
        "gmssl": lambda: g_py.sign_with_sm3(MSG),
        "snowland-smx": lambda: snow_sm2.Sign(MSG, d, os.urandom(32).hex(), 64, uid=ID),
    }, slow_rounds)
    row("sm2", "verify", {
        "smcrypto": lambda: pub.verify(sig_der, MSG, id=ID),
        "gmssl-pyx": lambda: gmssl_pyx.sm2_verify(pk[1:], MSG, sig_der, ID),
        "gmalg": lambda: g_alg.verify(MSG, r, s),
        "gmssl": lambda: g_py.verify_with_sm3(sig_default_hex, MSG),
        "snowland-smx": lambda: snow_sm2.Verify(sig_raw, MSG, pk[1:], 64, uid=ID),
    }, slow_rounds)
    row("sm2", "encrypt 68 B", {
        "smcrypto": lambda: pub.encrypt(MSG),
        "gmssl-pyx": lambda: gmssl_pyx.sm2_encrypt(pk[1:], MSG),
        "gmalg": lambda: g_alg.encrypt(MSG),
        "gmssl": lambda: g_py.encrypt(MSG),
        "snowland-smx": lambda: snow_sm2.Encrypt(MSG, pk[1:], 64),
    }, slow_rounds)
    row("sm2", "decrypt 68 B", {
        "smcrypto": lambda: key.decrypt(ct_raw),
        "gmssl-pyx": lambda: gmssl_pyx.sm2_decrypt(d, ct_der),
        "gmalg": lambda: g_alg.decrypt(ct_raw),
        "gmssl": lambda: g_py.decrypt(ct_raw[1:]),
        "snowland-smx": lambda: snow_sm2.Decrypt(ct_raw[1:], d, 64),
    }, slow_rounds)

    # --- SM9 (gmalg is pure Python, ~0.1–0.2 s per operation; gmssl-pyx has no SM9 signatures)
    kgc = sm9.SignMasterKey.generate()
    mpk = kgc.public_key()
    alice = kgc.extract(ID)
    sig = alice.sign(MSG)
    sig9_raw = alice.sign(MSG, encoding="raw")
    g_signer = gmalg.SM9(hid_s=b"\x01", mpk_s=mpk.to_bytes(), sk_s=alice.to_bytes(), uid=ID)
    row("sm9", "sign", {
        "smcrypto": lambda: alice.sign(MSG),
        "native": ("loop", lambda: native_sm9._native_sign_loop(alice, MSG, 200) / 200),
        "gmalg": lambda: g_signer.sign(MSG),
    }, slow_rounds)
    row("sm9", "verify", {
        "smcrypto": lambda: mpk.verify(sig, MSG, ID),
        "native": ("loop", lambda: native_sm9._native_verify_loop(mpk, sig, MSG, ID, 100) / 100),
        "gmalg": lambda: g_signer.verify(MSG, sig9_raw[:32], sig9_raw[32:]),
    }, slow_rounds)
    ekgc = sm9.EncMasterKey.generate()
    empk = ekgc.public_key()
    bob = ekgc.extract("Bob")
    g_master = gmssl_pyx.SM9MasterKey.from_der(ekgc.to_der(format="gmt0080"))
    g_bob = gmssl_pyx.SM9PrivateKey.from_der(bob.to_der(format="gmt0080"))
    a_bob = gmalg.SM9(hid_e=b"\x03", mpk_e=empk.to_bytes(), sk_e=bob.to_bytes(), uid=b"Bob")
    ct_std = empk.encrypt(MSG, "Bob", encoding="raw")
    ct_gm = empk.encrypt(MSG, "Bob", mac="gmssl")
    g_mpk = g_master.public_key()
    row("sm9", "encrypt 68 B", {
        "smcrypto": lambda: empk.encrypt(MSG, "Bob"),
        "gmssl-pyx": lambda: g_mpk.encrypt(b"Bob", MSG),
        "gmalg": lambda: a_bob.encrypt(MSG, b"Bob"),
    }, slow_rounds)
    row("sm9", "decrypt 68 B", {
        "smcrypto": lambda: bob.decrypt(ct_gm, "Bob", mac="gmssl"),
        "gmssl-pyx": lambda: g_bob.decrypt(b"Bob", ct_gm),
        "gmalg": lambda: a_bob.decrypt(ct_std),
    }, slow_rounds)
    _, cap = empk.encapsulate("Bob", 32)
    row("sm9", "KEM encapsulate", {
        "smcrypto": lambda: empk.encapsulate("Bob", 32),
        "gmalg": lambda: a_bob.encapsulate(32, b"Bob"),
    }, slow_rounds)
    row("sm9", "KEM decapsulate", {
        "smcrypto": lambda: bob.decapsulate(cap, "Bob", 32),
        "gmalg": lambda: a_bob.decapsulate(cap, 32),
    }, slow_rounds)

    # --- Throughput with threads (the GIL is released)
    sigs = [(b"%d" % i, alice.sign(b"%d" % i)) for i in range(200)]

    def verify_all(part):
        for m, s_ in part:
            mpk.verify(s_, m, ID)

    def per_sec(threads):
        best = 0.0
        for _ in range(3 if args.quick else 7):
            t = time.perf_counter()
            with cf.ThreadPoolExecutor(threads) as ex:
                list(ex.map(verify_all, [sigs[k::threads] for k in range(threads)]))
            best = max(best, len(sigs) / (time.perf_counter() - t))
        return best

    # Threads need cores: lift a `taskset` pin for this part (restored afterwards).
    pinned = os.sched_getaffinity(0)
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
    try:
        one, two = per_sec(1), per_sec(2)
    finally:
        os.sched_setaffinity(0, pinned)
    print(f"sm9 verify throughput: 1 thread {one:.0f}/s, 2 threads {two:.0f}/s ({two / one:.2f}x)")

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lines = [
        f"Python {platform.python_version()}, smcrypto with SM3 kernel `{smcrypto.SIMD}`, {cpu}, "
        f"{os.cpu_count()} cores; `cargo xtask py bench{' --quick' if args.quick else ''}`. "
        "Per operation; last column = that implementation's median ÷ smcrypto's (native: the "
        "same call in a Rust loop in this process, so 1 − ratio is the Python-call overhead).",
        "",
        "| group | operation | implementation | min | median | ÷ smcrypto |",
        "|---|---|---|---:|---:|---:|",
    ]
    for group, op, name, mn, med, ratio, unit in rows:
        extra = f" ({unit / med / 1e6:.3g} MB/s)" if unit else ""
        lines.append(f"| {group} | {op} | {name} | {fmt_time(mn)} | {fmt_time(med)}{extra} | {ratio:.3g}× |")
    lines.append(
        f"| sm9 | verifications per second (200, thread pool) | smcrypto | 1 thread {one:.0f}/s | "
        f"2 threads {two:.0f}/s | {two / one:.2f}× |"
    )
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        start, end = "<!-- py-bench:start -->", "<!-- py-bench:end -->"
        text = open(args.markdown, encoding="utf-8").read()
        if start not in text or end not in text:
            raise SystemExit(f"{args.markdown} has no {start} ... {end} markers")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(f"{head}{start}\n{table}\n{end}{tail}")


if __name__ == "__main__":
    main()
