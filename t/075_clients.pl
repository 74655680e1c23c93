# Every type through real client drivers: the programs of test/clients/
# (psycopg 3, asyncpg, node-postgres, the PostgreSQL JDBC driver, pgx and
# the postgres crate) insert rows into the table of doc/clients.md, read
# every ID back, pass it back as a parameter, in text and in binary
# (node-postgres: binary parameters only, as doc/clients.md says), and
# compare each with what the server says of the row (see each program's
# header).  Each must build without a warning, and exit 0 having printed an
# "ok" line for every type in both formats and no "not ok".  A client whose
# driver or toolchain this machine lacks is skipped, saying which and why:
# test/run.sh installs the Python, Java and Node drivers on the machine
# itself (PostgreSQL 15), and Go's pgx and the postgres crate for
# PostgreSQL 18's suite (Debian sid; UID_CLIENTS_ELSEWHERE: 19's suite runs in
# the same root and skips them), the only places it has them built.  First, the
# lines doc/clients.md tells users to add appear in their programs word for
# word.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $top     = "$FindBin::RealBin/..";
my $clients = "$top/test/clients";
my @types   = qw(shardid snowflake sonyflake shortid spreadid sno objectid uuid ulid ksuid rsxid typeid);

# doc/clients.md's code blocks: [info string, lines]
my @blocks = uid_doc_blocks("$top/doc/clients.md");

# every block fenced with a program's path appears in that program, and
# every program has one
my %documented;
for my $b (grep { $_->[0] =~ m{^\w+ test/clients/} } @blocks)
{
	my ($path) = $b->[0] =~ m{^\w+ (\S+)$};
	my $n = ++$documented{$path};
	ok(uid_contains("$top/$path", $b->[1]),
		"doc/clients.md's block $n of $path (" . scalar(@{ $b->[1] }) . ' lines) is in it word for word');
}
is_deeply(
	[ sort keys %documented ],
	[
		sort qw(test/clients/psycopg_ids.py test/clients/asyncpg_ids.py test/clients/node/ids.js
		  test/clients/java/Ids.java test/clients/go/ids.go test/clients/rust/src/main.rs
		  test/clients/rust/.cargo/config.toml)
	],
	'doc/clients.md has the lines of every client program');

# the table: doc/clients.md's
my ($table) = map { join("\n", @{ $_->[1] }) =~ /^(CREATE TABLE ids .*?\n\);)/s } grep { $_->[0] eq 'sql' } @blocks;
ok($table, 'doc/clients.md shows the table ids');

# JDBC connects over TCP (pgjdbc has no Unix sockets of its own)
my $node = uid_node('clients', conf => [ 'uniqueid.node = 5', "listen_addresses = '127.0.0.1'" ]);
$node->start;
$node->safe_psql('postgres', "CREATE EXTENSION uniqueid;\n$table");

my $tmp = PostgreSQL::Test::Utils::tempdir();
my $npm = $ENV{UID_NPM_DIR} // '/var/cache/uniqueid/npm';
my $jar = '/usr/share/java/postgresql.jar';
# (Go's and Rust's clients build in 18's suite only: 19's runs in the same
# root, and each build costs 60 to 70 CPU s; test/run.sh says so there)
my $compiled_elsewhere = $ENV{UID_CLIENTS_ELSEWHERE} || undef;

# run(TIMEOUT, DIR, COMMAND, ENV...): runs COMMAND (an array) in DIR (undef:
# here) with more environment, killed after TIMEOUT seconds; its exit status
# (-1 if it did not end in time) and its output (stdout and stderr together).
sub run
{
	my ($secs, $dir, $cmd, %env) = @_;
	local @ENV{ keys %env } = values %env;
	my $out = '';
	my $h = IPC::Run::start($cmd, '<', \undef, '>&', \$out,
		init => sub { chdir $dir or die "cannot chdir to $dir: $!" if defined $dir },
		IPC::Run::timeout($secs));
	my $ok = eval { $h->finish; 1 };
	if (!$ok)
	{
		$h->kill_kill;
		return (-1, "$out\n$@");
	}
	return ($h->result(0), $out);
}

# which of PROGRAMS is not in PATH
sub missing_program
{
	for my $p (@_)
	{
		return $p unless grep { -x "$_/$p" } split /:/, $ENV{PATH};
	}
	return undef;
}

# The clients: name; why it cannot run here (undef: it can); how it is
# built (undef: it is not), and the command that runs it.
my @clients = (
	{
		name    => 'psycopg',
		missing => sub {
			return '/usr/bin/python3 is not installed here' unless -x '/usr/bin/python3';
			return 'python3-psycopg is not installed here'
			  if (run(60, undef, [ '/usr/bin/python3', '-c', 'import psycopg' ]))[0] != 0;
			return undef;
		},
		run => [ '/usr/bin/python3', "$clients/psycopg_ids.py" ],
	},
	{
		name    => 'asyncpg',
		missing => sub {
			return '/usr/bin/python3 is not installed here' unless -x '/usr/bin/python3';
			return 'python3-asyncpg is not installed here'
			  if (run(60, undef, [ '/usr/bin/python3', '-c', 'import asyncpg' ]))[0] != 0;
			return undef;
		},
		run => [ '/usr/bin/python3', "$clients/asyncpg_ids.py" ],
	},
	{
		name    => 'node-postgres',
		missing => sub {
			my $p = missing_program('node');
			return "$p is not installed here" if $p;
			return "pg is not installed in $npm/node_modules (test/run.sh installs it there with npm)"
			  unless -f "$npm/node_modules/pg/package.json";
			return undef;
		},
		run => [ 'node', "$clients/node/ids.js" ],
		env => { NODE_PATH => "$npm/node_modules" },
	},
	{
		name    => 'JDBC',
		missing => sub {
			return "libpostgresql-jdbc-java is not installed here ($jar is missing)" unless -f $jar;
			my $p = missing_program('javac', 'java');
			return "$p is not installed here (default-jdk-headless has it)" if $p;
			return undef;
		},
		build => [ 'javac', '-cp', $jar, '-d', "$tmp/java", "$clients/java/Ids.java" ],
		run   => [ 'java', '-cp', "$jar:$tmp/java", 'Ids' ],
	},
	{
		name    => 'pgx',
		missing => sub {
			return $compiled_elsewhere if $compiled_elsewhere;
			return 'golang-go is not installed here (test/run.sh installs it for the suite of PostgreSQL 18 only, in the sid root it shares with 19)'
			  unless -x '/usr/bin/go';
			return 'golang-github-jackc-pgx-v5-dev is not installed here (test/run.sh installs it for the suite of PostgreSQL 18 only, in the sid root it shares with 19)'
			  unless -d '/usr/share/gocode/src/github.com/jackc/pgx/v5';
			return undef;
		},
		# Debian's Go packages, offline, without modules (which build
		# directories by relative path only)
		build     => [ '/usr/bin/go', 'build', '-o', "$tmp/ids-go", '.' ],
		build_dir => "$clients/go",
		build_env => {
			GO111MODULE => 'off',
			GOPATH      => '/usr/share/gocode',
			GOCACHE     => "$tmp/gocache",
			HOME        => $tmp,
			CGO_ENABLED => 0,
			GOFLAGS     => '',
			GOTOOLCHAIN => 'local',
		},
		run => ["$tmp/ids-go"],
	},
	{
		name    => 'rust-postgres',
		missing => sub {
			return $compiled_elsewhere if $compiled_elsewhere;
			return 'cargo is not installed here (test/run.sh installs it for the suite of PostgreSQL 18 only, in the sid root it shares with 19)'
			  unless -x '/usr/bin/cargo';
			return 'librust-postgres-dev is not installed here (test/run.sh installs it for the suite of PostgreSQL 18 only, in the sid root it shares with 19)'
			  unless glob('/usr/share/cargo/registry/postgres-0.*');
			return undef;
		},
		# in a copy, where the test may write, with its .cargo/config.toml
		# (Debian's crates, offline)
		copy  => 'rust',
		build => [ '/usr/bin/cargo', 'build', '--offline', '--quiet' ],
		build_env => { CARGO_HOME => "$tmp/cargo-home", HOME => $tmp },
		run       => ["$tmp/rust/target/debug/uniqueid-ids"],
	},
);

my %env = (
	PGHOST     => $node->host,
	PGPORT     => $node->port,
	PGUSER     => scalar(getpwuid($<)),
	PGDATABASE => 'postgres');
for my $c (@clients)
{
	my $name = $c->{name};
  SKIP:
	{
		my $why = $c->{missing}->();
		skip("$name: $why", $c->{build} ? 3 : 2) if $why;
		if ($c->{build})
		{
			my $dir = $c->{build_dir};
			if ($c->{copy})
			{
				$dir = "$tmp/$c->{copy}";
				system('cp', '-R', "$clients/$c->{copy}", $dir) == 0 or die "cannot copy $clients/$c->{copy}";
			}
			my $start = time;
			my ($rc, $out) = run(300, $dir, $c->{build}, %{ $c->{build_env} // {} });
			note("$name: built in " . (time - $start) . ' s');
			ok($rc == 0 && $out !~ /warning/i, "$name: the program builds without a warning") or diag($out);
			skip("$name: it did not build", 2) if $rc != 0;
		}
		my ($rc, $out) = run($PostgreSQL::Test::Utils::timeout_default, undef, $c->{run}, %env, %{ $c->{env} // {} });
		note($out);
		is($rc, 0, "$name: the program exits 0") or diag($out);
		# an "ok" line for every type and format, and nothing else
		my @ok = $out =~ /^ok \d+ - (\w+, \w+):/mg;
		my @not = $out =~ /^(not ok.*)$/mg;
		is_deeply(
			{ oks => [ sort @ok ], not_ok => \@not, plan => [ $out =~ /^(1\.\.\d+)$/mg ] },
			{
				oks    => [ sort map { my $t = $_; map { "$t, $_" } qw(text binary) } @types ],
				not_ok => [],
				plan   => ['1..24']
			},
			"$name: an ok line for every type in text and in binary, and no other");
	}
}

$node->stop;
done_testing();
