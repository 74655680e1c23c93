# uniqueid - PGXS build
# the version, from uniqueid.control (its one source; t/002_facts.pl checks
# every other place that names it)
EXTVERSION = $(shell sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" $(srcdir)/uniqueid.control)
PGFILEDESC = "uniqueid - short, unique, time-sortable ID types and generators"
MODULE_big = uniqueid
OBJS = src/module.o src/codec.o src/basen.o src/layout.o src/id64.o src/shardid.o src/sno.o src/objectid.o src/spreadid.o src/shortcode.o src/clock.o src/generator.o src/horizon.o src/dbhorizon.o src/guc.o src/uuid7.o src/ulid.o src/ksuid.o src/rsxid.o src/typeid.o src/group.o src/remote.o src/node.o src/stats.o src/family.o src/admin.o src/registry.o src/serial.o src/ff1.o src/maskcode.o src/mask.o
EXTENSION = uniqueid
DATA = $(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/sql/uniqueid--*.sql))
PG_CPPFLAGS = -I$(srcdir)/src -I$(libpq_srcdir)
# uniqueid_remote_settings() (src/group.c) reads other servers with libpq
SHLIB_LINK_INTERNAL = $(libpq)
# id_mask and uuid7_mask (src/ff1.c: FF1 with AES) use OpenSSL's libcrypto,
# linked here: the server links it only when built with SSL
SHLIB_LINK += -lcrypto

# pg_regress (test/sql, test/expected): against any server with uniqueid in
# shared_preload_libraries.  TAP (t/*.pl): servers of their own.
REGRESS = upgrade types opclass casts binary_io generator guc sno families shortcode objectid uuid7 peer_families minmax_plans timestamptz_plans floor partitioning convert serial group node_registry monitoring input_validity core_uuid security privileges masking
REGRESS_OPTS = --inputdir=$(srcdir)/test
TAP_TESTS = 1

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# make install prefix=DIR: the extension under DIR only, its control file
# and scripts in DIR/share/extension, its library in DIR/lib, as PostgreSQL
# 18's extension_control_path and dynamic_library_path find them
# (doc/installing.md).  PGXS takes its directories from pg_config, which a
# prefix on the command line does not change where pg_config's are fixed
# (Debian's, which even overrides pkglibdir): they are made to follow it here.
ifeq ($(origin prefix),command line)
override datadir = $(prefix)/share
override pkglibdir = $(prefix)/lib
override bitcodedir = $(prefix)/lib/bitcode
endif

# The tree of an extension image (CloudNativePG's ImageVolume extensions:
# lib/ and share/extension/ at the image's root): make image-tree
# IMAGE_ROOT=DIR
.PHONY: image-tree
image-tree:
	@test -n "$(IMAGE_ROOT)" || { echo "make image-tree needs IMAGE_ROOT=DIR" >&2; exit 2; }
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) install prefix=$(abspath $(IMAGE_ROOT))

# The SQL edition as the pg_tle extension uniqueid_sql (doc/portable.md):
# portable/uniqueid-pgtle.sql is generated from portable/uniqueid.sql and
# portable/pgtle/, never edited by hand (t/002_facts.pl checks it is what
# this makes).  In the source tree, also out of tree.
.PHONY: pgtle
pgtle:
	perl $(srcdir)/tools/pgtle_installer.pl $(srcdir)/portable >$(srcdir)/portable/uniqueid-pgtle.sql.new
	mv $(srcdir)/portable/uniqueid-pgtle.sql.new $(srcdir)/portable/uniqueid-pgtle.sql

# Out of tree (make -f SRC/Makefile VPATH=SRC, as Debian's pg_buildext builds):
# the directories of the objects and the tests' programs in the build directory
$(shell mkdir -p src test)

# every object depends on every header (the horizon's fast path is inline)
$(OBJS): $(wildcard $(srcdir)/src/*.h)

# The pure codecs' and the cipher's unit tests (run by t/001_units.pl), built
# without the server.
UNIT_TESTS = test/codec_test test/basen_test test/ff1_test
test/codec_test: test/codec_test.c test/unit.h src/codec.c src/codec.h
	$(CC) -std=c99 -Wall -Wextra -O2 -I$(srcdir)/src -o $@ $(filter %.c,$^)
test/basen_test: test/basen_test.c test/unit.h src/basen.c src/basen.h
	$(CC) -std=c99 -Wall -Wextra -O2 -I$(srcdir)/src -o $@ $(filter %.c,$^)
test/ff1_test: test/ff1_test.c test/unit.h src/ff1.c src/maskcode.c src/basen.c src/ff1.h src/maskcode.h src/basen.h
	$(CC) -std=c99 -Wall -Wextra -O2 -I$(srcdir)/src -o $@ $(filter %.c,$^) -lcrypto

# The codecs' and the cipher's libFuzzer targets, with AddressSanitizer and
# UndefinedBehaviorSanitizer (clang; run by test/fuzz/run.sh).
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc
test/fuzz/codec_fuzz: test/fuzz/codec_fuzz.c src/codec.c src/codec.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ test/fuzz/codec_fuzz.c src/codec.c
test/fuzz/basen_fuzz: test/fuzz/basen_fuzz.c src/basen.c src/basen.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ test/fuzz/basen_fuzz.c src/basen.c
test/fuzz/mask_fuzz: test/fuzz/mask_fuzz.c src/ff1.c src/maskcode.c src/basen.c src/ff1.h src/maskcode.h src/basen.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ test/fuzz/mask_fuzz.c src/ff1.c src/maskcode.c src/basen.c -lcrypto

# what the TAP tests run besides the installed extension (pg_regress alone,
# TAP_TESTS=, needs none of it)
ifneq ($(TAP_TESTS),)
installcheck: $(UNIT_TESTS) test/clockshift.so test/faultshim.so
endif

EXTRA_CLEAN = $(UNIT_TESTS) test/fuzz/codec_fuzz test/fuzz/basen_fuzz test/fuzz/mask_fuzz test/clockshift.so test/faultshim.so results regression.diffs regression.out

# The release archive, from git: make dist -> uniqueid-$(EXTVERSION).zip
dist:
	git archive --format zip --prefix=uniqueid-$(EXTVERSION)/ -o uniqueid-$(EXTVERSION).zip HEAD
.PHONY: dist

# The clock tests' preload library (test/clockshift.c), built for the tests only.
test/clockshift.so: test/clockshift.c
	$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $< -ldl

# The fault tests' preload library (test/faultshim.c), built for the tests only.
test/faultshim.so: test/faultshim.c
	$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $< -ldl
