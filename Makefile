# CatFacts: `make run` opens the front, `make test` runs every suite, `make bench` the benchmarks.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CC ?= cc
# What building and running need from Debian (libcurl4 and ca-certificates: FoundationNetworking and https).
DEBIAN_PACKAGES := libreadline-dev libjansson-dev libsqlite3-dev pkg-config libcurl4 ca-certificates
BUILD_DIR := .build/debug
LIB := $(BUILD_DIR)/libCatFacts.so
C_TEST_DIR := .build/c-tests

.PHONY: all deps build run test swift-test c-test bench clean

all: build

deps:
	@scripts/install-deps.sh $(DEBIAN_PACKAGES)

build: deps
	$(SWIFT) build

# Until the shell lands: start the mock in-process, print a page of breeds and the metrics.
run: build
	$(BUILD_DIR)/catfacts --mock

test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory swift-test c-test

# Serial: the metrics tests compare measured latency with the injected one, and must not share the CPU.
swift-test:
	$(SWIFT) test --skip-build --no-parallel

# C programs compiled against include/catfacts.h and linked to the real libCatFacts.so.
c-test: $(C_TEST_DIR)/library_test
	$(C_TEST_DIR)/library_test

$(C_TEST_DIR)/%: Tests/C/%.c include/catfacts.h $(LIB)
	@mkdir -p $(C_TEST_DIR)
	$(CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(BUILD_DIR) -lCatFacts -Wl,-rpath,$(abspath $(BUILD_DIR))

# Benchmarks need a release build; bench/run rewrites BENCHMARKS.md.
bench: deps
	$(SWIFT) build -c release --product catfacts-mock
	$(SWIFT) build -c release --product catfacts-bench
	bench/run

clean:
	rm -rf .build $(C_TEST_DIR)
