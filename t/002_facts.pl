# The version, written once: uniqueid.control's default_version (X.Y) is
# the source, and every other place that names the version follows it.
#
#   - the Makefile reads it from uniqueid.control (`make -n dist` names
#     uniqueid-X.Y.zip);
#   - META.json: version and provides X.Y.0, meta-spec 1.0.0 (the spec's own
#     version), release_status stable once X.Y is released and testing
#     while it is in progress, a description that names every family of README.md's table
#     (as debian/control.in's does);
#   - debian/changelog's top entry is X.Y-N;
#   - a release is a version whose script is frozen: sql/uniqueid--1.0.sql
#     for 1.0, sql/uniqueid--P--X.Y.sql after it.  CHANGELOG.md has a section
#     for every version of the chain of sql/, newest (X.Y) first; every
#     section but the first is a release and dated; the first is X.Y, dated
#     once released or "(unreleased)" while in progress, and debian/changelog's
#     top entry is UNRELEASED exactly while it is in progress.  Every
#     release from debian/changelog's first on has an entry there, of a real
#     distribution, dated as CHANGELOG.md dates it.  The released scripts'
#     sha256 are in test/released-scripts.sha256, and they are what it says;
#   - README.md, DEVELOPER.md, doc/ and bench/README.md name the current
#     release in every file name and command that names a release: the
#     .deb postgresql-NN-uniqueid_X.Y-N_ARCH.deb, the PGXN zip
#     uniqueid-X.Y.zip, the orig tarball uniqueid_X.Y.orig.tar.*, and
#     ALTER EXTENSION uniqueid UPDATE TO 'X.Y'.  Nothing else is checked:
#     a version in prose ("from 1.2 on", "(1.4)", "1.7 added"), or an older
#     version named on purpose (CREATE EXTENSION uniqueid VERSION '1.0'), is
#     history;
#   - DEVELOPER.md's release checklist names every file this test reads;
#   - README.md reads in the order users do (installing, configuring, a
#     quick start, the families, ..., development last), and its
#     Development section holds the two set-up commands, which exist.
#
# Reads files only: no server.
use strict;
use warnings FATAL => 'all';
use FindBin;
use JSON::PP;
use Digest::SHA;
use Test::More;

my $top = "$FindBin::RealBin/..";

# slurp(FILE): the file's text, FILE relative to the tree
sub slurp
{
	my ($file) = @_;
	open my $fh, '<', "$top/$file" or die "cannot read $file: $!";
	local $/;
	return scalar <$fh>;
}

# vcmp(A, B): compares two dotted versions numerically
sub vcmp
{
	my @a = split /\./, $_[0];
	my @b = split /\./, $_[1];
	while (@a || @b)
	{
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}

# every file this test reads for the version: DEVELOPER.md's release
# checklist must name each
my @release_files = qw(uniqueid.control Makefile META.json debian/changelog CHANGELOG.md
  README.md test/released-scripts.sha256);

# uniqueid.control: the one source
my ($ver) = slurp('uniqueid.control') =~ /^default_version\s*=\s*'(\d+\.\d+)'\s*$/m;
ok(defined $ver, "uniqueid.control's default_version is X.Y (" . ($ver // 'none') . ')')
  or BAIL_OUT('no version to compare with');

# Makefile: no version of its own
my $makefile = slurp('Makefile');
my ($extversion) = $makefile =~ /^EXTVERSION\s*[:?]?=\s*(.*)$/m;
ok(defined $extversion && $extversion =~ /uniqueid\.control|\$\(EXTENSION\)\.control/
	  && $extversion !~ /^\s*\d/,
	'the Makefile reads EXTVERSION from uniqueid.control')
  or diag('EXTVERSION = ' . ($extversion // '(none)'));
SKIP:
{
	my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
	skip("no $pg_config to include PGXS with", 1)
	  unless system("$pg_config --pgxs >/dev/null 2>&1") == 0;
	my $dist = `cd '$top' && make -s -n dist PG_CONFIG='$pg_config' 2>&1`;
	like($dist, qr/-o uniqueid-\Q$ver\E\.zip /, "make dist makes uniqueid-$ver.zip")
	  or diag($dist);
}

# META.json
my $meta = decode_json(slurp('META.json'));
is($meta->{version}, "$ver.0", "META.json's version is $ver.0");
is($meta->{provides}{uniqueid}{version}, "$ver.0", "META.json's provides.uniqueid.version is $ver.0");
is($meta->{'meta-spec'}{version}, '1.0.0', "META.json's meta-spec version is the spec's, 1.0.0");
ok(-f "$top/$meta->{provides}{uniqueid}{file}", "META.json's provides file $meta->{provides}{uniqueid}{file} exists");

# the families, from README.md's table: name, and the other name it goes by
my @families;
for (split /\n/, slurp('README.md'))
{
	push @families, [ $1, $2 ] if /^\| \[`(\w+)`\]\([^)]*\)(?: \((\w+)\))?/;
}
cmp_ok(scalar @families, '>=', 12, 'README.md has the family table (' . scalar(@families) . ' rows)');
my ($control_desc) = slurp('debian/control.in') =~ /^Description: (.*?)^ \.$/ms;
for my $where ([ "META.json's description", $meta->{description} ],
	[ "debian/control.in's Description", $control_desc // '' ])
{
	my @missing = map { $_->[0] }
	  grep { my $f = $_; !grep { defined && $where->[1] =~ /\b\Q$_\E\b/i } @$f } @families;
	is("@missing", '', "$where->[0] names every family of README.md's table");
}

# the chain of sql/: 1.0's install script and the upgrade scripts
my %script = ('1.0' => 'sql/uniqueid--1.0.sql');
for (glob("$top/sql/uniqueid--*--*.sql"))
{
	my ($from, $to) = m{/uniqueid--([\d.]+)--([\d.]+)\.sql$} or next;
	$script{$to} = "sql/uniqueid--$from--$to.sql";
}
my @chain = sort { vcmp($a, $b) } keys %script;
is($chain[-1], $ver, "the upgrade scripts end at $ver");

# CHANGELOG.md's sections
my @sections;
for (split /\n/, slurp('CHANGELOG.md'))
{
	push @sections, [ $1, $2 ] if /^## (\S+)(?: \((.*)\))?\s*$/;
}
is(join(' ', map { $_->[0] } @sections), join(' ', reverse @chain),
	'CHANGELOG.md has a section for every version of sql/, newest first');
is($sections[0][0], $ver, "CHANGELOG.md's first section is $ver");
my $in_progress = ($sections[0][1] // '') eq 'unreleased';
my %released;
for my $i (0 .. $#sections)
{
	my ($v, $note) = @{ $sections[$i] };
	next if $i == 0 && $in_progress;
	if (ok(defined $note && $note =~ /^\d{4}-\d\d-\d\d$/,
			"CHANGELOG.md: $v is a release, dated (" . ($note // 'no date') . ')'))
	{
		$released{$v} = $note;
	}
}
diag("$ver is in progress (CHANGELOG.md: unreleased)") if $in_progress;
# PGXN's release_status follows: stable for a release, testing while in progress
is($meta->{release_status}, $in_progress ? 'testing' : 'stable',
	"META.json's release_status is " . ($in_progress ? "testing: $ver is in progress" : "stable: $ver is released"));

# the released scripts are frozen: each is what test/released-scripts.sha256 says
my %frozen;
ok(-f "$top/test/released-scripts.sha256", 'test/released-scripts.sha256 is there');
for (split /\n/, -f "$top/test/released-scripts.sha256" ? slurp('test/released-scripts.sha256') : '')
{
	next if /^\s*(#|$)/;
	my ($sum, $file) = /^([0-9a-f]{64})  (\S+)$/ or do { fail("test/released-scripts.sha256: bad line: $_"); next; };
	$frozen{$file} = $sum;
}
is(join(' ', sort keys %frozen), join(' ', sort map { $script{$_} } grep { $released{$_} } @chain),
	'test/released-scripts.sha256 lists the script of every release, and only those');
for my $file (sort keys %frozen)
{
	next unless -f "$top/$file";
	is(Digest::SHA->new(256)->addfile("$top/$file")->hexdigest, $frozen{$file},
		"$file is frozen (its sha256 is the one recorded at its release)");
}

# the SQL edition's pg_tle installer is what make pgtle makes of
# portable/uniqueid.sql and portable/pgtle/ (and that succeeds: the edition
# is the version portable/pgtle/versions names last)
{
	my $made = `perl '$top/tools/pgtle_installer.pl' '$top/portable' 2>&1`;
	is($?, 0, 'make pgtle makes the pg_tle installer') or diag $made;
	ok($made eq slurp('portable/uniqueid-pgtle.sql'),
		'portable/uniqueid-pgtle.sql is what make pgtle makes (never edited by hand: run make pgtle)');
	my ($edition) = slurp('portable/pgtle/versions') =~ /^(\d+(?:\.\d+)+) [0-9a-f]{64}\s*\z/m;
	ok(defined $edition && vcmp($edition, $ver) <= 0,
		"the SQL edition's version (" . ($edition // 'none') . ") is a uniqueid release's, at most $ver");
}

# debian/changelog
my @deb;
my $entry;
my %mon = (Jan => 1, Feb => 2, Mar => 3, Apr => 4, May => 5, Jun => 6,
	Jul => 7, Aug => 8, Sep => 9, Oct => 10, Nov => 11, Dec => 12);
for (split /\n/, slurp('debian/changelog'))
{
	if (/^uniqueid \(([^)]+)\) ([^;]+);/)
	{
		$entry = { version => $1, dist => $2 };
		push @deb, $entry;
	}
	elsif (/^ -- .*>  \w{3}, (\d\d?) (\w{3}) (\d{4}) /)
	{
		$entry->{date} = sprintf('%04d-%02d-%02d', $3, $mon{$2}, $1);
	}
}
ok(@deb > 0, 'debian/changelog has entries');
like($deb[0]{version}, qr/^\Q$ver\E-\d+$/, "debian/changelog's top entry ($deb[0]{version}) is $ver-N");
is($deb[0]{dist}, $in_progress ? 'UNRELEASED' : 'unstable',
	"debian/changelog's top entry is " . ($in_progress ? 'UNRELEASED, as CHANGELOG.md has it' : 'released to unstable'));
my %deb_date;
for my $e (@deb)
{
	my ($up) = $e->{version} =~ /^([\d.]+)-\d+$/;
	ok(defined $up && exists $script{$up}, "debian/changelog's $e->{version} is a version of sql/");
	next unless defined $up;
	$deb_date{$up} = $e->{date};    # (the last seen is the oldest: the release)
	next if $e == $deb[0] && $in_progress;
	isnt($e->{dist}, 'UNRELEASED', "debian/changelog's $e->{version} is released");
}
my ($first_deb) = sort { vcmp($a, $b) } keys %deb_date;
for my $v (grep { vcmp($_, $first_deb) >= 0 && $released{$_} } @chain)
{
	is($deb_date{$v} // 'no entry', $released{$v},
		"release $v: debian/changelog dates it as CHANGELOG.md does");
}

# the documents: every file name and command that names a release names this one
my @docs = ('README.md', 'DEVELOPER.md', 'bench/README.md', map { s{^\Q$top\E/}{}r } sort glob("$top/doc/*.md"));
my %found;
for my $doc (@docs)
{
	my $text = slurp($doc);
	my @named;
	push @named, [ 'package', $1, $2 ] while $text =~ /\b(postgresql-(?:\d+|NN)-uniqueid_([^_\s`]+)_[^\s`]*)/g;
	push @named, [ 'zip', $1, $2 ] while $text =~ /\b(uniqueid-(\d+(?:\.\d+)+)\.zip)\b/g;
	push @named, [ 'orig', $1, $2 ] while $text =~ /\b(uniqueid_(\d+(?:\.\d+)+)\.orig\.tar)/g;
	push @named, [ 'update', $1, $2 ] while $text =~ /(UPDATE\s+TO\s+'(\d+(?:\.\d+)*)')/g;
	for (@named)
	{
		my ($kind, $what, $v) = @$_;
		$found{"$doc $kind"}++;
		is($v, $kind eq 'package' ? $deb[0]{version} : $ver, "$doc: $what names the current release");
	}
}
ok($found{'README.md package'} && $found{'README.md zip'},
	"README.md names the release's package and zip (so the check above has something to check)");

# README.md: in the order users read it, and its two set-up commands
my $readme = slurp('README.md');
my @headings = $readme =~ /^## (.*)$/mg;
is(join(' | ', @headings[0 .. 3], $headings[-1]),
	'Installing | Configuring a server | Quick start | The families | Development',
	'README.md: installing, configuring a server, a quick start, the families, ..., development last');
my ($dev) = $readme =~ /^## Development\n(.*)\z/ms;
my ($setup) = ($dev // '') =~ /^```sh\n(.*?)^```/ms;
my @commands = map { s/\s+#.*//r } grep { /\S/ } split /\n/, $setup // '';
is(join(' ; ', @commands), 'bash demo.sh ; bash test/run.sh --matrix',
	"README.md's Development has the two set-up commands: the demo and the whole suite");
ok(-f "$top/demo.sh" && `bash '$top/test/run.sh' --help` =~ /--matrix/,
	'both are there: demo.sh, and test/run.sh --matrix');
like($dev // '', qr/\(DEVELOPER\.md\)/, "README.md's Development links DEVELOPER.md");

# the release checklist
my ($checklist) = slurp('DEVELOPER.md') =~ /^## Releasing\n(.*?)(?=^## |\z)/ms;
ok(defined $checklist, 'DEVELOPER.md has a release checklist (## Releasing)');
for my $file (@release_files)
{
	like($checklist // '', qr/\Q$file\E/, "DEVELOPER.md's release checklist names $file");
}

done_testing();
