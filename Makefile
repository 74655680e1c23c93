# uniqueid - PGXS build
MODULE_big = uniqueid
OBJS = src/module.o src/codec.o src/basen.o src/layout.o src/id64.o src/sno.o src/objectid.o src/spreadid.o src/shortcode.o src/generator.o src/horizon.o src/guc.o src/uuid7.o
EXTENSION = uniqueid
DATA = $(wildcard sql/uniqueid--*.sql)
PG_CPPFLAGS = -I$(srcdir)/src

REGRESS = types opclass casts binary_io generator guc sno families shortcode objectid uuid7 timestamptz_plans security
REGRESS_OPTS = --inputdir=.

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The pure codecs' unit test, built without the server.
test/codec_test: test/codec_test.c src/codec.c src/codec.h
	$(CC) -std=c99 -Wall -Wextra -O2 -Isrc -o $@ test/codec_test.c src/codec.c

EXTRA_CLEAN = test/codec_test results regression.diffs regression.out
