# TAP: builds and runs the unit tests of the pure codecs (test/codec_test.c).
make -s test/codec_test PG_CONFIG=/usr/lib/postgresql/${UID_PGVER:-15}/bin/pg_config >&2 || { echo "1..1"; echo "not ok 1 - codec_test did not build"; exit 1; }
exec test/codec_test
