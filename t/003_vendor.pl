# The third-party sources of test/vendor.lock, and the harness that finds
# them (test/vendor.sh, test/vendor.py):
#   - every line of the lock is well formed, and every archive at hand
#     (UID_VENDOR, UID_VENDOR_SHARED or ../shared/vendor) is what the lock
#     says: its sha256, its commit id (as `git get-tar-commit-id` reads it)
#     and its content hash;
#   - uid_vendor_get takes an archive from UID_VENDOR, else from the local
#     mirror (../shared/vendor), else downloads it: here from a mirror
#     served on 127.0.0.1 and laid out as upstream is (UID_VENDOR_URL), each
#     archive recompressed as GitHub's would differ, so that it is taken by
#     its commit id and content hash, not its sha256; a second call takes
#     the download from the cache;
#   - a download whose tree differs (one file changed, same commit id), or
#     whose commit id differs, or that is not there, is refused, leaving
#     nothing in the cache, and so is nothing at all: the message names the
#     archive and how to provide it.
# Needs no network: nothing leaves 127.0.0.1.
use strict;
use warnings FATAL => 'all';
use FindBin;
use File::Copy;
use File::Path qw(make_path);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
# every wait is bounded: a harness call, the server's start, the whole file
my $limit = 180;
$SIG{ALRM} = sub { die "test did not end within 600 s\n" };
alarm(600);

plan skip_all => 'python3 is missing: test/vendor.py (downloads, their checks) needs it'
  unless system('command -v python3 >/dev/null 2>&1') == 0;

# the lock
my @lock;
for (split /\n/, slurp_file("$top/test/vendor.lock"))
{
	next if /^\s*(#|$)/;
	my @f = split ' ';
	my %e;
	@e{qw(archive name version tag commit url sha256 content)} = @f;
	ok( @f == 8
		  && $e{archive} =~ /^[\w.-]+\.tar\.gz$/
		  && $e{commit} =~ /^[0-9a-f]{40}$/
		  && $e{url} =~ m{^https://}
		  && $e{sha256} =~ /^[0-9a-f]{64}$/
		  && $e{content} =~ /^[0-9a-f]{64}$/,
		"test/vendor.lock: $f[0] has its eight fields");
	push @lock, \%e;
}
cmp_ok(scalar @lock, '>=', 5, 'test/vendor.lock lists Citus (two releases), pgEdge snowflake, pg_uuidv7 and pg_tle');

# run(ENV, COMMAND...): exit status, stdout, stderr of COMMAND with ENV set
# and the harness's own variables cleared first
sub run
{
	my ($env, @cmd) = @_;
	local %ENV = %ENV;
	delete @ENV{qw(UID_VENDOR UID_VENDOR_SHARED UID_VENDOR_CACHE UID_VENDOR_URL UID_IN_ROOT)};
	$ENV{$_} = $env->{$_} for keys %$env;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err, IPC::Run::timeout($limit));
	chomp $out;
	return ($? >> 8, $out, $err);
}
# get(ENV, ARCHIVE): uid_vendor_get ARCHIVE through the harness
sub get
{
	my ($env, $archive) = @_;
	return run($env, 'bash', '-c', '. "$2" && uid_vendor_get "$1" && echo "$UID_VENDOR_PATH"', 'get', $archive,
		"$top/test/vendor.sh");
}

# the archives at hand
my %at_hand;
my @dirs = grep { defined && -d } ($ENV{UID_VENDOR}, $ENV{UID_VENDOR_SHARED}, "$top/../shared/vendor");
my $git = system('command -v git >/dev/null 2>&1') == 0;
for my $e (@lock)
{
	my ($path) = grep { -f } map { "$_/$e->{archive}" } @dirs;
	next unless $path;
	$at_hand{ $e->{archive} } = $path;
	my ($rc, $out) = run({}, 'python3', "$top/test/vendor.py", 'id', $path);
	is($out, "sha256 $e->{sha256}\ncommit $e->{commit}\ncontent $e->{content}",
		"$e->{archive} at hand is what test/vendor.lock says: sha256, commit id, content hash");
	if ($git)
	{
		my $commit = `gzip -dc '$path' | git get-tar-commit-id`;
		chomp $commit;
		is($commit, $e->{commit}, "$e->{archive}: git get-tar-commit-id reads the commit id test/vendor.py reads");
	}
}
if (!%at_hand)
{
	# (nothing to serve from 127.0.0.1 either)
	diag('no archive of test/vendor.lock at hand: ' . join(', ', map { $_->{archive} } @lock)
		  . '; UID_VENDOR, UID_VENDOR_SHARED or ../shared/vendor would provide them');
	done_testing();
	exit 0;
}

# a mirror laid out as upstream is: each archive at its url's path,
# decompressed and compressed again (a download is another gzip stream of
# the same tar); tampered ones under /tampered/..., as an attacker would
# serve them
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $mirror = "$tmp/mirror";
my %url_path;
for my $e (@lock)
{
	my $path = $at_hand{ $e->{archive} } or next;
	($url_path{ $e->{archive} } = $e->{url}) =~ s{^https://[^/]+}{};
	my $dest = "$mirror$url_path{$e->{archive}}";
	make_path($dest =~ s{/[^/]+$}{}r);
	system("gzip -dc '$path' | gzip -1n >'$dest'") == 0 or die "cannot write $dest";
}
# the smallest archive at hand, tampered with: its tar with one file
# changed (the commit id kept), and with another commit id
my ($small) = sort { -s $at_hand{$a} <=> -s $at_hand{$b} } keys %at_hand;
my ($small_e) = grep { $_->{archive} eq $small } @lock;
my ($rc, $out, $err) = run({}, 'python3', '-c', <<'EOF', $at_hand{$small}, "$mirror/tampered-tree$url_path{$small}", "$mirror/tampered-commit$url_path{$small}");
import io, os, sys, tarfile
src, tree, commit = sys.argv[1:]
def write(dest, comment, change):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with tarfile.open(src, "r:gz") as t, tarfile.open(dest, "w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": comment}) as o:
        changed = False
        for m in t:
            data = t.extractfile(m).read() if m.isreg() else None
            if change and data is not None and not changed:
                data += b"\n/* one more line */\n"
                m.size = len(data)
                changed = True
            o.addfile(m, io.BytesIO(data) if data is not None else None)
with tarfile.open(src, "r:gz") as t:
    c = t.pax_headers["comment"]
write(tree, c, True)
write(commit, "0" * 40, False)
EOF
is($rc, 0, "$small tampered with, twice, for the mirror") or diag($err);

# the mirror on 127.0.0.1, on a port of its own; it logs every request
my ($port_out, $log) = ('', '');
my $t = IPC::Run::timer($limit);
my $server = IPC::Run::start(
	[ 'python3', '-c', <<'EOF', $mirror ],
import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
print(s.server_address[1], flush=True)
s.serve_forever()
EOF
	'>', \$port_out, '2>', \$log, $t);
$server->pump until $port_out =~ /^\d+\n/ || $t->is_expired;
my ($port) = $port_out =~ /^(\d+)/;
ok($port, "a mirror serves on 127.0.0.1" . ($port ? ":$port" : ''))
  or BAIL_OUT('no mirror');
my $base = "http://127.0.0.1:$port";
my $empty = "$tmp/empty";
make_path($empty);
# requests(): the mirror's log lines so far (waiting, bounded, for the
# line of a request that has just been answered)
sub requests
{
	my $n = () = $log =~ /\n/g;
	for (1 .. 20)
	{
		$server->pump_nb;
		last if $log =~ tr/\n// > $n;
		select(undef, undef, undef, 0.1);
	}
	return $log;
}

# downloaded from the mirror, checked by commit id and content hash
my $cache = "$tmp/cache";
for my $a (sort keys %at_hand)
{
	my ($e) = grep { $_->{archive} eq $a } @lock;
	($rc, $out, $err) = get({ UID_VENDOR_SHARED => $empty, UID_VENDOR_CACHE => $cache, UID_VENDOR_URL => $base }, $a);
	is("$rc $out", "0 $cache/$a", "$a: downloaded from the mirror into the cache")
	  or diag($err);
	like(requests(), qr{"GET \Q$url_path{$a}\E HTTP/1\.[01]" 200}, "$a: fetched at its upstream path, $url_path{$a}");
	like($err, qr/commit $e->{commit} and content $e->{content}/,
		"$a: the download is another compression (its sha256 differs), taken by its commit id and content hash");
	($rc, $out) = run({}, 'python3', "$top/test/vendor.py", 'check', "$cache/$a", $a);
	like($out, qr/^\Q$a\E: commit /, "$a: the cached download checks again");
}
# a second call takes the cache, asks the mirror nothing
{
	my $n = () = requests() =~ /GET /g;
	($rc, $out) = get({ UID_VENDOR_SHARED => $empty, UID_VENDOR_CACHE => $cache, UID_VENDOR_URL => $base }, $small);
	my $m = () = requests() =~ /GET /g;
	is("$rc $out " . ($m - $n), "0 $cache/$small 0", "$small again: from the cache, without a download");
}

# the order: UID_VENDOR, then the local mirror, then the download
{
	my $own = "$tmp/own";
	make_path($own);
	copy($at_hand{$small}, "$own/$small") or die;
	($rc, $out) = get({ UID_VENDOR => $own, UID_VENDOR_SHARED => $empty, UID_VENDOR_URL => 'off' }, $small);
	is("$rc $out", "0 $own/$small", "$small: UID_VENDOR's first");
	my $shared = "$tmp/shared";
	make_path($shared);
	copy($at_hand{$small}, "$shared/$small") or die;
	($rc, $out) = get({ UID_VENDOR => $empty, UID_VENDOR_SHARED => $shared, UID_VENDOR_URL => 'off' }, $small);
	is("$rc $out", "0 $shared/$small", "$small: the local mirror (../shared/vendor) when UID_VENDOR lacks it");
	($rc, $out) = get({ UID_VENDOR => $own, UID_VENDOR_SHARED => $shared, UID_VENDOR_URL => 'off' }, $small);
	is("$rc $out", "0 $own/$small", "$small: UID_VENDOR before the local mirror");
}

# refused: another tree under the same commit id, another commit id, none
for my $case (
	[ 'tampered-tree', qr/content hash is [0-9a-f]{64}, not \Q$small_e->{content}\E/, 'one file changed, the commit id kept' ],
	[ 'tampered-commit', qr/commit id is 0{40}, not \Q$small_e->{commit}\E/, 'another commit id' ],
	[ 'nowhere', qr/could not download \Q$base\E\/nowhere\S+ \(HTTP Error 404/, 'not on the mirror' ])
{
	my ($dir, $why, $what) = @$case;
	my $c = "$tmp/cache-$dir";
	($rc, $out, $err) = get({ UID_VENDOR_SHARED => $empty, UID_VENDOR_CACHE => $c, UID_VENDOR_URL => "$base/$dir" }, $small);
	isnt($rc, 0, "$small $what: refused");
	like($err, $why, "$small $what: the harness says why");
	like($err, qr/\Q$small\E is missing: .*provide it in a directory that UID_VENDOR names/,
		"$small $what: the harness names the archive and how to provide it");
	my @left = grep { !/\/\.lock$/ } glob("$c/* $c/.*[!.]*");
	is("@left", '', "$small $what: nothing is left in the cache");
}
($rc, $out, $err) = get({ UID_VENDOR_SHARED => $empty, UID_VENDOR_CACHE => "$tmp/cache-off", UID_VENDOR_URL => 'off' }, $small);
ok($rc != 0 && $err =~ /\Q$small\E is missing: not in \Q$empty\E, and UID_VENDOR_URL=off downloads nothing; provide it in a directory that UID_VENDOR names or in \Q$empty\E, or let the harness download it from \Q$small_e->{url}\E/,
	"$small from nowhere: refused, naming the archive, its upstream URL and the ways to provide it")
  or diag($err);

$server->kill_kill;
done_testing();
