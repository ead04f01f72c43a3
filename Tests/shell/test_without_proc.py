"""Where /proc is not mounted (a chroot, a build sandbox, some containers) the shell, the
mock and the C and Python fronts work as far as they can, and say what is missing and exit
non-zero (or fail the call) where they cannot: never print nothing and exit 0, never crash.
(Swift's libdispatch reads /proc/<tid>/stat every second while its threads are busy and stops
the process without it: a client's calls, the mock's server.) Each test runs the real
binaries in a private mount namespace whose /proc is an empty tmpfs (unshare --mount; root)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HANG_S, MOCK, ROOT, SHELL, stable_env

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                                reason="needs root and unshare(1) for a mount namespace without /proc")

#: Runs "$@" with an empty tmpfs over /proc, in a mount namespace of its own (the host's
#: /proc is untouched). `test -e /proc/self` proves /proc is really gone first.
WITHOUT_PROC = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                'mount -t tmpfs none /proc && ! test -e /proc/self && exec "$@"', "sh"]


def run_without_proc(*args, env=None, stdin=""):
    return subprocess.run([*WITHOUT_PROC, *args], input=stdin, capture_output=True, text=True,
                          env=env or stable_env(), timeout=HANG_S)


def test_proc_is_really_gone_in_the_namespace():
    done = run_without_proc("sh", "-c", "ls -A /proc | wc -l; cat /proc/self/cmdline; echo $?")
    assert done.stdout.split() == ["0", "1"], done.stdout + done.stderr


#: What every front says (the library's ProcFilesystem).
MISSING = ("/proc is not mounted: the Swift runtime's libdispatch reads /proc/self/task/*/stat and stops the "
           "process without it; mount it (mount -t proc proc /proc), or bind-mount the host's into the chroot")


def test_version_prints_the_version_and_exits_0():
    done = run_without_proc(os.path.abspath(SHELL), "--version")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*\n", done.stdout), done.stdout


def test_help_prints_the_help():
    done = run_without_proc(os.path.abspath(SHELL), "--help")
    assert done.returncode == 0, done.stderr
    assert "USAGE: catfacts" in done.stdout


def test_a_usage_error_is_still_a_usage_error():
    done = run_without_proc(os.path.abspath(SHELL), "--retries", "101", "-c", "breeds")
    assert done.returncode == 2
    assert "--retries 101: must be in 0..100." in done.stderr


@pytest.mark.parametrize("flags", [["--mock"], ["--offline"], ["--base-url", "http://127.0.0.1:9"]])
def test_commands_say_proc_is_missing_and_exit_1(flags):
    done = run_without_proc(os.path.abspath(SHELL), *flags, "-c", "breeds")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"catfacts: {MISSING}\n"


def test_the_mock_says_proc_is_missing():
    for _ in range(5):  # the crash it replaces came a second in, most times, not every time
        done = run_without_proc(os.path.abspath(MOCK), "--port", "0")
        assert (done.returncode, done.stdout, done.stderr) == (1, "", f"catfacts-mock: {MISSING}\n")


C_PROGRAM = r"""
#include <catfacts.h>
#include <stdio.h>
int main(int argc, char **argv) {
    cf_client *client = NULL;
    cf_status status = cf_client_open(argv[1], "{\"retries\":0}", &client);
    printf("%s\n%s\n", cf_status_string(status), status == CF_OK ? "" : cf_last_error());
    if (status == CF_OK) cf_client_close(client);
    return status == CF_OK ? 0 : 1;
}
"""


def test_a_c_program_gets_an_error_not_a_crash(tmp_path):
    library = (ROOT / ".build/debug").resolve()
    source = tmp_path / "open.c"
    source.write_text(C_PROGRAM)
    program = tmp_path / "open"
    subprocess.run([os.environ.get("CC", "cc"), "-o", str(program), str(source), f"-I{ROOT / 'include'}",
                    f"-L{library}", "-lCatFacts", f"-Wl,-rpath,{library}"], check=True, timeout=HANG_S)
    done = run_without_proc(str(program), "http://127.0.0.1:9")
    assert done.returncode == 1, done.stderr
    status, message = done.stdout.splitlines()
    assert status.startswith("CF_ERR_INTERNAL")
    assert MISSING in message


def test_python_gets_an_error_not_a_crash():
    library = (ROOT / ".build/debug/libCatFacts.so").resolve()
    script = ("import catfacts\n"
              "try:\n"
              "    catfacts.Client(base_url='http://127.0.0.1:9')\n"
              "except catfacts.CatFactsError as error:\n"
              "    print(type(error).__name__, error, sep='\\n')\n")
    environment = stable_env(PYTHONPATH=str(ROOT / "bindings/python"), CATFACTS_LIBRARY=str(library))
    done = run_without_proc(sys.executable, "-c", script, env=environment)
    assert done.returncode == 0, done.stderr
    kind, message = done.stdout.splitlines()
    assert kind == "InternalError" and MISSING in message
