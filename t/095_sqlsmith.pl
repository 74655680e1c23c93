# Random SQL: sqlsmith (Debian's package) sends generated queries, as a role
# without privileges, to a database holding every uniqueid type in tables
# with defaults and btree, hash and BRIN indexes.  Errors are expected; a
# server crash is not: the server log must show no backend terminated by a
# signal, and the server must still answer.  Bounded by UID_SMITH_QUERIES
# (default 20,000) and 60 s.  Skipped, saying why, without sqlsmith.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use IPC::Run;

my ($smith) = grep { -x } map { "$_/sqlsmith" } split /:/, $ENV{PATH};
plan skip_all => 'sqlsmith is not installed (Debian package sqlsmith)' unless $smith;
my $queries = $ENV{UID_SMITH_QUERIES} // 20000;

my $node = uid_node('sqlsmith', conf => [ 'max_connections = 20' ]);
$node->start;
$node->safe_psql('postgres', q{
	CREATE ROLE smith LOGIN;
	CREATE DATABASE smith OWNER smith;
	ALTER DATABASE smith SET statement_timeout = '2s';
});
$node->safe_psql('smith', q{
	CREATE EXTENSION uniqueid;
	SET ROLE smith;
	CREATE TABLE ids (
		id  shardid   PRIMARY KEY DEFAULT next_id(),
		sf  snowflake NOT NULL DEFAULT next_snowflake(),
		sy  sonyflake NOT NULL DEFAULT next_sonyflake(),
		si  shortid   NOT NULL DEFAULT next_shortid(),
		sp  spreadid  NOT NULL DEFAULT next_spreadid(),
		sn  sno       NOT NULL DEFAULT next_sno(),
		oi  objectid  NOT NULL DEFAULT next_objectid(),
		u7  uuid      NOT NULL DEFAULT next_uuid7(),
		code text,
		made timestamptz DEFAULT clock_timestamp());
	CREATE INDEX ON ids USING hash (sf);
	CREATE INDEX ON ids USING brin (sn);
	CREATE INDEX ON ids (oi);
	CREATE INDEX ON ids USING hash (si);
	CREATE INDEX ON ids USING brin (id);
	INSERT INTO ids (code) SELECT id_encode(n) FROM generate_series(1, 500) n;
	CREATE TABLE legacy (id bigint PRIMARY KEY DEFAULT next_id(3), s sno UNIQUE DEFAULT next_sno(7));
	INSERT INTO legacy DEFAULT VALUES;
	ANALYZE;
});

# sqlsmith ends when a generated query ends its own session (it may: the
# role can terminate its own backends), so it runs again until the queries
# or the 60 s are used up
my ($ran, $runs, $last_err) = (0, 0, '');
my $deadline = time + 60;
while ($ran < $queries && time < $deadline - 2)
{
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start([ $smith, '--target=' . $node->connstr('smith') . ' user=smith',
			'--exclude-catalog', '--max-queries=' . ($queries - $ran), '--seed=' . ($$ + $runs), '--verbose' ],
		'<', \undef, '>', \$out, '2>', \$err, IPC::Run::timeout($deadline - time));
	$h->kill_kill unless eval { $h->finish; 1 };
	# (sqlsmith prints "queries: N" as it goes; the last is its total)
	my ($n) = ($err =~ /.*queries: (\d+)/s);
	$ran += $n // 0;
	$runs++;
	$last_err = $err;
	last unless $n;
}
note("sqlsmith: $ran queries in $runs runs");
ok($ran > 0, "sqlsmith ran $ran generated queries against every type")
  or diag(substr($last_err, 0, 2000));

my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile);
my @crashes = $log =~ /^.*(?:terminated by signal|was terminated by exception|server process .* exited with exit code [^01]).*$/mg;
is(scalar(@crashes), 0, 'no backend crashed') or diag(join "\n", @crashes[0 .. ($#crashes < 4 ? $#crashes : 4)]);
is($node->safe_psql('smith', 'SELECT count(*) >= 500 FROM ids'), 't', 'the server still answers, the rows are there');

done_testing();
