"""Tables fit the width in display columns: wide East-Asian characters take two columns,
combining marks none, and a long cell is cut with "…" rather than breaking its row.

A tiny server stands in for the API here, as the mock's catalogs are Latin script only.
"""
import json
import threading
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import run_shell, stable_env

BREEDS = [
    {"breed": "日本猫", "country": "日本", "origin": "Natural", "coat": "Short", "pattern": "三毛"},
    {"breed": "Ме\u0301йн-кун", "country": "Соединённые Штаты", "origin": "", "coat": "Long", "pattern": ""},
    {"breed": "Cafe\u0301 au lait", "country": "Côte d’Ivoire", "origin": "Crossbreed", "coat": "", "pattern": "Bicolor"},
    {"breed": "한국 고양이 아주 긴 이름을 가진 품종", "country": "대한민국", "origin": "Natural", "coat": "Short", "pattern": "Tabby"},
    {"breed": "Emoji 🐱 Cat", "country": "Internet", "origin": "Mutation", "coat": "Hairless", "pattern": "Solid"},
    {"breed": "A very long breed name that goes on and on past any column", "country": "United Kingdom of Great Britain",
     "origin": "Natural/Standard", "coat": "Semi-long", "pattern": "Colorpoint with mitts"},
]


class CatalogHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        page = int(query.get("page", ["1"])[0])
        limit = int(query.get("limit", ["25"])[0])
        items = BREEDS[(page - 1) * limit: page * limit]
        body = json.dumps({"current_page": page, "data": items, "last_page": max(1, -(-len(BREEDS) // limit)),
                           "per_page": limit, "total": len(BREEDS), "from": None, "to": None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def catalog_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), CatalogHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def columns(text):
    """Display columns, as a terminal counts them."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


@pytest.mark.parametrize("width", [100, 60, 40])
@pytest.mark.parametrize("command", ["breeds", "sort breed", "group origin", "scroll"])
def test_every_line_fits_the_width_in_display_columns(catalog_url, width, command):
    run = run_shell("--base-url", catalog_url, "-c", command, env=stable_env(COLUMNS=str(width)))
    assert run.status == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines
    for line in lines:
        assert columns(line) <= width, (line, columns(line))


def test_wide_and_combining_cells_line_up(catalog_url):
    run = run_shell("--base-url", catalog_url, "-c", "breeds", env=stable_env(COLUMNS="200"))
    rows = run.stdout.splitlines()[2:]
    assert len(rows) == len(BREEDS)
    # Nothing is cut at 200 columns; the country column starts at the same display column
    # on every row, whatever the scripts of the names before it.
    starts = []
    for row, breed in zip(rows, BREEDS):
        index = row.index(breed["country"], row.index(breed["breed"]) + len(breed["breed"]))
        starts.append(columns(row[:index]))
    assert len(set(starts)) == 1, starts


def test_a_long_cell_is_cut_with_an_ellipsis_and_the_row_stays_whole(catalog_url):
    run = run_shell("--base-url", catalog_url, "-c", "breeds", env=stable_env(COLUMNS="60"))
    rows = run.stdout.splitlines()[2:]
    assert len(rows) == len(BREEDS)
    last = rows[-1]
    assert last.startswith("6  A very") and "…" in last
    assert not any(cell.endswith(" …") for cell in last.split("  "))


def test_absent_fields_show_a_dash_in_tables_and_are_named_in_show(catalog_url):
    run = run_shell("--base-url", catalog_url, "-c", "breeds; show 2", env=stable_env(COLUMNS="120"))
    row = run.stdout.splitlines()[3]
    assert row.split()[-1] == "—"
    assert "Origin   (not given)" in run.stdout and "Pattern  (not given)" in run.stdout


def test_off_a_terminal_without_columns_nothing_is_cut(catalog_url):
    env = stable_env()
    del env["COLUMNS"]
    run = run_shell("--base-url", catalog_url, "-c", "breeds; show 6", env=env)
    assert run.status == 0, run.stderr
    assert "…" not in run.stdout
    long_row = next(line for line in run.stdout.splitlines() if line.startswith("6  "))
    for value in BREEDS[5].values():
        assert value in long_row
    assert max(columns(line) for line in run.stdout.splitlines()) > 120


@pytest.mark.parametrize("width", [60, 40])
def test_the_name_column_is_not_cut_while_other_columns_can_give_way(catalog_url, width):
    run = run_shell("--base-url", catalog_url, "-c", "breeds", env=stable_env(COLUMNS=str(width)))
    rows = run.stdout.splitlines()[2:]
    for row, breed in zip(rows, BREEDS):
        # A name up to half the width is shown whole: other columns narrow, then go, first.
        if columns(breed["breed"]) <= width // 2:
            assert breed["breed"] in row, (row, breed["breed"])
        assert columns(row) <= width


def test_scroll_off_a_terminal_without_columns_cuts_nothing(catalog_url):
    env = stable_env()
    del env["COLUMNS"]
    run = run_shell("--base-url", catalog_url, "-c", "scroll", env=env)
    assert run.status == 0, run.stderr
    assert "…" not in run.stdout.replace("as they load", "")
    long_row = next(line for line in run.stdout.splitlines() if line.lstrip().startswith("6  "))
    for value in BREEDS[5].values():
        assert value in long_row
