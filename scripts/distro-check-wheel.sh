#!/bin/bash
# Proves that the repaired wheel (make wheel) works where nothing but Python is installed: in a
# bare Debian 12 root with only python3-venv added (no libcurl4; SQLite comes with Python, and
# the wheel brings its own), a fresh venv installs the wheel with `pip install --no-index`, then
# pages breeds from a catfacts-mock running outside on loopback, reads the metrics, and shows
# that libcurl and SQLite came from the wheel's catfacts.libs/; then makes HTTPS requests, to a
# server on loopback whose test CA is only in Fedora's CA bundle place, to show that the wheel's
# libcurl (built on Debian) finds another distribution's bundle. Also checks the wheel's
# manylinux tag with `auditwheel show`. Needs openssl here for the test CA.
#
#   scripts/distro-check-wheel.sh ROOT_COPY_DIR MOCK_URL    (scripts/distro-check.sh runs it)
#
# ROOT_COPY_DIR: a fresh copy of a `debootstrap --variant=minbase bookworm` root; this script
# changes it (apt-get, a venv) and leaves it so. MOCK_URL: the mock's "listening on" URL (the
# chroot shares the network). Needs root. Runs in its own mount namespace, so the /proc and /dev
# it mounts in the root disappear with it even if it is killed; the trap unmounts them and puts
# resolv.conf back on any other exit. Prints `  ok   name` or `  FAIL name` and the output per
# check, then `distro-check-wheel: N passed, M failed`; exits 0 only when all pass.
# Environment: CATFACTS_WHEEL (default: the wheel in .build/wheel/), PYTHON (default python3,
# the one with auditwheel).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 ROOT_COPY_DIR MOCK_URL" >&2
    exit 2
fi
cd "$(dirname "$0")/.."
root=$(readlink -f "$1")
url=$2
python=${PYTHON:-python3}
platform=$(scripts/wheel.sh --platform)

if [ "$(id -u)" -ne 0 ]; then
    echo "distro-check-wheel: needs root (chroot, mount)" >&2
    exit 1
fi
if [ ! -f "$root/etc/debian_version" ] || [ ! -x "$root/usr/bin/apt-get" ]; then
    echo "distro-check-wheel: $root is not a Debian root (no etc/debian_version or usr/bin/apt-get)" >&2
    exit 1
fi
case $url in
    http://127.*|http://localhost*|http://\[::1\]*) ;;
    *) echo "distro-check-wheel: MOCK_URL must be a catfacts-mock on loopback (http://127.0.0.1:PORT), not '$url'" >&2
       exit 1 ;;
esac
if [ -n "${CATFACTS_WHEEL:-}" ]; then
    wheel=$CATFACTS_WHEEL
else
    wheel=$(ls .build/wheel/catfacts-*-"$platform".whl 2>/dev/null | head -1)
fi
if [ ! -f "$wheel" ]; then
    # Counted, so that distro-check.sh adds it to its own.
    echo "  FAIL a wheel to check: none${wheel:+ at $wheel}; build it with \`make wheel\`, or set CATFACTS_WHEEL"
    echo "distro-check-wheel: 0 passed, 1 failed"
    exit 1
fi

if [ -z "${CATFACTS_IN_NAMESPACE:-}" ]; then
    exec unshare --mount --propagation private env CATFACTS_IN_NAMESPACE=1 bash "$0" "$@"
fi

log=$(mktemp -d /tmp/catfacts-distro-wheel.XXXXXX)
resolv_saved=$log/resolv.conf
forwarder=
undo() {
    if [ -n "$forwarder" ]; then kill "$forwarder" 2>/dev/null || true; fi
    umount "$root/dev" 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
    if [ -e "$resolv_saved" ] || [ -L "$resolv_saved" ]; then
        mv -f "$resolv_saved" "$root/etc/resolv.conf"
    else
        rm -f "$root/etc/resolv.conf"
    fi
    rm -rf "$log"
}
if [ -e "$root/etc/resolv.conf" ] || [ -L "$root/etc/resolv.conf" ]; then
    mv "$root/etc/resolv.conf" "$resolv_saved"
fi
trap undo EXIT
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

. scripts/checks.sh
# inside COMMAND...: runs it in the root, with a plain environment (nothing of this machine's).
inside() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

scripts=$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
check "auditwheel show: $(basename "$wheel") is consistent with $platform" \
    sh -c "PATH='$scripts':\$PATH '$python' -m auditwheel show '$wheel' | tr '\n' ' ' | grep -q 'platform tag: \"$platform\"'"

check "apt-get installs python3-venv (no other package asked for)" \
    inside sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends python3-venv'
check "libcurl.so.4 is not in the root (ldconfig -p, nor any file)" \
    inside sh -c '! ldconfig -p | grep libcurl && ! find / -xdev -name "libcurl*.so*" | grep .'

cp "$wheel" "$root/tmp/"
venv=/opt/catfacts-venv
check "python3 -m venv makes a fresh venv" inside python3 -m venv "$venv"
check "pip install --no-index installs the wheel" \
    inside "$venv/bin/python" -m pip install -q --no-index "/tmp/$(basename "$wheel")"

# One script, one check per mode; each mode in a fresh process, so that no check leans on another.
cat >"$root/tmp/wheel_check.py" <<'PY'
import site, sys
import catfacts

mode, url = sys.argv[1], sys.argv[2]
if mode == "library":
    package = site.getsitepackages()[0] + "/catfacts/"
    assert catfacts.library_path == package + "libCatFacts.so.0", (catfacts.library_path, package)
elif mode == "page":
    with catfacts.Client(base_url=url, retries=0) as client:
        page = client.breeds_page(1, limit=5)
    got = (len(page), page.page, page.last_page, page.total, page.source, page[0].breed, page[4].breed)
    assert got == (5, 1, 20, 98, "network", "Abyssinian", "American Shorthair"), got
elif mode == "walk":
    with catfacts.Client(base_url=url, retries=0) as client:
        pages = list(client.breeds_pages(limit=25))
    names = [breed.breed for page in pages for breed in page]
    got = ([len(page) for page in pages], len(set(names)), names[0], names[-1])
    assert got == ([25, 25, 25, 23], 98, "Abyssinian", "York Chocolate"), got
elif mode == "metrics":
    with catfacts.Client(base_url=url, retries=0) as client:
        client.breeds_page(2, limit=10)
        metrics = client.metrics()
    breeds = metrics.endpoint("/breeds")
    assert breeds is not None, metrics
    got = (breeds.requests, breeds.errors, breeds.retries, breeds.cache_hits, breeds.bytes > 0)
    assert got == (1, 0, 0, 0, True), breeds
elif mode == "https":
    with catfacts.Client(base_url=url, retries=0) as client:
        page = client.breeds_page(1, limit=5)
    got = (len(page), page.total, page.source, page[0].breed)
    assert got == (5, 98, "network", "Abyssinian"), got
elif mode == "https-untrusted":
    with catfacts.Client(base_url=url, retries=0) as client:
        try:
            client.breeds_page(1, limit=5)
        except catfacts.NetworkError as error:
            assert "TLS certificate could not be verified" in str(error), error
        else:
            raise AssertionError(f"{url}: a certificate that no installed CA signed was accepted")
elif mode == "vendored":
    # After a request: which libcurl and SQLite the process mapped, by file.
    with catfacts.Client(base_url=url, retries=0) as client:
        client.breeds_page(1, limit=1)
        with open("/proc/self/maps") as maps:
            files = {line.split()[-1] for line in maps if "/" in line}
    package = site.getsitepackages()[0]
    curl = sorted(path for path in files if path.rpartition("/")[2].startswith("libcurl"))
    sqlite = sorted(path for path in files if path.rpartition("/")[2].startswith("libsqlite3"))
    assert len(curl) == 1 and curl[0].startswith(package + "/catfacts.libs/libcurl-"), curl
    assert len(sqlite) == 1 and sqlite[0].startswith(package + "/catfacts.libs/libsqlite3-"), sqlite
else:
    sys.exit(f"unknown mode {mode!r}")
PY
run_check() { inside "$venv/bin/python" /tmp/wheel_check.py "$1" "${2:-$url}"; }
check "catfacts.library_path is the wheel's, in the venv's site-packages" run_check library
check "page 1 of breeds from the mock: 5 of 98 over the network, Abyssinian first" run_check page
check "every breed page by page: 25+25+25+23, 98 names, Abyssinian to York Chocolate" run_check walk
check "metrics count the request: /breeds 1 request, no error, retry or cache hit" run_check metrics
check "HTTP and SQLite through the wheel's own libcurl and libsqlite3 (catfacts.libs/)" run_check vendored

# HTTPS where Debian keeps no CA bundle, as on Fedora: the wheel's libcurl looks where Debian
# keeps it, and libCatFacts falls back to the other distributions' places. A test CA, the only
# one, goes to Fedora's place; an HTTPS server on loopback, in front of the mock, shows a
# certificate that CA signed.
tls=$log/tls
mkdir "$tls"
cat >"$tls/forward.py" <<'PY'
"""HTTPS on a free loopback port in front of the mock (argv[1]), with the certificate in
argv[2]; prints "listening on URL" first. GET only, forwarded as it is."""
import http.server, ssl, sys, urllib.request

class Forward(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        with urllib.request.urlopen(sys.argv[1] + self.path) as answer:
            body = answer.read()
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.headers.get("Content-Type", "application/json"))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[2] + "/server.pem", sys.argv[2] + "/server.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"listening on https://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
PY
make_certificates() {
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=catfacts test CA" \
        -keyout "$tls/ca.key" -out "$tls/ca.pem" &&
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr" &&
    printf 'subjectAltName=IP:127.0.0.1\n' >"$tls/san" &&
    openssl x509 -req -days 1 -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
        -extfile "$tls/san" -out "$tls/server.pem"
}
start_forwarder() {
    "$python" "$tls/forward.py" "$url" "$tls" >"$tls/forward.out" 2>&1 &
    forwarder=$!
    for _ in $(seq 300); do   # up to 30 s: it answers in well under one
        grep -q '^listening on ' "$tls/forward.out" && return 0
        kill -0 "$forwarder" 2>/dev/null || break
        sleep 0.1
    done
    cat "$tls/forward.out"
    return 1
}
check "a test CA and an HTTPS server on loopback signed by it (openssl, python3)" \
    make_certificates
if start_forwarder; then
    https_url=$(sed -n 's/^listening on //p' "$tls/forward.out")
    check "HTTPS with Debian's CA bundle: the test CA's certificate is refused" run_check https-untrusted "$https_url"
    debian_bundle=$root/etc/ssl/certs/ca-certificates.crt
    mv "$debian_bundle" "$debian_bundle.hidden"
    mkdir -p "$root/etc/pki/tls/certs"
    cp "$tls/ca.pem" "$root/etc/pki/tls/certs/ca-bundle.crt"
    check "HTTPS with only Fedora's CA bundle (/etc/pki/tls/certs/ca-bundle.crt): page 1 of 98" run_check https "$https_url"
    rm -r "$root/etc/pki"
    mv "$debian_bundle.hidden" "$debian_bundle"
else
    check "an HTTPS server on loopback in front of the mock" false
fi

echo "distro-check-wheel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
