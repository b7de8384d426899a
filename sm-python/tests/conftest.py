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
