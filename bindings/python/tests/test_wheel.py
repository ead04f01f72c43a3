"""The wheel: built with the library inside, tagged for the platform, and working from a fresh
venv with no environment variables and no checkout around it.

Building with --no-build-isolation needs setuptools >= 77 in this interpreter (`make
python-deps` installs it); nothing is installed here but into the tests' own venv.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import catfacts

from conftest import PYTHON_DIR

BUNDLED = "catfacts/libCatFacts.so.0"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the bundled name tested here is Linux's (libCatFacts.so.0)")


def platform_tag() -> str:
    """This platform's wheel tag, as bdist_wheel writes it (linux-x86_64 -> linux_x86_64)."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_").replace(" ", "_")


def source_library() -> Path:
    """The library the suite runs on: $CATFACTS_LIBRARY (set by `make python-test`), else the one loaded."""
    import catfacts
    return Path(os.environ.get("CATFACTS_LIBRARY") or catfacts.library_path).resolve()


def clean_env(**updates: str) -> Dict[str, str]:
    """This environment less anything that would point Python or catfacts somewhere else."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("CATFACTS_LIBRARY", "CATFACTS_WHEEL_LIBRARY", "PYTHONPATH", "PYTHONHOME")}
    env.update(updates)
    return env


def pip_wheel(project: Path, out: Path, library: Optional[str]) -> "subprocess.CompletedProcess[str]":
    env = clean_env() if library is None else clean_env(CATFACTS_WHEEL_LIBRARY=library)
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(out), str(project)],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def build_backend() -> None:
    """--no-build-isolation uses this interpreter's setuptools: it must know bdist_wheel and PEP 639."""
    try:
        import setuptools  # type: ignore[import-untyped]
        version = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
    except (ImportError, ValueError):
        version = (0, 0)
    if version < (77, 0):
        pytest.fail(f"building the wheel needs setuptools>=77 in {sys.executable} (it has "
                    f"{'none' if version == (0, 0) else setuptools.__version__}): `make python-deps`")


@pytest.fixture(scope="module")
def wheel(build_backend: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = pip_wheel(PYTHON_DIR, out, str(source_library()))
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed; its python."""
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    python = folder / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index", "--no-deps", str(wheel)],
                          capture_output=True, text=True, env=clean_env(), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return python


def run_in_venv(python: Path, script: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    """``script`` in the venv's python (-I: no user site, no PYTHON* variables), from outside the checkout."""
    return subprocess.run([str(python), "-I", "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          env=clean_env(), cwd=str(cwd), timeout=60)


def test_the_wheel_is_tagged_py3_none_for_this_platform(wheel: Path) -> None:
    tag = f"py3-none-{platform_tag()}"
    assert wheel.name == f"catfacts-0.2.0-{tag}.whl"
    assert "any" not in wheel.name
    try:
        from packaging.tags import sys_tags
    except ImportError:
        return
    assert tag in {str(supported) for supported in sys_tags()}  # pip here would install it


def test_the_wheel_holds_the_library_under_its_soname(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        record = archive.read("catfacts-0.2.0.dist-info/RECORD").decode()
        metadata = archive.read("catfacts-0.2.0.dist-info/WHEEL").decode().splitlines()
        bundled = archive.read(BUNDLED)
        names = archive.namelist()
    assert BUNDLED in [line.split(",")[0] for line in record.splitlines()]
    assert bundled == source_library().read_bytes()
    assert "Root-Is-Purelib: false" in metadata
    assert f"Tag: py3-none-{platform_tag()}" in metadata
    # Nothing under .data/ (the package is at the wheel's root), no other copy of the library.
    assert not [name for name in names if ".data/" in name]
    assert [name for name in names if "libCatFacts" in name] == [BUNDLED]


def test_a_fresh_venv_loads_the_bundled_library(venv: Path, tmp_path: Path) -> None:
    done = run_in_venv(venv, """
        import json, sysconfig, catfacts
        print(json.dumps([catfacts.library_path, catfacts.__file__, sysconfig.get_paths()["platlib"]]))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    library, module, site_packages = (Path(path).resolve() for path in json.loads(done.stdout))
    assert site_packages.is_relative_to(venv.parent.parent.resolve())
    assert module.parent == site_packages / "catfacts"  # the installed package, not the source tree
    assert library == site_packages / BUNDLED


def test_the_installed_package_reads_a_page_from_the_mock(venv: Path, tmp_path: Path, mock_url: str,
                                                          all_breeds: List[catfacts.Breed]) -> None:
    done = run_in_venv(venv, f"""
        import json, catfacts
        with catfacts.Client(base_url={mock_url!r}) as client:
            page = client.breeds_page(1, limit=5)
        print(json.dumps([breed.breed for breed in page.items]))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    names = json.loads(done.stdout)
    assert len(names) == 5
    assert names[0] == all_breeds[0].breed
    assert names == [breed.breed for breed in all_breeds[:5]]


def test_a_missing_wheel_library_fails_the_build_saying_so(build_backend: None, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "libCatFacts.so"
    done = pip_wheel(PYTHON_DIR, tmp_path / "out", str(missing))
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert f"error: catfacts: CATFACTS_WHEEL_LIBRARY={str(missing)!r} is not a file" in output
    assert not list(tmp_path.glob("out/*.whl"))


def copy_project(destination: Path) -> Path:
    """bindings/python copied to destination/bindings/python, without what builds leave."""
    project = destination / "bindings" / "python"
    shutil.copytree(PYTHON_DIR, project,
                    ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "libCatFacts*"))
    return project


def test_outside_a_checkout_the_build_asks_for_the_variable(build_backend: None, tmp_path: Path) -> None:
    project = copy_project(tmp_path)  # no Package.swift in tmp_path
    done = pip_wheel(project, tmp_path / "out", None)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "is not inside a CatFacts checkout" in output and "Set CATFACTS_WHEEL_LIBRARY" in output


def test_a_checkout_without_a_release_library_runs_make_lib(build_backend: None, tmp_path: Path) -> None:
    # The hook runs `make lib` only where a Swift toolchain and make are (make test has both).
    assert shutil.which("swift") or os.access("/opt/swift/usr/bin/swift", os.X_OK), "no Swift toolchain"
    assert shutil.which("make"), "no make"
    # A stand-in checkout whose `make lib` copies the suite's library and notes that it ran.
    project = copy_project(tmp_path)
    (tmp_path / "Package.swift").write_text("// stand-in\n")
    (tmp_path / "Makefile").write_text(
        "lib:\n\tmkdir -p .build/release\n"
        f"\tcp {source_library()} .build/release/libCatFacts.so\n\ttouch made-lib\n")
    done = pip_wheel(project, tmp_path / "out", None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "made-lib").is_file()
    [built] = (tmp_path / "out").glob("*.whl")
    with zipfile.ZipFile(built) as archive:
        assert archive.read(BUNDLED) == source_library().read_bytes()

    # With .build/release/libCatFacts.so there, it is taken as it is: make is not run again.
    (tmp_path / "made-lib").unlink()
    done = pip_wheel(project, tmp_path / "out2", None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (tmp_path / "made-lib").exists()
