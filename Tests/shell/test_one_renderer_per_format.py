"""Commands produce reports, and one renderer per output format prints them: the format is
private to Output (Sources/catfacts/Output/Output.swift), which alone chooses the renderer and
the two behaviours the format changes (scroll by screens, live search). These checks fail when a
file starts testing the output mode again; the golden files check the output itself."""
import re

from conftest import ROOT

SOURCES = ROOT / "Sources" / "catfacts"
OUTPUT = SOURCES / "Output" / "Output.swift"

# Ways of looking at the mode: reading it, comparing with a mode, switching on one.
MODE_TESTS = re.compile(
    r"\.mode\b"
    r"|\bmode\s*[!=]="
    r"|[!=]=\s*\.(table|json|plain|csv)\b"
    r"|\bcase\s+\.(table|json|plain|csv)\s*[:,]"
    r"|\bOutputMode\.(table|json|plain|csv)\b"
)


def test_the_mode_is_private_to_output():
    text = OUTPUT.read_text()
    assert re.search(r"^\s*private var mode: OutputMode$", text, re.MULTILINE), \
        "Output.mode must stay private: commands print Reports through Output.show"


def test_no_file_but_output_tests_the_mode():
    found = []
    for path in sorted(SOURCES.rglob("*.swift")):
        if path == OUTPUT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if MODE_TESTS.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "the output mode is tested outside Output.swift (build a Report instead):\n" + "\n".join(found)


def test_one_renderer_per_mode():
    modes = re.findall(r"^\s*case (\w+)$", (SOURCES / "Output" / "OutputMode.swift").read_text(), re.MULTILINE)
    renderers = {path.stem.lower() for path in (SOURCES / "Rendering").glob("*Renderer.swift")}
    assert modes, "no output mode found"
    missing = [mode for mode in modes if f"{mode}renderer" not in renderers]
    assert not missing, f"no Rendering/<Mode>Renderer.swift for {missing}"
