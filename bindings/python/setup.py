"""Build hooks: put libCatFacts inside the wheel, and tag the wheel for the platform.

The metadata is in pyproject.toml. The build takes the library, in this order, from
``$CATFACTS_WHEEL_LIBRARY`` (a file; an error if it is set and missing), else the
checkout's ``.build/release/libCatFacts.so``, else ``make -C <checkout> lib`` when a Swift
toolchain and make are there, and copies it into the build folder as
``catfacts/libCatFacts.so.0`` (its SONAME). Nothing is copied into the source tree.

On Linux it also builds, with ``cc``, the libcurl anchor ``catfacts/_curl_anchor.so``:
a tiny library linked against libcurl.so.4 and nothing more. libCatFacts loads libcurl with
dlopen, which ``auditwheel repair`` cannot see; the anchor's link is what it sees, so it
vendors libcurl and the libraries libcurl needs (TLS among them) into ``catfacts.libs/`` and
points the anchor at them. libCatFacts loads the anchor before the system's libcurl (the order
is in Sources/CCurl/include/catfacts_curl.h). In a wheel that is not repaired the anchor
links the system's libcurl, and where there is none the library goes on to its next choice,
so the anchor changes nothing there; without cc or libcurl.so.4 the wheel is built without it.

The wheel is ``py3-none-<platform>``: one wheel for every Python 3 (ctypes, no compiled
extension), but only for the platform the library was built for.
"""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.errors import ExecError, FileError

try:  # setuptools >= 70.1 has its own bdist_wheel
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools with the `wheel` package
    from wheel.bdist_wheel import bdist_wheel

ENV_VAR = "CATFACTS_WHEEL_LIBRARY"
HERE = Path(__file__).resolve().parent

if sys.platform == "darwin":
    BUILT_NAME, BUNDLED_NAME = "libCatFacts.dylib", "libCatFacts.0.dylib"
else:
    BUILT_NAME, BUNDLED_NAME = "libCatFacts.so", "libCatFacts.so.0"

# CATFACTS_LIBCURL_ANCHOR in Sources/CCurl/include/catfacts_curl.h: the file libCatFacts looks for.
# Private to the package, as _native.py is; not named like libCatFacts, of which a wheel holds one.
ANCHOR_NAME = "_curl_anchor.so"
# The anchor's one function uses libcurl, so that the link is kept whatever --as-needed says.
# curl_version is declared here rather than included: only libcurl4 is needed, not its headers.
ANCHOR_SOURCE = """\
/* Linked against libcurl.so.4 so that auditwheel repair vendors libcurl (see setup.py). */
char *curl_version(void);
char *catfacts_anchored_curl_version(void) { return curl_version(); }
"""

# Libraries of the Swift toolchain: a bundled library needing one of them needs Swift installed.
SWIFT_RUNTIME_PREFIXES = ("libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime")


def checkout_root() -> Optional[Path]:
    """The CatFacts checkout: the folder two levels above bindings/python, holding Package.swift."""
    root = HERE.parents[1]
    return root if (root / "Package.swift").is_file() else None


def swift_toolchain() -> Optional[str]:
    found = shutil.which("swift")
    if found:
        return found
    default = Path("/opt/swift/usr/bin/swift")
    return str(default) if os.access(default, os.X_OK) else None


def library_source() -> Path:
    """The library to bundle, built first with `make lib` if needed; FileError when there is none."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured).expanduser()
        if not path.is_file():
            raise FileError(f"catfacts: {ENV_VAR}={configured!r} is not a file. "
                            f"Point it at a built {BUILT_NAME}, or unset it to use the checkout's build.")
        return path.resolve()

    root = checkout_root()
    if root is None:
        raise FileError(f"catfacts: no {BUILT_NAME} to bundle: {HERE} is not inside a CatFacts checkout "
                        f"(no Package.swift in {HERE.parents[1]}), so there is no build to take it from. "
                        f"Set {ENV_VAR} to a built {BUILT_NAME}.")
    built = root / ".build" / "release" / BUILT_NAME
    if built.is_file():
        return built.resolve()

    swift, make = swift_toolchain(), shutil.which("make")
    if swift is None or make is None:
        missing = []
        if swift is None:
            missing.append("Swift toolchain (no swift on PATH, nor /opt/swift/usr/bin/swift)")
        if make is None:
            missing.append("make (not on PATH)")
        raise FileError(f"catfacts: no {BUILT_NAME} to bundle: none at {built}, and no "
                        + " and no ".join(missing) + f" to build one with `make -C {root} lib`. "
                        f"Set {ENV_VAR} to a built {BUILT_NAME}.")
    command = [make, "-C", str(root), "lib"]
    print(f"catfacts: {built} not found; building it: {' '.join(command)}", flush=True)
    done = subprocess.run(command)
    if done.returncode != 0:
        raise ExecError(f"catfacts: `{' '.join(command)}` failed (exit {done.returncode}), so there is "
                        f"no {BUILT_NAME} to bundle. Set {ENV_VAR} to a built {BUILT_NAME} instead.")
    if not built.is_file():
        raise FileError(f"catfacts: `{' '.join(command)}` succeeded but did not make {built}. "
                        f"Set {ENV_VAR} to a built {BUILT_NAME}.")
    return built.resolve()


def needed_libraries(path: Path) -> List[str]:
    """The DT_NEEDED entries of a 64-bit little-endian ELF file; [] for anything else."""
    try:
        data = path.read_bytes()
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            return []
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + index * shentsize) for index in range(shnum)]
        names: List[str] = []
        for _, kind, _, _, offset, size, link, _, _, entsize in sections:
            if kind != 6:  # SHT_DYNAMIC
                continue
            strings_offset = sections[link][4]
            for entry in range(offset, offset + size, entsize or 16):
                tag, value = struct.unpack_from("<qQ", data, entry)
                if tag == 0:
                    break
                if tag == 1:  # DT_NEEDED
                    start = strings_offset + value
                    names.append(data[start:data.index(b"\0", start)].decode("utf-8", "replace"))
        return names
    except (OSError, struct.error, IndexError, ValueError):
        return []


def build_libcurl_anchor(target: Path) -> Optional[str]:
    """Builds the anchor at target with cc; None when it did, else why it could not."""
    compiler = shutil.which("cc")
    if compiler is None:
        return "no cc on PATH"
    command = [compiler, "-shared", "-fPIC", "-O2", "-o", str(target), "-x", "c", "-", "-l:libcurl.so.4"]
    done = subprocess.run(command, input=ANCHOR_SOURCE, capture_output=True, text=True)
    if done.returncode != 0:
        return f"`{' '.join(command)}` failed (exit {done.returncode}): {done.stderr.strip()}"
    return None


class build_py_with_library(build_py):
    """build_py that also copies libCatFacts into the build folder's catfacts/ as its SONAME,
    and builds the libcurl anchor beside it on Linux."""

    def bundled_path(self) -> Path:
        return Path(self.build_lib) / "catfacts" / BUNDLED_NAME

    def anchor_path(self) -> Path:
        return Path(self.build_lib) / "catfacts" / ANCHOR_NAME

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install loads the checkout's build from the source tree
        source = library_source()
        target = self.bundled_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        print(f"catfacts: bundling {source} as {target}", flush=True)
        shutil.copyfile(source, target)  # always: a library left from an earlier build is replaced
        os.chmod(target, 0o755)
        runtime = [name for name in needed_libraries(target) if name.startswith(SWIFT_RUNTIME_PREFIXES)]
        if runtime:
            print(f"catfacts: warning: {source} needs the Swift runtime ({', '.join(runtime)}): this wheel "
                  "works only where a Swift toolchain is installed. `make lib` builds a self-contained one.",
                  file=sys.stderr, flush=True)
        if sys.platform.startswith("linux"):
            self.add_libcurl_anchor()

    def add_libcurl_anchor(self) -> None:
        anchor = self.anchor_path()
        anchor.unlink(missing_ok=True)  # an anchor left from an earlier build is not this build's
        why = build_libcurl_anchor(anchor)
        if why is None:
            print(f"catfacts: built the libcurl anchor {anchor}", flush=True)
        else:
            print(f"catfacts: warning: no libcurl anchor in this wheel ({why}): it will use the system's "
                  "libcurl4, and `auditwheel repair` cannot bundle libcurl into it.", file=sys.stderr, flush=True)

    def get_outputs(self, include_bytecode: bool = True) -> List[str]:
        outputs = super().get_outputs(include_bytecode)
        if not getattr(self, "editable_mode", False):
            outputs.append(str(self.bundled_path()))
            if self.anchor_path().is_file():
                outputs.append(str(self.anchor_path()))
        return outputs


class DistributionWithLibrary(Distribution):
    """Says it holds native code, so that the package is installed into platlib, the wheel's root
    (a wheel whose root is not purelib would otherwise carry it under .data/purelib/)."""

    def has_ext_modules(self) -> bool:
        return True


class bdist_wheel_for_platform(bdist_wheel):
    """py3-none-<platform>: any Python 3, this platform only (the library is native code)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=DistributionWithLibrary,
      cmdclass={"build_py": build_py_with_library, "bdist_wheel": bdist_wheel_for_platform})
