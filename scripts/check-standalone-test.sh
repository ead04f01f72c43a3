#!/bin/sh
# check-standalone.sh's own test: a reference planted in a scratch repository must fail it,
# naming the file and line; the same repository without it must pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT
git -C "$repo" init -q
printf 'int x;\n' >"$repo/ok.c"
git -C "$repo" add ok.c
"$here/check-standalone.sh" "$repo" >/dev/null || { echo "check-standalone-test: a clean tree failed" >&2; exit 1; }
# The reference is assembled at run time, so this file names no outside document itself.
up=".." folder="sha""red" name="c-""api" ext="md"
printf 'first line\n/* the rules: see %s/%s/design/%s.%s */\n' "$up" "$folder" "$name" "$ext" >"$repo/planted.h"
git -C "$repo" add planted.h
if out=$("$here/check-standalone.sh" "$repo" 2>&1); then
    echo "check-standalone-test: a planted reference passed" >&2; exit 1
fi
case $out in
    *"planted.h:2:"*) echo "check-standalone-test: a planted reference fails, naming planted.h:2" ;;
    *) echo "check-standalone-test: the failure did not name planted.h:2: $out" >&2; exit 1 ;;
esac
