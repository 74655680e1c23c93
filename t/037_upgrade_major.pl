# pg_upgrade from the previous major to this one carries the horizon: the
# old major's cluster makes IDs of every generator, with shard 5 adopted an
# hour ahead; after pg_upgrade (--copy, then --link) the new major's server,
# its clock 30 s behind, continues above every one of them.  Needs the old
# major's server with uniqueid installed beside this one: test/run.sh sets
# UID_UPGRADE_FROM (its installation directory) in 19's root, where Debian
# sid carries 18.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $from = $ENV{UID_UPGRADE_FROM} // '';
plan skip_all => 'no older major with uniqueid beside this server (test/run.sh sets UID_UPGRADE_FROM in '
  . 'PostgreSQL 19\'s root, where Debian sid carries 18)'
  unless $from ne '' && -x "$from/bin/pg_ctl";

my $tmp = PostgreSQL::Test::Utils::tempdir();
for my $mode ('--copy', '--link')
{
	my $old = uid_node("old$mode", install_path => $from);
	$old->start;
	$old->safe_psql('postgres', 'CREATE DATABASE app');
	uid_carry_setup($old, 'app', 20_000);
	my $oldver = $old->safe_psql('app', 'SHOW server_version_num');
	$old->stop;

	my $new = uid_node("new$mode");
	ok($new->pg_version > int($oldver / 10000), "from $oldver to " . $new->pg_version);
	chdir $tmp;
	command_ok(
		[
			'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $new->data_dir,
			'-b', "$from/bin", '-B', $new->config_data('--bindir'),
			'-s', $new->host, '-p', $old->port, '-P', $new->port, $mode
		],
		"pg_upgrade $mode across majors");
	uid_clock_set($new, -30);
	uid_on_clock($new, sub { $new->start });
	uid_carry_check($new, 'app', 1, "after pg_upgrade $mode across majors, the clock 30 s behind");
	$new->stop;
	uid_on_clock($new, sub { $new->start });
	uid_carry_check($new, 'app', 2, "after pg_upgrade $mode across majors and a restart");
	$new->stop;
}

done_testing();
