"""The README's examples and the modules' docstring examples run and give what they show; the
built wheel installs into a fresh venv and runs the README there."""

import doctest
import pathlib
import subprocess
import sys

import smcrypto
from smcrypto import sm2, sm9

HERE = pathlib.Path(__file__).resolve().parent
README = HERE.parent / "README.md"
ROOT = HERE.parents[1]


def test_readme_examples():
    res = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted >= 20 and res.failed == 0, res


def test_module_examples():
    for mod in (smcrypto, sm2, sm9):
        res = doctest.testmod(mod)
        assert res.attempted >= 1 and res.failed == 0, (mod, res)


def test_every_public_name_is_documented():
    for mod in (smcrypto, sm2, sm9):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if callable(obj):
                assert obj.__doc__, f"{mod.__name__}.{name} has no docstring"
                for attr, member in vars(obj).items() if isinstance(obj, type) else ():
                    if not attr.startswith("_") and callable(member):
                        assert member.__doc__, f"{mod.__name__}.{name}.{attr} has no docstring"


def test_wheel_installs_into_a_fresh_venv(tmp_path):
    wheels = sorted((ROOT / "target" / "wheels").glob("smcrypto-*.whl"))
    assert len(wheels) == 1, f"expected the one wheel `cargo xtask py build` writes: {wheels}"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-index", str(wheels[0])], check=True)
    out = subprocess.run(
        [str(py), "-c", "import doctest, sys; r = doctest.testfile(sys.argv[1], module_relative=False); "
         "print(r.attempted, r.failed)", str(README)],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    ).stdout.split()
    assert int(out[-2]) >= 20 and out[-1] == "0", out


def test_type_stubs_match_the_runtime():
    """Every class, function and method of the stubs exists at run time, and every public one
    of the run time is in the stubs (with the same parameter names where Python can see them)."""
    import ast
    import inspect

    pkg = HERE.parent / "python" / "smcrypto"
    for stub, mod in (("__init__.pyi", smcrypto), ("sm2.pyi", sm2), ("sm9.pyi", sm9)):
        tree = ast.parse((pkg / stub).read_text())
        declared = {}
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                declared[node.name] = {
                    f.name: [a.arg for a in f.args.args + f.args.kwonlyargs if a.arg != "self"]
                    for f in node.body
                    if isinstance(f, ast.FunctionDef)
                }
            elif isinstance(node, ast.FunctionDef):
                declared[node.name] = [a.arg for a in node.args.args + node.args.kwonlyargs]
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not isinstance(obj, type) and not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException) or inspect.ismodule(obj):
                continue
            assert name in declared, f"{stub}: {name} missing"
            if isinstance(obj, type):
                public = {a for a in vars(obj) if not a.startswith("_") and callable(getattr(obj, a))}
                public |= {a for a in vars(obj) if isinstance(vars(obj)[a], property) or type(vars(obj)[a]).__name__ == "getset_descriptor"}
                stubbed = {a for a in declared[name] if not a.startswith("_")}
                assert public == stubbed, (stub, name, public ^ stubbed)
                for meth, params in declared[name].items():
                    member = getattr(obj, meth)
                    try:
                        sig = inspect.signature(member)
                    except (TypeError, ValueError):
                        continue
                    if meth == "__init__":
                        sig = inspect.signature(obj)
                    got = [p for p in sig.parameters if p not in ("self", "cls")]
                    assert got == params, (stub, name, meth, got, params)
            else:
                sig = inspect.signature(obj)
                assert list(sig.parameters) == declared[name], (stub, name)
