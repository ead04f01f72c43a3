# CatFacts: `make run` opens the front, `make test` runs every suite, `make bench` the benchmarks.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CC ?= cc
PYTHON ?= python3
# What building and running need from Debian (libcurl4 and its headers for HTTP, ca-certificates for https).
# valgrind and curl: the C tests.
DEBIAN_PACKAGES := libreadline-dev libjansson-dev libsqlite3-dev pkg-config libcurl4 libcurl4-openssl-dev ca-certificates valgrind curl
BUILD_DIR := .build/debug
PREFIX ?= /usr/local
PKGCONFIG_DIR := $(CURDIR)/.build/pkgconfig
# The build tree's catfacts.pc first, then whatever the caller's PKG_CONFIG_PATH already had.
SAMPLES_PKG_CONFIG_PATH := $(PKGCONFIG_DIR)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# Leaks and false alarms of the Swift toolchain's own libraries, documented in the file.
VALGRIND_SUPPRESSIONS := --suppressions=$(CURDIR)/Tests/C/valgrind.supp

.PHONY: all deps python-deps build pkgconfig run test swift-test c-test c-valgrind c-samples python-test shell-test install bench clean

all: build

deps:
	@scripts/install-deps.sh $(DEBIAN_PACKAGES)

# pytest for the Python suites, pexpect for the shell's terminal tests, requests for the
# Python benchmark: installed only when missing.
python-deps:
	@$(PYTHON) -c 'import pytest, requests, pexpect' 2>/dev/null || $(PYTHON) -m pip install -q pytest requests pexpect

build: deps
	$(SWIFT) build
	$(MAKE) --no-print-directory pkgconfig

# .build/pkgconfig/catfacts.pc: `PKG_CONFIG_PATH=$PWD/.build/pkgconfig pkg-config catfacts`.
pkgconfig:
	@bindings/c/make-pc.sh $(CURDIR) $(abspath $(BUILD_DIR)) $(CURDIR)/include $(PKGCONFIG_DIR)/catfacts.pc

c-samples: pkgconfig
	$(MAKE) --no-print-directory -C bindings/c PKG_CONFIG_PATH=$(SAMPLES_PKG_CONFIG_PATH)

install: build
	DESTDIR=$(DESTDIR) BUILD_DIR=$(BUILD_DIR) bindings/c/install.sh $(PREFIX)

# The shell, against the real service (with no network: the cache, else the bundled catalog, labelled).
run: build
	$(BUILD_DIR)/catfacts

test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory pkgconfig
	$(MAKE) --no-print-directory swift-test c-test c-valgrind python-test shell-test

# Serial: the metrics tests compare measured latency with the injected one, and must not share the CPU.
swift-test:
	$(SWIFT) test --skip-build --no-parallel

# C programs compiled against include/catfacts.h and linked to the real libCatFacts.so,
# against the mock; the samples checked against the mock's catalog; the header and the
# library's exports compared.
c-test: c-samples
	scripts/check-exports.sh
	Tests/C/run.sh
	$(MAKE) --no-print-directory -C bindings/c test PKG_CONFIG_PATH=$(SAMPLES_PKG_CONFIG_PATH)

# The same under valgrind memcheck: memory errors and definite leaks fail.
c-valgrind: c-samples
	Tests/C/run.sh --valgrind
	VALGRIND=1 VALGRIND_OPTS="$(VALGRIND_SUPPRESSIONS)" bindings/c/test.sh

# The Python package over the real library, against the mock.
python-test: python-deps
	CATFACTS_MOCK=$(BUILD_DIR)/catfacts-mock CATFACTS_LIBRARY=$(abspath $(BUILD_DIR))/libCatFacts.so \
		$(PYTHON) -m pytest bindings/python/tests -q -p no:cacheprovider

# The shell: script mode against golden output, and a real terminal (pexpect) against the mock.
shell-test: python-deps
	CATFACTS=$(BUILD_DIR)/catfacts CATFACTS_MOCK=$(BUILD_DIR)/catfacts-mock \
		$(PYTHON) -m pytest Tests/shell -q -p no:cacheprovider

# Benchmarks need a release build; bench/run rewrites BENCHMARKS.md.
bench: deps python-deps
	$(SWIFT) build -c release --product CatFacts
	$(SWIFT) build -c release --product catfacts-mock
	$(SWIFT) build -c release --product catfacts-bench
	@mkdir -p .build/bench
	@if $(SWIFT) build -c release --product catfacts >.build/bench/shell-build.log 2>&1; then built=1; else built=0; \
		echo "bench: the shell did not build (.build/bench/shell-build.log); its cold-start row says so"; fi; \
		BENCH_SHELL_BUILT=$$built bench/run

clean:
	rm -rf .build
	$(MAKE) --no-print-directory -C bindings/c clean
