"""The GIL is released: threads get correct results and real parallelism; key objects travel to
other processes (multiprocessing, a Dask cluster) through pickling."""

import concurrent.futures as cf
import time

import smcrypto
from smcrypto import sm2, sm9

N_THREADS = 4


def test_threads_share_keys_correctly():
    kgc = sm9.SignMasterKey.generate()
    mpk = kgc.public_key()
    users = [kgc.extract(f"user{i}") for i in range(N_THREADS)]
    sk = sm2.PrivateKey.generate()

    def work(i):
        out = []
        for j in range(20):
            m = b"%d/%d" % (i, j)
            s = users[i].sign(m)
            mpk.verify(s, m, f"user{i}")
            out.append(mpk.verify_batch([(f"user{i}", m, s), (f"user{i}", m + b"x", s)]))
            sk.public_key().verify(sk.sign(m, id=b"t%d" % i), m, id=b"t%d" % i)
        return out

    with cf.ThreadPoolExecutor(N_THREADS) as ex:
        for res in ex.map(work, range(N_THREADS)):
            assert res == [[True, False]] * 20


def _verify_chunk(args):
    mpk, items = args
    return mpk.verify_batch(items)


def test_process_pool_with_pickled_keys():
    kgc = sm9.SignMasterKey.generate()
    user = kgc.extract("p")
    items = [("p", b"%d" % i, user.sign(b"%d" % i)) for i in range(8)]
    with cf.ProcessPoolExecutor(2) as ex:
        res = list(ex.map(_verify_chunk, [(kgc.public_key(), items[:4]), (kgc.public_key(), items[4:])]))
    assert res == [[True] * 4, [True] * 4]


def _python_progress_during(call):
    """How many times another Python thread ran its loop while `call` was in native code."""
    import threading

    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.01)
        before = counter[0]
        call()
        return counter[0] - before
    finally:
        stop.set()
        t.join()


def test_heavy_calls_release_the_gil():
    """While a long native call runs, other Python threads keep running (with the GIL held they
    would be stopped for the whole call). Throughput with 1 and 2 threads is measured by
    `cargo xtask py bench`."""
    import sys

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.5)  # longer than any of the calls: no forced switch inside one
    try:
        kgc = sm9.SignMasterKey.generate()
        mpk = kgc.public_key()
        user = kgc.extract("t")
        # Each call runs for roughly 0.1 s, so that the other thread gets scheduled during it
        # even on a loaded machine.
        sigs = user.sign_many([b"%d" % i for i in range(100)])
        items = [("t", b"%d" % (i % 100), sigs[i % 100]) for i in range(600)]
        sk = sm2.PrivateKey.generate()
        data = bytes(64 << 20)
        calls = {
            "sm3 64 MiB": lambda: smcrypto.sm3(data).digest(),
            "sm9 verify_batch x600": lambda: mpk.verify_batch(items),
            "sm2 sign_many x6000": lambda: sk.sign_many([b"m"] * 6000),
        }
        for name, call in calls.items():
            assert _python_progress_during(call) > 1000, name
        # Control: a C call that keeps the GIL (sum over a range) lets the other thread do
        # (almost) nothing, so the measure can tell the two apart.
        assert _python_progress_during(lambda: sum(range(10_000_000))) < 1000
    finally:
        sys.setswitchinterval(old)


def test_dask_local_cluster_verifies_1000_signatures():
    from dask.distributed import Client, LocalCluster

    kgc = sm9.SignMasterKey.generate()
    mpk = kgc.public_key()
    signers = [kgc.extract(f"signer{i}") for i in range(10)]
    items = []
    for i in range(1000):
        m = b"message %d" % i
        items.append((f"signer{i % 10}", m, signers[i % 10].sign(m)))
    bad = {17, 500, 999}
    for i in bad:
        ident, m, s = items[i]
        items[i] = (ident, m + b"!", s)
    chunks = [items[k : k + 100] for k in range(0, 1000, 100)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            futures = client.map(_verify_chunk, [(mpk, c) for c in chunks])
            results = [r for chunk in client.gather(futures) for r in chunk]
    assert len(results) == 1000
    assert [i for i, ok in enumerate(results) if not ok] == sorted(bad)
