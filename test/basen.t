# TAP: builds and runs the unit tests of the base-N short codes (test/basen_test.c).
cc -std=c99 -O2 -Isrc -o test/basen_test test/basen_test.c src/basen.c >&2 || { echo "1..1"; echo "not ok 1 - basen_test did not build"; exit 1; }
exec test/basen_test
