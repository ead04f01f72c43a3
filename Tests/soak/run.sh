#!/bin/bash
# `make soak`: builds the soak's C driver (Tests/soak/*.c against include/catfacts.h and the
# debug libCatFacts.so) and runs Tests/soak/soak.py: the driver's 8 threads and a Python
# process on one cache file against a faulting catfacts-mock, and the driver's 20 churning
# clients exporting to an OTLP collector (Tests/otlp/collector.py) that is killed and
# restarted, for SOAK_S seconds (default 1800). Ends with `soak: N passed, M failed` over its
# goals, each missed one named; exit 1 if one was missed.
#
#   SOAK_S=60 Tests/soak/run.sh      the short run `make test` makes
#   SOAK_SEED=N                      repeats a run's faults and draws (the run prints its seed)
#   CF_LIB_DIR=DIR                   libCatFacts.so from DIR instead of .build/debug
#   CATFACTS_MOCK=PATH               the mock instead of .build/debug/catfacts-mock
#   SOAK_RECORD=BENCHMARKS.md        also writes the report into that file's soak section
#
# Needs: the library and the mock built (swift build; with two --product options it builds
# only the last), cc, libjansson-dev, python3 with opentelemetry-proto (make python-deps).
set -u
cd "$(dirname "$0")/../.."

CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
LIB_DIR=${CF_LIB_DIR:-.build/debug}
MOCK=${CATFACTS_MOCK:-.build/debug/catfacts-mock}
OUT_DIR=.build/soak
SECONDS_TO_RUN=${SOAK_S:-1800}

if [ ! -f "$LIB_DIR/libCatFacts.so" ]; then
    echo "soak: $LIB_DIR/libCatFacts.so is missing; build it with: swift build --product CatFacts" >&2
    exit 2
fi
if [ ! -x "$MOCK" ]; then
    echo "soak: $MOCK is missing; build it with: swift build --product catfacts-mock" >&2
    exit 2
fi

mkdir -p "$OUT_DIR"
driver=$OUT_DIR/soak_driver
# Built aside and renamed into place, so a run going on meanwhile keeps its binary.
if ! "$CC" -std=c11 -Wall -Wextra -Werror -g -Iinclude -o "$driver.$$" \
        Tests/soak/driver.c Tests/soak/calls.c Tests/soak/tally.c \
        -L"$LIB_DIR" -lCatFacts -Wl,-rpath,"$(cd "$LIB_DIR" && pwd)" -ljansson -lpthread ||
   ! mv -f "$driver.$$" "$driver"; then
    rm -f "$driver.$$"
    echo "soak: the driver does not compile"
    echo "soak: 0 passed, 1 failed"
    exit 1
fi

exec "$PYTHON" Tests/soak/soak.py --seconds "$SECONDS_TO_RUN" --driver "$driver" --mock "$MOCK" \
    --library "$(cd "$LIB_DIR" && pwd)/libCatFacts.so" --package bindings/python \
    ${SOAK_SEED:+--seed "$SOAK_SEED"} ${SOAK_RECORD:+--record "$SOAK_RECORD"}
