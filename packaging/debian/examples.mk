# The C samples of CatFacts, built against the installed libcatfacts-dev through pkg-config.
# Copy this folder somewhere writable, then:
#   make              builds page_breeds, breed_detail, metrics (these need libjansson-dev)
#                     and endpoint_times (libCatFacts alone)
#   ./page_breeds     pages every breed of https://catfact.ninja (--base-url URL for another)
CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -g -O2
SAMPLE_CFLAGS = -std=c99 -Wall -Wextra
SAMPLES = page_breeds breed_detail metrics endpoint_times

all: $(SAMPLES)

page_breeds breed_detail metrics: %: %.c sample.h
	$(CC) $(CFLAGS) $(SAMPLE_CFLAGS) $$($(PKG_CONFIG) --cflags catfacts jansson) -o $@ $< \
		$(LDFLAGS) $$($(PKG_CONFIG) --libs catfacts jansson)

endpoint_times: endpoint_times.c sample.h
	$(CC) $(CFLAGS) $(SAMPLE_CFLAGS) $$($(PKG_CONFIG) --cflags catfacts) -o $@ $< \
		$(LDFLAGS) $$($(PKG_CONFIG) --libs catfacts) -lm

clean:
	rm -f $(SAMPLES)

.PHONY: all clean
