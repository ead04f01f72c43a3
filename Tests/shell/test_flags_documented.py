"""Every flag the shell takes is documented where users look: the README's list of flags (the
man page is made from --help itself, so it cannot miss one)."""
import re
import subprocess

from conftest import ROOT, SHELL

# An option's line of --help: its names (aliases separated by commas), then its value or text.
OPTION_LINE = re.compile(r"^ {2}(-{1,2}[a-z][a-z-]*(?:, -{1,2}[a-z][a-z-]*)*)", re.MULTILINE)


def help_flags():
    """Each option of --help as the tuple of its names (`--bail, -bail` is one option)."""
    text = subprocess.run([SHELL, "--help"], capture_output=True, text=True, check=True, timeout=60).stdout
    options = text.split("OPTIONS:", 1)[1]
    return [tuple(name.strip() for name in found[1].split(",")) for found in OPTION_LINE.finditer(options)]


def documented(name, section):
    return f"`{name}`" in section or f"`{name} " in section


def test_the_help_lists_the_flags_it_is_checked_for():
    names = {name for option in help_flags() for name in option}
    assert {"--base-url", "--timeout", "--otlp", "-o", "-c", "--version", "--help", "-bail"} <= names, names


def test_every_flag_of_the_help_is_in_the_readmes_list():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\nFlags: ", 1)[1].split("\n## ", 1)[0]
    missing = [option[0] for option in help_flags() if not any(documented(name, section) for name in option)]
    assert not missing, f"README.md's list of the shell's flags lacks {missing}"
