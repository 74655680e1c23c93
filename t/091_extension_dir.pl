# PostgreSQL 18 and later: the extension installed under a directory of its
# own (make image-tree IMAGE_ROOT=DIR, which is make install prefix=DIR:
# DIR/lib and DIR/share/extension, the layout of a CloudNativePG extension
# image), found through extension_control_path and dynamic_library_path
# (doc/installing.md).  The install writes nothing into the server's own
# directories (the test's user may not write there: make would fail); the
# server preloads the library from DIR/lib and reads the control file from
# DIR/share/extension (both listed before the server's own, where
# test/run.sh has installed uniqueid too; a marker in DIR's control file
# tells which one the server read); CREATE EXTENSION at 1.0 and the update
# to the default version, generation, the views; pg_dump and pg_restore into
# a second server set up the same way; pg_upgrade from the previous major
# installed so too, where it is beside this one (19's root).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
my $probe = PostgreSQL::Test::Cluster->new('probe');
plan skip_all => 'extension_control_path came with PostgreSQL 18; this is ' . $probe->pg_version
  if $probe->pg_version < 18;

my $tmp = PostgreSQL::Test::Utils::tempdir();
my $img = "$tmp/image";
my $pg_config = $probe->config_data('--bindir') . '/pg_config';
my ($out, $err);
my $ok = IPC::Run::run([ 'make', '-s', '-C', $top, "PG_CONFIG=$pg_config", 'image-tree', "IMAGE_ROOT=$img" ],
	'>', \$out, '2>', \$err);
ok($ok, 'make image-tree IMAGE_ROOT=DIR, as a user who may not write to the server\'s directories') or diag("$out\n$err");
ok(-f "$img/lib/uniqueid.so" && -f "$img/share/extension/uniqueid.control" && -f "$img/share/extension/uniqueid--1.0.sql",
	'DIR/lib/uniqueid.so, DIR/share/extension/uniqueid.control and the scripts');
# (which control file the server reads: DIR's says so in its comment)
my $control = slurp_file("$img/share/extension/uniqueid.control");
$control =~ s/^comment = '/comment = '(from the image) /m or die "no comment line in $img/share/extension/uniqueid.control\n";
open my $fh, '>', "$img/share/extension/uniqueid.control" or die "cannot write the control file: $!";
print $fh $control;
close $fh;

my @conf = ("extension_control_path = '$img/share:\$system'", "dynamic_library_path = '$img/lib:\$libdir'");
my $node = uid_node('image', conf => \@conf);
$node->start;
# (the backend that answered has ended; the postmaster mapped the library)
my $maps = slurp_file('/proc/' . $node->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'}) . '/maps');
like($maps, qr{\Q$img\E/lib/uniqueid\.so}, 'the server preloaded the library from DIR/lib');
is($node->safe_psql('postgres', q{SELECT comment LIKE '(from the image) %' FROM pg_available_extensions WHERE name = 'uniqueid'}),
	't', 'the server reads the control file from DIR/share/extension');
is( $node->safe_psql('postgres', q{CREATE EXTENSION uniqueid VERSION '1.0'; ALTER EXTENSION uniqueid UPDATE;
		SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'uniqueid')
		FROM pg_extension WHERE extname = 'uniqueid'}),
	't', 'CREATE EXTENSION at 1.0, then ALTER EXTENSION UPDATE to the default version');
is( $node->safe_psql('postgres', q{CREATE TABLE t (id snowflake PRIMARY KEY DEFAULT next_snowflake(), n int);
		INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g;
		SELECT count(*), (SELECT sum(issued) >= 1000 FROM uniqueid_catalog.uniqueid_generators WHERE family = 'snowflake')
		FROM t}),
	'1000|t', 'the generators and the views work');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_proc WHERE probin IS NOT NULL AND probin <> 'uniqueid'
	AND pronamespace = 'public'::regnamespace}), '0', "the functions' library is 'uniqueid', found by dynamic_library_path");

# pg_dump, and pg_restore into a second server set up the same way
my $copy = uid_node('image_copy', conf => \@conf);
$copy->start;
$copy->safe_psql('postgres', 'CREATE DATABASE restored');
my $dump = "$tmp/db.dump";
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('postgres'), '-f', $dump ], 'pg_dump');
$copy->command_ok([ 'pg_restore', '--exit-on-error', '-d', $copy->connstr('restored'), $dump ], 'pg_restore into a server set up the same way');
is( $copy->safe_psql('restored', q{SELECT count(*) FROM t;
		SELECT (SELECT last_value FROM uniqueid_catalog.uniqueid_horizon_ms)
		       >= (SELECT max(extract(epoch FROM id_time(id)) * 1000) FROM t);
		INSERT INTO t (n) VALUES (0) RETURNING id > (SELECT max(id) FROM t WHERE n > 0)}),
	"1000\nt\nt", 'the restored database has its rows and its horizon, and generates above them');

$copy->stop;
$node->stop;

# pg_upgrade from the previous major, both installed so: where test/run.sh
# has that major beside this one (UID_UPGRADE_FROM: 18 in 19's root), the
# extension built for it in a copy of the source without this tree's build
# products (which a build out of tree would find through VPATH and take
# for its own) into an image of its own
SKIP:
{
	my $from = $ENV{UID_UPGRADE_FROM} // '';
	skip 'pg_upgrade: no older major beside this server (test/run.sh sets UID_UPGRADE_FROM in '
	  . "PostgreSQL 19's root, where Debian sid carries 18)", 5
	  unless $from ne '' && -x "$from/bin/pg_ctl";
	my $img_old = "$tmp/image_old";
	mkdir "$tmp/src_old";
	$ok = IPC::Run::run([ 'tar', '-C', $top, '--exclude=.git', '--exclude=*.o', '--exclude=*.so', '--exclude=*.bc',
			'--exclude=./tmp_check', '--exclude=./results', '-cf', '-', '.' ], '|', [ 'tar', '-C', "$tmp/src_old", '-xf', '-' ])
	  && IPC::Run::run([ 'make', '-s', '-C', "$tmp/src_old", "PG_CONFIG=$from/bin/pg_config", 'image-tree', "IMAGE_ROOT=$img_old" ],
		'>', \$out, '2>', \$err);
	ok($ok && -f "$img_old/lib/uniqueid.so", "make image-tree for the older major ($from)") or diag("$out\n$err");
	my $old = uid_node('up_old', install_path => $from,
		conf => [ "extension_control_path = '$img_old/share:\$system'", "dynamic_library_path = '$img_old/lib:\$libdir'" ]);
	$old->start;
	$maps = slurp_file('/proc/' . $old->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'}) . '/maps');
	like($maps, qr{\Q$img_old\E/lib/uniqueid\.so}, "the older major's server preloads the library from its image");
	$old->safe_psql('postgres', 'CREATE DATABASE app');
	uid_carry_setup($old, 'app', 5_000);
	$old->stop;
	my $new = uid_node('up_new', conf => \@conf);
	my $cwd = "$tmp/upgrade";
	mkdir $cwd;
	chdir $cwd;
	command_ok(
		[
			'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $new->data_dir,
			'-b', "$from/bin", '-B', $new->config_data('--bindir'),
			'-s', $new->host, '-p', $old->port, '-P', $new->port, '--copy'
		],
		"pg_upgrade from $from, each server with the extension from its image");
	$new->start;
	$maps = slurp_file('/proc/' . $new->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'}) . '/maps');
	like($maps, qr{\Q$img\E/lib/uniqueid\.so}, "the new major's server preloads it from this major's image");
	uid_carry_check($new, 'app', 1, 'after pg_upgrade between the images');
	$new->stop;
}
done_testing();
