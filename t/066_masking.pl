# The masks' properties over many IDs of every type (doc/masking.md; exact
# behaviour, pinned codes and refusals: test/sql/masking.sql; the cipher's
# published vectors: test/ff1_test.c, run by t/001_units.pl):
#   - 1,000,000 consecutive IDs of each type round-trip through id_mask and
#     id_unmask, none lost and no two codes equal (uuid7_mask too);
#   - the order of the codes says nothing of the IDs' order: Spearman's rank
#     correlation between an ID's rank and its code's is near 0, and
#     consecutive IDs' codes are in order about half the time;
#   - a one-bit change of the key changes about half of the code's bits;
#   - uuid7_mask gives a valid version 4 UUID for 100,000 inputs.
# The bounds are many standard deviations wide (a random permutation of
# 1,000,000 has a rank correlation of standard deviation 0.001), so a sound
# cipher passes on any machine, and one that kept order would not.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(time);

my $t0 = time;
my $node = uid_node('masking');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');

my $n = 1_000_000;
my $key = q{'\x000102030405060708090a0b0c0d0e0f'::bytea};

# Each type: SQL of its i-th consecutive ID (i from 1), as the generators
# make them: the time part fixed, the low bits counting (byte types: eight
# low bytes counting; UUIDs: version 7 with a counter in rand_a and rand_b).
my $v7 = q{encode(int8send(((1700000000000 + i / 4096) << 16) | 28672 | (i % 4096))
                  || int8send((-9223372036854775807 - 1) | i), 'hex')::uuid};
my @types = (
	[ shardid => q{(1000000000000 + i)::bigint::shardid} ],
	[ snowflake => q{(1000000000000 + i)::bigint::snowflake} ],
	[ sonyflake => q{(1000000000000 + i)::bigint::sonyflake} ],
	[ shortid => q{(1000000000000 + i)::bigint::shortid} ],
	[ spreadid => q{(1000000000000 + i)::bigint::spreadid} ],
	[ sno => q{('\x0102'::bytea || int8send(i))::sno} ],
	[ objectid => q{('\x65a1b2c3'::bytea || int8send(i))::objectid} ],
	[ ulid => q{('\x018c0a1b2c3d4e5f'::bytea || int8send(i))::ulid} ],
	[ ksuid => q{('\x1a2b3c4d5e6f708192a3b4c5'::bytea || int8send(i))::ksuid} ],
	[ rsxid => q{('\x65a1b2c3'::bytea || int8send(i))::rsxid} ],
	[ uuid => $v7 ],
	[ typeid => "make_typeid('user', $v7)" ]);

for my $t (@types)
{
	my ($type, $make) = @$t;
	my $tt = time;
	# (the codes compare bytewise: COLLATE "C")
	my $r = $node->safe_psql(
		'postgres', qq{
CREATE TEMP TABLE c AS
    SELECT i, id, id_mask(id, $key) COLLATE "C" AS code FROM (SELECT i, $make AS id FROM generate_series(1, $n) i) s;
SELECT count(*) FILTER (WHERE id_unmask(code, $key, NULL::$type) IS DISTINCT FROM id),
       count(DISTINCT code), count(DISTINCT id), min(length(code)) = max(length(code))
FROM c;
SELECT corr(i, r) FROM (SELECT i, row_number() OVER (ORDER BY code) AS r FROM c) x;
SELECT avg((code < next)::int) FROM (SELECT code, lead(code) OVER (ORDER BY i) AS next FROM c) x WHERE next IS NOT NULL;
});
	my ($counts, $rho, $up) = split /\n/, $r;
	my ($lost, $codes, $ids, $one_length) = split /\|/, $counts;
	is($lost, 0, "$type: $n consecutive IDs unmask to themselves");
	is($ids, $n, "$type: the $n IDs are distinct");
	is($codes, $n, "$type: their $n codes are distinct");
	is($one_length, 't', "$type: the codes have one length");
	cmp_ok(abs($rho), '<', 0.01, "$type: rank correlation of IDs and codes near 0 ($rho)");
	cmp_ok(abs($up - 0.5), '<', 0.01, "$type: consecutive IDs' codes in order about half the time ($up)");
	note(sprintf('%s: %.1f s', $type, time - $tt));
}

# uuid7_mask: the same properties, the masked UUIDs of version 4
{
	my $tt = time;
	my $r = $node->safe_psql(
		'postgres', qq{
CREATE TEMP TABLE m AS SELECT i, id, uuid7_mask(id, $key) AS m FROM (SELECT i, $v7 AS id FROM generate_series(1, $n) i) s;
SELECT count(*) FILTER (WHERE uuid7_unmask(m, $key) IS DISTINCT FROM id), count(DISTINCT m),
       count(*) FILTER (WHERE substr(m::text, 15, 1) <> '4' OR substr(m::text, 20, 1) NOT IN ('8', '9', 'a', 'b'))
FROM m;
SELECT corr(i, r) FROM (SELECT i, row_number() OVER (ORDER BY m) AS r FROM m) x;
SELECT count(*) FILTER (WHERE substr(uuid7_mask(id, $key)::text, 15, 1) <> '4'
                           OR substr(uuid7_mask(id, $key)::text, 20, 1) NOT IN ('8', '9', 'a', 'b'))
FROM (SELECT next_uuid7() AS id FROM generate_series(1, 100000)) g;
});
	my ($counts, $rho, $gen_bad) = split /\n/, $r;
	my ($lost, $masks, $bad) = split /\|/, $counts;
	is($lost, 0, "uuid7_mask: $n UUIDs unmask to themselves");
	is($masks, $n, "uuid7_mask: their $n masks are distinct");
	is($bad, 0, "uuid7_mask: the $n masks are version 4, RFC 9562 variant");
	cmp_ok(abs($rho), '<', 0.01, "uuid7_mask: rank correlation near 0 ($rho)");
	is($gen_bad, 0, 'uuid7_mask: 100,000 UUIDs from next_uuid7() give version 4 UUIDs');
	note(sprintf('uuid7_mask: %.1f s', time - $tt));
}

# One bit of the key flipped (each of its 128 bits in turn, 16 IDs each):
# about half of the masked bits change.  In the alphabet '01' a code is its
# key symbol, then exactly the masked bits, so the changed bits are the
# changed characters after the first.
for my $t (@types)
{
	my ($type, $make) = @$t;
	next if $type eq 'typeid';
	my $frac = $node->safe_psql(
		'postgres', qq{
SELECT sum(diff)::float8 / sum(bits) FROM (
    SELECT length(a) - 1 AS bits,
           (SELECT count(*) FROM generate_series(2, length(a)) p WHERE substr(a, p, 1) <> substr(b, p, 1)) AS diff
    FROM (SELECT id_mask(id, k, '01') AS a, id_mask(id, set_bit(k, kb, 1 - get_bit(k, kb)), '01') AS b
          FROM (SELECT $make AS id FROM generate_series(1, 16) i) s,
               (SELECT $key AS k) kk, generate_series(0, 127) kb) x) y;
});
	cmp_ok(abs($frac - 0.5), '<', 0.02, "$type: a one-bit change of the key changes about half of the bits ($frac)");
}
# typeid: the 122 bits of its code's UUID, less its version and variant
# (get_bit numbers the bits of a byte from the lowest)
{
	my $frac = $node->safe_psql(
		'postgres', qq{
SELECT sum(diff)::float8 / sum(122) FROM (
    SELECT (SELECT count(*) FROM generate_series(0, 127) p
            WHERE p NOT IN (52, 53, 54, 55, 70, 71) AND get_bit(a, p) <> get_bit(b, p)) AS diff
    FROM (SELECT uuid_send(uuid(id_mask(id, k)::typeid)) AS a,
                 uuid_send(uuid(id_mask(id, set_bit(k, kb, 1 - get_bit(k, kb)))::typeid)) AS b
          FROM (SELECT make_typeid('user', $v7) AS id FROM generate_series(1, 16) i) s,
               (SELECT $key AS k) kk, generate_series(0, 127) kb) x) y;
});
	cmp_ok(abs($frac - 0.5), '<', 0.02, "typeid: a one-bit change of the key changes about half of the bits ($frac)");
}

$node->stop;
note(sprintf('t/066_masking.pl: %.0f s', time - $t0));
done_testing();
