#!/bin/sh
# What `make check` needs, checked without installing anything (it runs with no root and no
# network): every missing piece is named, with the one command that installs it all.
set -u
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
missing=""
need() { missing="$missing
  $1"; }

swift=$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
[ -x "$swift" ] || need "swift (the Swift toolchain: on PATH, or at /opt/swift/usr/bin)"
for tool in cc pkg-config curl timeout promtool "$PYTHON"; do
    command -v "$tool" >/dev/null 2>&1 || need "$tool"
done
for module in jansson sqlite3 libcurl; do
    pkg-config --exists "$module" 2>/dev/null || need "the $module headers (pkg-config $module)"
done
[ -e /usr/include/readline/readline.h ] || need "the readline headers (libreadline-dev)"
"$PYTHON" -c 'import pytest, mypy, pexpect, requests, google.protobuf, opentelemetry.proto.collector.trace.v1.trace_service_pb2' \
    2>/dev/null || need "Python modules: pytest mypy pexpect requests opentelemetry-proto types-protobuf"

if [ -n "$missing" ]; then
    echo "make check: missing (it installs nothing itself):$missing" >&2
    echo "make check: run 'make test-deps python-deps' once (root or sudo for the Debian packages)" >&2
    exit 1
fi
