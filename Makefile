# CatFacts: `make run` opens the front, `make test` runs every suite, `make bench` the benchmarks.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CC ?= cc
PYTHON ?= python3
# What building and running need from Debian (libcurl4 and its headers for HTTP, ca-certificates
# for https; zlib for gzip-compressed OTLP exports; jansson for the C samples). `make install` needs only these.
BUILD_PACKAGES := libreadline-dev libjansson-dev libsqlite3-dev zlib1g-dev pkg-config libcurl4 libcurl4-openssl-dev ca-certificates
# What the test suites need besides: valgrind and curl (the C tests), man-db (the man page
# check), python3-venv (the wheel in a fresh venv), prometheus (promtool checks the metrics text),
# abigail-tools (abidw and abidiff guard the library's ABI), debootstrap (distro-check's bare
# Debian 12 root), lintian (checks the Debian packages).
TEST_PACKAGES := valgrind curl man-db python3-venv prometheus abigail-tools debootstrap lintian
BUILD_DIR := .build/debug
RELEASE_DIR := .build/release
PREFIX ?= /usr/local
# The man page, generated from the shell's own help (catfacts --manual-page).
MAN_PAGE := .build/man/catfacts.1
PKGCONFIG_DIR := $(CURDIR)/.build/pkgconfig
# The build tree's catfacts.pc first, then whatever the caller's PKG_CONFIG_PATH already had.
SAMPLES_PKG_CONFIG_PATH := $(PKGCONFIG_DIR)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# Leaks and false alarms of the Swift toolchain's own libraries, documented in the file.
VALGRIND_SUPPRESSIONS := --suppressions=$(CURDIR)/Tests/C/valgrind.supp

.PHONY: all deps test-deps python-deps build links pkgconfig lib release man run test swift-test c-test c-valgrind c-misuse \
	c-samples python-test python-suite shell-test shell-suite layer-check standalone-check check check-tools check-build wheel test-build flake-check c-valgrind-quick c-asan soak soak-short dist-check glibc-check abi-check abi-test docs-test deb distro-root distro-check install uninstall bench clean tsan swift-test-release fuzz fuzz-build fuzz-short

all: build

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

test-deps: deps
	@scripts/install-deps.sh $(TEST_PACKAGES)

# pytest for the Python suites, mypy to check their types, pexpect for the shell's terminal
# tests, requests and orjson for the Python benchmarks, opentelemetry-proto (with
# types-protobuf for mypy) to decode the OTLP payloads the tests' collector receives,
# opentelemetry-api and -sdk for the test of a span current in OpenTelemetry (the package
# itself only imports opentelemetry-api when it is there),
# setuptools >= 77 to build the wheel: installed only when missing.
python-deps:
	@$(PYTHON) -c 'import pytest, mypy, requests, orjson, pexpect, setuptools, sys, opentelemetry.proto.collector.trace.v1.trace_service_pb2, opentelemetry.sdk.trace, google.protobuf, importlib.metadata as m; m.version("types-protobuf"); sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' \
		2>/dev/null || $(PYTHON) -m pip install -q pytest mypy requests orjson pexpect opentelemetry-proto opentelemetry-api opentelemetry-sdk types-protobuf 'setuptools>=77'

build: deps
	$(SWIFT) build
	$(MAKE) --no-print-directory links pkgconfig

# Programs linked against the build tree record the SONAME, libCatFacts.so.0: it must be there.
links:
	@ln -sf libCatFacts.so $(BUILD_DIR)/libCatFacts.so.0

# Release builds: optimized, with no debug information (-gnone). Every package and the wheel
# strip it anyway, and emitting it took a fifth of the release build's CPU (743 s against 602
# for the library, the shell and the mock; make test's longest stage). Every release build
# here uses the same flags, so none rebuilds what another built.
RELEASE_BUILD := $(SWIFT) build -c release -Xswiftc -gnone -Xcc -g0

# The shipped library: release, the Swift runtime inside it, only the C functions exported.
lib: deps
	$(RELEASE_BUILD) --product CatFacts
	@ln -sf libCatFacts.so $(RELEASE_DIR)/libCatFacts.so.0

# Everything `make install` installs: the library, the shell, the mock, the man page.
release: lib
	$(RELEASE_BUILD) --product catfacts
	$(RELEASE_BUILD) --product catfacts-mock
	$(MAKE) --no-print-directory man SHELL_BINARY=$(RELEASE_DIR)/catfacts

SHELL_BINARY ?= $(BUILD_DIR)/catfacts
man:
	@mkdir -p $(dir $(MAN_PAGE))
	$(SHELL_BINARY) --manual-page > $(MAN_PAGE).tmp && mv $(MAN_PAGE).tmp $(MAN_PAGE)

# .build/pkgconfig/catfacts.pc: `PKG_CONFIG_PATH=$PWD/.build/pkgconfig pkg-config catfacts`.
pkgconfig:
	@bindings/c/make-pc.sh $(CURDIR) $(abspath $(BUILD_DIR)) $(CURDIR)/include $(PKGCONFIG_DIR)/catfacts.pc

c-samples: pkgconfig
	$(MAKE) --no-print-directory -C bindings/c PKG_CONFIG_PATH=$(SAMPLES_PKG_CONFIG_PATH)

# PREFIX (default /usr/local) and DESTDIR as usual; needs only the build dependencies.
install: release
	DESTDIR=$(DESTDIR) BUILD_DIR=$(RELEASE_DIR) MAN_PAGE=$(MAN_PAGE) scripts/install.sh $(PREFIX)

uninstall:
	DESTDIR=$(DESTDIR) scripts/install.sh --uninstall $(PREFIX)

# Installs into a temporary prefix and runs a C program, the wheel and the shell from it with
# the Swift toolchain hidden (a mount namespace; needs root).
dist-check: release python-deps
	scripts/dist-check.sh

# The Debian packages, from the release build, into .build/deb/ (scripts/deb.sh): libcatfacts0,
# libcatfacts-dev, catfacts and catfacts-mock.
deb: release
	scripts/deb.sh

# The bare Debian 11, 12 and 13 roots distro-check works on (debootstrap --variant=minbase),
# made once, side by side, and cached in .build/distro/SUITE/root; then it only prints the
# paths. make test starts it in a lane of its own, so that they are made while the builds run.
distro-root:
	scripts/distro-root.sh

# The packages on bare Debian 11, 12 and 13, side by side (overlay copies of the cached roots;
# needs root): lintian, apt-get install of the .debs, the C examples built with pkg-config,
# catfacts -c breeds and man catfacts against the mock, then apt-get purge leaving none of
# their files; then the wheel in a fresh venv of each release's Python (3.9, 3.11, 3.13)
# (scripts/distro-check-wheel.sh, on a copy of its own).
distro-check: deb distro-root wheel
	scripts/distro-check.sh

# The release binaries need no glibc or libstdc++ newer than abi/glibc-floor (GLIBC_2.28,
# GLIBCXX_3.4.25: RHEL 8, Debian 10 and later); each file's newest version of each and the
# symbols needing it are printed, and a symbol above a floor fails, named.
# Seconds; after make release (they read .build/release, and say so when it is missing).
glibc-check:
	scripts/check-glibc-floor.sh

# libCatFacts.so.0 keeps the ABI recorded in abi/libCatFacts.abi (abidiff): additions pass,
# listed; a removed function, a changed signature or struct layout fail unless the SONAME
# changes. On a release that changes it: scripts/check-abi.sh --record.
abi-check:
	scripts/check-abi.sh

# Proves both checks catch what they exist for (cf_breed's layout changed, a function
# removed, a symbol above the glibc floor...), on changed copies of the header.
abi-test:
	Tests/abi/run.sh

# The Python wheel to publish: bindings/python with the release library, repaired by auditwheel
# into .build/wheel/ as manylinux_2_31_x86_64 with Debian 11's SQLite and libcurl inside
# (scripts/wheel.sh; the first run needs root, to install those in a copy of the Debian 11 root).
wheel: lib python-deps
	scripts/wheel.sh

# The shell, against the real service (with no network: the cache, else the bundled catalog, labelled).
run: build
	$(BUILD_DIR)/catfacts

# Every suite, each stage timed (scripts/stages.sh prints the table at the end). After the
# dependencies and the debug build, four lanes run side by side: the suites against the debug
# build in the foreground (they mostly wait on the mock, leaving the CPU idle), the bare Debian
# root for distro-check (debootstrap: mostly downloads), and the other two builds in the
# background, each followed by what needs it - the release build (the one `make install`,
# `make deb`, `make wheel` and `make bench` use) with the glibc and ABI checks and dist-check;
# the sanitizer build (one for the C suite under ASan and the fuzzers), its runs, then
# distro-check (which waits for the release build). A failed stage does not stop the later ones. Times: README, "Testing".
TEST_FIRST := test-deps python-deps test-build
TEST_FOREGROUND := layer-check standalone-check swift-test c-test python-test soak-short shell-test docs-test c-valgrind-quick
TEST_RELEASE_LANE := release glibc-check abi-check abi-test dist-check
TEST_DISTRO_ROOT_LANE := distro-root
# distro-check last in the shorter lane: its `make release` waits for the release lane's build
# (SwiftPM locks .build), so the packages are made and proven while dist-check runs.
TEST_SANITIZER_LANE := fuzz-build c-asan fuzz-short distro-check
test:
	@scripts/stages.sh --first "$(TEST_FIRST)" --background "$(TEST_DISTRO_ROOT_LANE)" --background "$(TEST_RELEASE_LANE)" \
		--background "$(TEST_SANITIZER_LANE)" $(TEST_FOREGROUND)

# The layers of Sources/CatFactsKit (docs/architecture.md): no folder uses a type declared in
# a layer above it. The script's own test first: it plants violations in copies of the tree
# and checks that each one is caught, naming file, line and type.
layer-check:
	scripts/check-layers-test.sh
	scripts/check-layers.sh

# The repository stands alone: no tracked file sends a reader to a document outside it
# (scripts/check-standalone.sh; its own test plants such a reference first).
standalone-check:
	scripts/check-standalone-test.sh
	scripts/check-standalone.sh

# The quick loop, for every change: the debug build with its tests, then every front's suites
# in three lanes side by side (they mostly wait on their mocks): Swift, then the layers; the C
# tests and samples; Python, then the shell. No root, no network, nothing installed:
# check-tools names what is missing and the one command that installs it. make test stays the
# full gate (installs, release and sanitizer builds, valgrind, the fuzzers, packages on bare
# Debian roots). Times: README, "Testing".
check: check-tools
	@scripts/stages.sh --first "check-build" --background "swift-test layer-check standalone-check" \
		--background "c-test" python-suite shell-suite

check-tools:
	@scripts/check-tools.sh

check-build:
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory links pkgconfig c-samples

# The debug build with the tests, and what the C programs need beside it.
test-build: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory links pkgconfig c-samples

# The soak (Tests/soak/run.sh): one client from 8 C threads and a Python process (the catfacts
# package) making every kind of call, interrupts and deadlines included, and 20 more C clients
# opened, used, closed and reopened all through the run, against a catfacts-mock drawing every
# fault at random, on one SQLite cache file; the 20 export to an OTLP collector the soak kills
# and restarts; RSS, malloc's heap in use, fds and threads sampled every 10 s; its goals met or missed (exit 1 on a
# miss, naming it). `make soak` runs SOAK_S seconds (default 1800) and writes its report into
# BENCHMARKS.md's soak section; `make test` runs 60 s of it (soak-short).
SOAK_S ?= 1800
soak: build python-deps
	SOAK_S=$(SOAK_S) SOAK_RECORD=BENCHMARKS.md Tests/soak/run.sh

soak-short: python-deps
	SOAK_S=60 Tests/soak/run.sh

# The C, Python and shell suites FLAKE_ROUNDS times (default 5) while stress-ng keeps both
# cores busy: a test that passes only on a fast machine fails here. Ends `N passed, M failed`.
FLAKE_ROUNDS ?= 5
flake-check: test-deps python-deps
	@scripts/install-deps.sh stress-ng
	$(MAKE) --no-print-directory test-build c-samples
	scripts/flake-check.sh $(FLAKE_ROUNDS)

# Serial: the tests start mocks and measure latency, which they check against lower bounds only.
swift-test:
	$(SWIFT) test --skip-build --no-parallel

# C programs compiled against include/catfacts.h and linked to the real libCatFacts.so,
# against the mock; the samples checked against the mock's catalog; the header and the
# library's exports compared.
c-test: c-samples
	scripts/check-exports.sh
	scripts/check-header-types.sh
	Tests/C/run.sh
	$(MAKE) --no-print-directory -C bindings/c test PKG_CONFIG_PATH=$(SAMPLES_PKG_CONFIG_PATH)

# The same under valgrind memcheck: memory errors and definite leaks fail.
C_TESTS := $(basename $(notdir $(wildcard Tests/C/*_test.c)))
C_VALGRIND_TESTS ?= $(C_TESTS)
c-valgrind: c-samples
	Tests/C/run.sh --valgrind $(C_VALGRIND_TESTS)
	VALGRIND=1 VALGRIND_OPTS="$(VALGRIND_SUPPRESSIONS)" bindings/c/test.sh

# What `make test` runs under valgrind: the samples (programs built as a user builds them) and
# the misuse suite (every function, with every hostile argument) and the lifetime rules (handles
# closed in every order), against the library as shipped, uninstrumented. The whole C suite runs under ASan and UBSan (c-asan), which finds
# more per minute: 80 s for every program, where valgrind took 5 to 10 minutes without
# thread_test, whose 8 threads it runs one at a time.
c-valgrind-quick:
	$(MAKE) --no-print-directory c-valgrind C_VALGRIND_TESTS="misuse_test lifetime_test"

# The Python package's types (mypy --strict over the package, its tests and its examples), then
# the package over the real library, against the mock. python-suite is the same without
# installing what is missing (make check).
python-test: python-deps
	$(MAKE) --no-print-directory python-suite

python-suite:
	cd bindings/python && $(PYTHON) -m mypy --strict --cache-dir $(CURDIR)/.build/mypy-cache catfacts tests examples
	CATFACTS_MOCK=$(BUILD_DIR)/catfacts-mock CATFACTS_LIBRARY=$(abspath $(BUILD_DIR))/libCatFacts.so \
		$(PYTHON) -m pytest bindings/python/tests -q -p no:cacheprovider

# The C suite under ASan and UBSan, against the libCatFacts.so of the sanitizer build (below:
# optimized, instrumented with -sanitize=fuzzer,address, the same objects as the fuzzers'):
# every test program, the misuse suite's NULLs, wrong handles, bad options and re-entering
# listeners among them, with no memory error, leak or undefined behaviour on either side of
# the boundary. (That build links the library without the version script and -z defs: the
# sanitizer's runtime comes with the test program, which also answers the coverage hooks.)
# `make c-misuse` runs the misuse suite alone.
C_ASAN_TESTS ?= $(C_TESTS)
c-asan: fuzz-build
	CF_LIB_DIR=$(SANITIZER_DIR) Tests/C/run.sh --sanitize $(C_ASAN_TESTS)

c-misuse:
	$(MAKE) --no-print-directory c-asan C_ASAN_TESTS=misuse_test

# The shell: script mode against golden output, and a real terminal (pexpect) against the mock.
shell-test: python-deps
	$(MAKE) --no-print-directory shell-suite

shell-suite:
	CATFACTS=$(BUILD_DIR)/catfacts CATFACTS_MOCK=$(BUILD_DIR)/catfacts-mock \
		$(PYTHON) -m pytest Tests/shell -q -p no:cacheprovider

# Every example of the documentation (README.md, bindings/c/README.md, bindings/python/README.md,
# docs/*.md, the header's comments, the Python docstrings) run against this build and a mock:
# C compiled and run, Python run (doctest where it shows output), shell blocks run, shown output
# compared; a broken fence, an unmarked block it cannot run or an options table missing an
# option fails (Tests/docs/run.py). First its own test: breakage planted in copies must fail.
docs-test: python-deps
	$(PYTHON) Tests/docs/self_test.py --build-dir $(BUILD_DIR)
	$(PYTHON) Tests/docs/run.py --build-dir $(BUILD_DIR)

# The Swift tests and the C tests under ThreadSanitizer (a build of its own in .build-tsan):
# any report fails. Not part of `make test` (it rebuilds everything instrumented).
tsan: build test-deps
	scripts/tsan.sh

# The Swift tests against an optimized build (-O, in .build-release-tests): Swift 6.3.1 once
# miscompiled a task group's result in release only (docs/architecture.md), which the debug
# suite cannot see. Not part of `make test` (a whole optimized build of the tests).
swift-test-release: test-deps
	$(SWIFT) build -c release --build-tests --scratch-path .build-release-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build --no-parallel --scratch-path .build-release-tests

# libFuzzer targets (Tests/Fuzz): the page decoder against Foundation's JSONDecoder, the
# options JSON of cf_client_open and cf_list_open, the query JSON of cf_breeds_query, the URL
# parser (WebAddress) against Foundation's URLComponents. Built
# in their own scratch path, optimized, with -sanitize=fuzzer,address (Package.swift declares
# them only under CATFACTS_FUZZ), beside the instrumented libCatFacts.so that c-asan loads:
# one sanitizer build for both. `make fuzz` runs each for FUZZ_SECONDS; `make test` runs all four
# at once for 30 s (libFuzzer uses one thread: it is the last stage, when both cores are free).
FUZZ_TARGETS := page-decoder options query web-address
FUZZ_SECONDS ?= 300
SANITIZER_DIR := .build-fuzz/release
FUZZ_SWIFT_BUILD := CATFACTS_FUZZ=1 $(SWIFT) build -c release --scratch-path .build-fuzz \
	-Xswiftc -sanitize=fuzzer,address

fuzz-build: deps
	@for product in CatFacts $(addprefix fuzz-,$(FUZZ_TARGETS)); do $(FUZZ_SWIFT_BUILD) --product $$product || exit 1; done
	@ln -sf libCatFacts.so $(SANITIZER_DIR)/libCatFacts.so.0

fuzz: fuzz-build
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-short: fuzz-build
	FUZZ_PARALLEL=1 scripts/fuzz.sh 30 $(FUZZ_TARGETS)

# Benchmarks need a release build; bench/run rewrites BENCHMARKS.md.
bench: deps python-deps lib
	$(RELEASE_BUILD) --product catfacts-mock
	$(RELEASE_BUILD) --product catfacts-bench
	@mkdir -p .build/bench
	@if $(RELEASE_BUILD) --product catfacts >.build/bench/shell-build.log 2>&1; then built=1; else built=0; \
		echo "bench: the shell did not build (.build/bench/shell-build.log); its cold-start row says so"; fi; \
		BENCH_SHELL_BUILT=$$built bench/run

clean:
	rm -rf .build .build-fuzz
	$(MAKE) --no-print-directory -C bindings/c clean
