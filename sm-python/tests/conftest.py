"""Shared fixtures: the workspace's known-answer vectors (sm-testvectors/data)."""

import json
import pathlib

import pytest

DATA = pathlib.Path(__file__).resolve().parents[2] / "sm-testvectors" / "data"


def _load(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def sm2_sm3():
    return _load("sm2-sm3-vectors.json")


@pytest.fixture(scope="session")
def sm9v():
    return _load("sm9-vectors.json")


@pytest.fixture(scope="session")
def gmssl():
    return _load("gmssl-kat-sample.json")


def h(s):
    """Hex (possibly with spaces or line breaks) to bytes."""
    return bytes.fromhex("".join(s.split()))


def pytest_terminal_summary(terminalreporter):
    """Say which kernels and peers this run exercised."""
    import importlib.metadata as md

    import smcrypto

    peers = ", ".join(
        f"{p} {md.version(p)}" for p in ("gmalg", "gmssl-pyx", "gmssl", "snowland-smx", "dask")
    )
    terminalreporter.write_line(
        f"smcrypto {md.version('smcrypto')}: SM3 multi-buffer kernel {smcrypto.SIMD}; peers: {peers}"
    )
