# Node numbers leased from a registry (doc/negotiated-nodes.md) through
# network faults rather than stopped or frozen servers: the servers run in
# network namespaces of their own and talk TCP over veth pairs, which the
# test takes down while clients call next_snowflake() on every holder, and
# up again after one lease and after five.  test/netns.sh, run by root
# (test/run.sh does), makes the namespaces and links and starts the servers
# inside them; the test runs as postgres and reaches every server on its
# Unix socket, which namespaces do not separate.  Scenarios:
#
#   a. a holder cut off from the registry (the registry's end of their link
#      down: the holder's packets vanish); healed after one lease it renews
#      its number; cut for five, a third server takes the number once the
#      lease and the skew allowance have passed, and the healed holder
#      learns it, takes another and goes on
#   b. the registry cut off from all holders: every one stops, and every
#      one renews its own number when healed
#   c. two halves of an active-active group (doc/active-active.md, 16 and
#      later): A and the registry on one side, B on the other; A goes on, B
#      stops, and after the heal B resumes and both hold the same rows
#   d. a holder behind a userspace TCP proxy (forked by the test; needs no
#      namespace) that delays every byte by more than the lease, then holds
#      its connections half-open (forwards nothing, closes nothing) while a
#      second server takes the number
#
# After each: no ID any client received is repeated, on any server; for
# each node number, the IDs of its successive holders (read from a log of
# the registry's claims) occupy disjoint time ranges in the order of the
# handovers; a holder cut off made no ID once lease - skew had passed after
# the cut, and refused with the documented error; the servers not cut off
# never refused; every generator resumes.  The time from the cut to the
# first refusal and from the heal to the first ID again is measured and
# compared with the design's bounds only (none depends on the machine's
# speed; every wait is bounded).  Where test/netns.sh could not make
# namespaces (UID_NETNS unset: not root, no ip, a kernel without them), a
# to c skip, saying why.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use Fcntl qw(O_WRONLY O_NONBLOCK);
use IO::Select;
use IPC::Run;
use IO::Socket::INET;
use IO::Socket::UNIX;
use List::Util qw(min max);
use POSIX ();
use Socket qw(SOCK_STREAM);

# Short leases: renewed every second, fenced lease - skew = 2.5 s after
# the last renewal was sent, free lease + skew = 3.5 s after it.
my ($lease, $skew) = (3, 0.5);
# the worker's terms (src/registry.c): each connection and each statement
# waits at most a third of the lease (at least 1 s), a failed round is
# tried again after a tenth of it (at most 1 s), and a round is a
# connection, a check of the schema and a claim or a renewal
my $timeout = max($lease / 3, 1);
my $retry = min($lease / 10, 1);
# the bounds: a holder stops making node-bearing IDs by lease - skew after
# the last renewal it sent (so after a cut, between lease - skew - lease/3
# and lease - skew later); after a heal, a round under way ends within three
# timeouts, the next comes after the retry, and it takes at most three
# timeouts more (one more, a claim, when the number went to another server)
my $fence_by = $lease - $skew;
my $fence_from = $lease - $skew - $lease / 3;
my $resume_by = 3 * $timeout + $retry + 3 * $timeout;
my $resume_moved_by = $resume_by + $timeout;

my $netns = $ENV{UID_NETNS};
my $no_netns = uid_netns_why();
note "network namespaces: " . ($no_netns ? "none ($no_netns)" : "test/netns.sh's daemon in $netns");

# ---- test/netns.sh's daemon ----

# nf(COMMAND): one command to the daemon; its answer's words after "ok"
my @freed;
sub nf { return uid_netns_command($netns, @_); }

my $bindir;
# start_in(NODE, NS): NODE's server started inside namespace NS
sub start_in
{
	my ($node, $ns) = @_;
	$bindir //= $node->config_data('--bindir');
	print "### Starting node \"" . $node->name . "\" in network namespace $ns\n";
	nf(join ' ', 'start', $ns, $node->data_dir, $node->logfile, $bindir, $node->name);
	$node->_update_pid(1);
	return;
}

# ---- the servers ----

my $pg16 = PostgreSQL::Test::Cluster->new('probe')->pg_version >= 16;
my %node;
my %addr;    # "X Y" => the address of X on its link to Y

# link_ns(X, Y): a veth pair between namespaces X and Y
sub link_ns
{
	my ($x, $y) = @_;
	@addr{ "$x $y", "$y $x" } = nf("link $x $y");
	return;
}

# the registry: in a namespace of its own where there are namespaces
my $reg = uid_node('registry',
	conf => [ "uniqueid.shards = ''", ($no_netns ? () : "listen_addresses = '*'") ]);
$reg->append_conf('pg_hba.conf', "host all all 10.231.0.0/16 trust\n");
if ($no_netns)
{
	$reg->start;
}
else
{
	nf("ns $_") for qw(r);
	push @freed, 'r';
	start_in($reg, 'r');
}
$reg->safe_psql('postgres', 'CREATE DATABASE registry');
$reg->safe_psql('postgres', 'CREATE ROLE uid_registry LOGIN');
$reg->safe_psql('registry', 'CREATE EXTENSION uniqueid');
$reg->safe_psql('registry',
	'GRANT EXECUTE ON FUNCTION uniqueid_claim_node, uniqueid_renew_node, uniqueid_release_node TO uid_registry');
# every claim (a new token on a number): who, when, and the lease it ended
$reg->safe_psql('registry', q{
	CREATE TABLE public.claim_log (n bigserial, number int, holder text, claimed_at timestamptz,
		old_holder text, old_lease_until timestamptz, old_skew_ms int);
	CREATE FUNCTION public.log_claim() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP = 'INSERT' OR NEW.token <> OLD.token THEN
			INSERT INTO public.claim_log (number, holder, claimed_at, old_holder, old_lease_until, old_skew_ms)
			VALUES (NEW.number, NEW.holder_name, NEW.claimed_at,
			        CASE WHEN TG_OP = 'UPDATE' THEN OLD.holder_name END,
			        CASE WHEN TG_OP = 'UPDATE' THEN OLD.lease_until END,
			        CASE WHEN TG_OP = 'UPDATE' THEN OLD.skew_ms END);
		END IF;
		RETURN NULL;
	END $$;
	CREATE TRIGGER log_claim AFTER INSERT OR UPDATE ON uniqueid_catalog.uniqueid_node_claims
		FOR EACH ROW EXECUTE FUNCTION public.log_claim();
});

# holder(NAME, RANGE, CONNINFO, DB, INIT...): a server that leases a number
# of RANGE from the registry at CONNINFO, with the clients' tables in DB;
# not started
sub holder
{
	my ($name, $range, $conninfo, $db, @init) = @_;
	my $n = uid_node(
		$name, @init,
		conf => [
			"uniqueid.node_registry = '$conninfo dbname=registry user=uid_registry application_name=$name'",
			"uniqueid.node_range = '$range'", "uniqueid.node_lease = '${lease}s'",
			"uniqueid.node_skew = '${\ ($skew * 1000)}ms'", "uniqueid.shards = ''",
			($no_netns ? () : "listen_addresses = '*'")
		]);
	$n->append_conf('pg_hba.conf', "host all all 10.231.0.0/16 trust\n");
	$n->{uid_db} = $db;
	$node{$name} = $n;
	return $n;
}

# ready(NODE): its clients' tables made, once it holds a number
sub ready
{
	my ($n) = @_;
	my $db = $n->{uid_db};
	$n->safe_psql('postgres', "CREATE DATABASE $db") if $db ne 'postgres';
	$n->safe_psql($db, q{
		CREATE EXTENSION uniqueid;
		CREATE TABLE got (id snowflake PRIMARY KEY, server text NOT NULL, t0 float8 NOT NULL, t1 float8 NOT NULL);
		CREATE TABLE refused (server text, t0 float8, t1 float8, err text);
		CREATE TABLE client_stop (x int);
	});
	return;
}

# number_of(NODE): the number it holds ('' while none)
sub number_of { $_[0]->safe_psql($_[0]->{uid_db}, 'SELECT uniqueid_node()') }

sub wait_number
{
	my ($n) = @_;
	ok(uid_wait_until(30, sub { number_of($n) ne '' }), $n->name . ' leases a number');
	return number_of($n);
}

# ---- the clients ----

# Each client is one psql running a loop on its server: next_snowflake()
# every 20 ms, each call in a transaction of its own, what it returned into
# got (with the times, on the server's clock, which is the machine's, before
# and after the call), a refusal (55000) into refused; until a row appears
# in client_stop (or 5 minutes pass).
my %client;
sub clients_start
{
	for my $n (@_)
	{
		my $name = $n->name;
		my $db = $n->{uid_db};
		$n->safe_psql($db, 'TRUNCATE client_stop');
		my $sql = qq{DO \$\$
			DECLARE x snowflake; t0 float8; t1 float8; stop float8 := extract(epoch FROM clock_timestamp()) + 300;
			BEGIN
				WHILE NOT EXISTS (SELECT FROM client_stop) AND extract(epoch FROM clock_timestamp()) < stop LOOP
					t0 := extract(epoch FROM clock_timestamp());
					BEGIN
						x := next_snowflake();
						t1 := extract(epoch FROM clock_timestamp());
						INSERT INTO got VALUES (x, '$name', t0, t1);
					EXCEPTION WHEN object_not_in_prerequisite_state THEN
						INSERT INTO refused VALUES ('$name', t0, extract(epoch FROM clock_timestamp()), SQLERRM);
					END;
					COMMIT;
					PERFORM pg_sleep(0.02);
				END LOOP;
			END \$\$};
		my $r = { out => '', err => '' };
		$r->{h} = IPC::Run::start(
			[ $n->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $n->connstr($db), '-c', $sql ],
			'<', \undef, '>', \$r->{out}, '2>', \$r->{err}, IPC::Run::timeout(400));
		$client{$name} = $r;
	}
	return;
}

sub clients_stop
{
	my @names = @_;
	$node{$_}->safe_psql($node{$_}->{uid_db}, 'INSERT INTO client_stop VALUES (1)') for @names;
	my @bad;
	for my $name (@names)
	{
		my $r = delete $client{$name};
		my $ok = eval { $r->{h}->finish };
		if (!$ok)
		{
			$r->{h}->kill_kill;
			push @bad, "$name: $r->{err}$@";
		}
	}
	is(join('; ', @bad), '', 'the clients on ' . join(', ', @names) . ' end without an error but refusals');
	return;
}

# what each server's clients received, kept when the server stops:
# name => [[id, node, time, t0, t1], ...], and name => [[t0, t1, err], ...]
my (%got, %refused);
sub collect
{
	for my $name (@_)
	{
		my $n = $node{$name};
		$got{$name} = [
			map { [ split /\|/ ] } grep { $_ ne '' } split /\n/, $n->safe_psql(
				$n->{uid_db},
				"SELECT id, id_node(id), extract(epoch FROM id_time(id)), t0, t1 FROM got WHERE server = '$name' ORDER BY id")
		];
		$refused{$name} = [
			map { [ split /\|/, $_, 3 ] } grep { $_ ne '' } split /\n/, $n->safe_psql(
				$n->{uid_db}, "SELECT t0, t1, replace(err, E'\\n', ' ') FROM refused WHERE server = '$name' ORDER BY t0")
		];
	}
	return;
}

# ---- the checks ----

# unique(WHAT): no ID received twice, across every server
sub unique
{
	my ($what) = @_;
	my (%seen, @dup, $all);
	for my $name (sort keys %got)
	{
		for my $g (@{ $got{$name} })
		{
			$all++;
			push @dup, "$g->[0] ($seen{$g->[0]} and $name)" if exists $seen{ $g->[0] };
			$seen{ $g->[0] } //= $name;
		}
	}
	is(join(', ', @dup[ 0 .. min($#dup, 4) ]), '', "$what: no ID repeated among the $all the clients received, on any server");
	return;
}

# handovers(WHAT): for each node number, its holders' IDs are one run each
# in ID order, the runs in the order of the registry's claims, and their
# time ranges disjoint
sub handovers
{
	my ($what) = @_;
	my %claims;
	for (split /\n/, $reg->safe_psql('registry', 'SELECT number, holder FROM public.claim_log ORDER BY n'))
	{
		my ($num, $holder) = split /\|/;
		push @{ $claims{$num} }, $holder;
	}
	my %ids;
	for my $name (keys %got)
	{
		push @{ $ids{ $_->[1] } }, [ @$_, $name ] for @{ $got{$name} };
	}
	my (@bad, @seen);
	for my $num (sort { $a <=> $b } keys %ids)
	{
		my @runs;
		for my $g (sort { $a->[0] <=> $b->[0] } @{ $ids{$num} })
		{
			if (@runs && $runs[-1]{who} eq $g->[5])
			{
				$runs[-1]{last} = $g->[2];
				$runs[-1]{ids}++;
			}
			else
			{
				push @runs, { who => $g->[5], first => $g->[2], last => $g->[2], ids => 1 };
			}
		}
		my @holders = @{ $claims{$num} // [] };
		my $i = 0;
		for my $k (0 .. $#runs)
		{
			$i++ while $i < @holders && $holders[$i] ne $runs[$k]{who};
			push @bad, "number $num: $runs[$k]{who}'s IDs, after those of "
			  . join(', ', map { $_->{who} } @runs[ 0 .. $k - 1 ]) . ', do not follow the claims ' . join(', ', @holders)
			  if $i == @holders;
			$i++;
			push @bad, sprintf('number %d: %s made IDs up to %.3f, %s from %.3f',
				$num, $runs[ $k - 1 ]{who}, $runs[ $k - 1 ]{last}, $runs[$k]{who}, $runs[$k]{first})
			  if $k > 0 && $runs[ $k - 1 ]{last} >= $runs[$k]{first};
		}
		push @seen, "$num: " . join(' then ', map { sprintf '%s (%d IDs)', $_->{who}, $_->{ids} } @runs);
	}
	is(join('; ', @bad), '',
		"$what: for each node number, the IDs of its successive holders occupy disjoint time ranges in the order of the handovers");
	note "$what: node numbers and their holders' IDs: " . join('; ', @seen);
	return;
}

# lease_left(NODE): seconds of lease it has left now
sub lease_left
{
	return $_[0]->safe_psql($_[0]->{uid_db}, 'SELECT coalesce(extract(epoch FROM lease_left), 0) FROM uniqueid_node_status()');
}

# first(NODE, SQL): the first line of a query's answer on NODE's clients' database
sub on_db { my ($n, $sql) = @_; return $n->safe_psql($n->{uid_db}, $sql); }

# cycle(WHAT, clients => [names], fenced => [names], steady => [names],
#       cut => CODE, heal => CODE, for => SECONDS, during => CODE,
#       moved => {name => 1}): clients on every server named; the cut (a
#       fault that leaves the fenced servers without the registry); after
#       FOR seconds (DURING runs meanwhile), the heal; then the checks.
#       MOVED names the fenced servers whose number another server takes
#       meanwhile: they resume under another.  Returns name => [cut to
#       first refusal, heal to first ID again, number before, number after].
sub cycle
{
	my ($what, %o) = @_;
	my @all = (@{ $o{fenced} }, @{ $o{steady} }, @{ $o{others} // [] });
	my %before = map { $_ => number_of($node{$_}) } @{ $o{fenced} };
	my $start = time;
	clients_start(map { $node{$_} } @all);
	# (each fenced or steady server has made an ID: its clients run)
	for my $name (@{ $o{fenced} }, @{ $o{steady} })
	{
		uid_wait_until(30, sub { on_db($node{$name}, "SELECT count(*) FROM got WHERE server = '$name' AND t0 > $start") > 0 })
		  or die "the clients of $name made no ID in 30 s\n";
	}
	usleep(300_000);
	my %left = map { $_ => lease_left($node{$_}) } @{ $o{fenced} };
	my $asked = time;
	$o{cut}->();
	my $cut = time;
	note sprintf("$what: cut (asked for %.3f s before), leases left then: %s", $cut - $asked,
		join(', ', map { sprintf '%s %.2f s', $_, $left{$_} } @{ $o{fenced} }));
	$o{during}->($cut) if $o{during};
	uid_sleep_until($cut + $o{for});
	my $heal0 = time;
	$o{heal}->();
	my $heal = time;
	# every fenced server makes IDs again (and the others never stopped)
	my %resumed;
	for my $name (@{ $o{fenced} })
	{
		uid_wait_until(60, sub {
			my $t = on_db($node{$name}, "SELECT min(t1) FROM got WHERE server = '$name' AND t0 >= $heal0");
			$resumed{$name} = $t - $heal if $t ne '';
			return $t ne '';
		});
	}
	usleep(500_000);
	clients_stop(@all);
	collect(@all);
	$o{after}->() if $o{after};

	my %measured;
	for my $name (@{ $o{fenced} })
	{
		my $fence = $cut + $fence_by;
		# (a call wholly between the bound and the heal, returning an ID)
		my @late = grep { $_->[3] >= $fence && $_->[4] < $heal0 } @{ $got{$name} };
		is(scalar @late, 0,
			"$what: $name makes no ID once lease - skew ($fence_by s) has passed after the cut, until the heal")
		  or diag sprintf('first: %s at %.3f s after the cut', $late[0][0], $late[0][3] - $cut);
		my ($first) = grep { $_->[1] > $cut } @{ $refused{$name} };
		ok($first && $first->[1] < $heal0, "$what: $name refuses before the heal");
		like(
			$first ? $first->[2] : '',
			qr/^cannot generate snowflake values: the lease on node number $before{$name} from registry .* has run out$/,
			"$what: $name refuses with the documented error (the lease on its number has run out)");
		ok(defined $resumed{$name}, "$what: $name makes IDs again after the heal");
		my $after = (grep { $_->[3] >= $heal0 } @{ $got{$name} })[0];
		my $num_after = $after ? $after->[1] : '';
		if ($o{moved} && $o{moved}{$name})
		{
			isnt($num_after, $before{$name}, "$what: $name, its number $before{$name} taken meanwhile, goes on under another ($num_after)");
		}
		else
		{
			is($num_after, $before{$name}, "$what: $name goes on under its number $before{$name}");
		}
		my $bound = $o{moved} && $o{moved}{$name} ? $resume_moved_by : $resume_by;
		my $cut_fence = $first ? $first->[1] - $cut : -1;
		cmp_ok($resumed{$name} // 999, '<=', $bound, sprintf("$what: $name resumes within the design's bound, %.1f s after the heal", $bound));
		note sprintf("$what: %s: cut -> first refusal %.3f s (design: %.2f to %.2f s, %.2f s of lease left at the cut); "
			  . "heal -> first ID %.3f s (design: at most %.1f s); number %s, then %s",
			$name, $cut_fence, $fence_from, $fence_by, $left{$name}, $resumed{$name} // -1, $bound, $before{$name}, $num_after);
		$measured{$name} = [ $cut_fence, $resumed{$name}, $before{$name}, $num_after ];
	}
	for my $name (@{ $o{steady} })
	{
		my @r = grep { $_->[0] >= $cut - 1 } @{ $refused{$name} };
		is(scalar @r, 0, "$what: $name, not cut off, never refuses") or diag $r[0][2];
	}
	unique($what);
	handovers($what);
	return %measured;
}

# the figures, for the closing note
my @figures;
sub figure
{
	my ($what, %m) = @_;
	for my $name (sort keys %m)
	{
		push @figures, sprintf('%-36s %-2s cut->first refusal %6.3f s, heal->first ID %6.3f s, number %s then %s',
			$what, $name, map { $_ // -1 } @{ $m{$name} });
	}
	return;
}

# ---- a and b: holders in namespaces of their own ----

SKIP:
{
	skip "a holder or the registry cut off needs network namespaces: $no_netns", 1 if $no_netns;

	nf("ns $_") for qw(h1 h2 h3);
	push @freed, qw(h1 h2 h3);
	link_ns('r', $_) for qw(h1 h2 h3);
	my %reg_at = map { $_ => "host=$addr{\"r $_\"} port=${\ $reg->port}" } qw(h1 h2 h3);
	# h1 then h2 (numbers 1 and 2 of 1-3); h3 later, for number 1 only
	holder('h1', '1-3', $reg_at{h1}, 'postgres');
	holder('h2', '1-3', $reg_at{h2}, 'postgres');
	holder('h3', '1', $reg_at{h3}, 'postgres');
	for my $name (qw(h1 h2))
	{
		start_in($node{$name}, $name);
		ready($node{$name});
		is(wait_number($node{$name}), substr($name, 1), "$name holds number " . substr($name, 1));
	}
	like($node{h1}->safe_psql('postgres', 'SELECT registry FROM uniqueid_node_status()'),
		qr/host=10\.231\./, 'h1 leases over TCP, at the registry\'s address on their link');

	# a, healed after one lease: h1 renews its number
	figure('a: holder cut, one lease', cycle('a, one lease',
		fenced => ['h1'], steady => ['h2'],
		cut => sub { nf('down r h1') }, heal => sub { nf('up r h1') }, for => $lease));

	# a, for five leases, h3 claiming number 1 meanwhile
	start_in($node{h3}, 'h3');
	ready($node{h3});
	my $taken;
	figure('a: holder cut, five leases', cycle('a, five leases',
		fenced => ['h1'], steady => ['h2'], others => ['h3'], moved => { h1 => 1 },
		cut => sub { nf('down r h1') }, heal => sub { nf('up r h1') }, for => 5 * $lease,
		during => sub {
			my ($cut) = @_;
			ok(uid_wait_until(4 * $lease, sub { number_of($node{h3}) eq '1' }), 'a, five leases: h3 takes number 1 meanwhile');
			$taken = time - $cut;
		},
		after => sub {
			my ($ok, $claim_gap, $h1_last, $h3_first) = split /\|/, $reg->safe_psql('registry', q{
				SELECT claimed_at > old_lease_until + old_skew_ms * interval '1 ms',
				       extract(epoch FROM claimed_at - old_lease_until), old_lease_until, claimed_at
				FROM public.claim_log WHERE number = 1 AND holder = 'h3' AND old_holder = 'h1'});
			is($ok, 't', 'a, five leases: h3 claimed number 1 only after the lease of h1 and the skew allowance had passed');
			note sprintf('a, five leases: h3 held number 1 %.1f s after the cut (design: %.1f to %.1f s); '
				  . 'its claim %.3f s after the end of the lease of h1 (design: more than %.1f s)',
				$taken // -1, $lease + $skew - $lease / 3, $lease + $skew, $claim_gap // -1, $skew);
		}));

	# b: the registry cut off from all three, healed after one lease and after five
	for my $leases (1, 5)
	{
		figure("b: registry cut, $leases lease" . ($leases > 1 ? 's' : ''), cycle("b, $leases lease" . ($leases > 1 ? 's' : ''),
			fenced => [qw(h1 h2 h3)], steady => [],
			cut => sub { nf("down r $_") for qw(h1 h2 h3) },
			heal => sub { nf("up r $_") for qw(h1 h2 h3) },
			for => $leases * $lease,
			during => sub {
				uid_sleep_until($_[0] + $fence_by);
				is($node{h2}->safe_psql('postgres', 'SELECT next_uuid7() IS NOT NULL AND next_ulid() IS NOT NULL'), 't',
					"b, $leases: families without a node field go on meanwhile");
			}));
	}
	$node{$_}->stop('fast') for qw(h1 h2 h3);
}

# ---- c: two halves of an active-active group ----

SKIP:
{
	skip "two halves of an active-active group need network namespaces: $no_netns", 1 if $no_netns;
	skip 'origin = none, which active-active replication needs, came with PostgreSQL 16', 1 unless $pg16;

	nf("ns $_") for qw(a b);
	push @freed, qw(a b);
	link_ns('r', $_) for qw(a b);
	link_ns('a', 'b');
	for my $name (qw(a b))
	{
		holder($name, '4-9', "host=$addr{\"r $name\"} port=${\ $reg->port}", 'app',
			allows_streaming => 'logical');
		$node{$name}->append_conf('postgresql.conf', "max_logical_replication_workers = 4\nmax_worker_processes = 16\n");
		start_in($node{$name}, $name);
		ready($node{$name});
		wait_number($node{$name});
		$node{$name}->safe_psql('app', "CREATE PUBLICATION pub_$name FOR TABLE got");
	}
	for ([qw(a b)], [qw(b a)])
	{
		my ($s, $p) = @$_;
		$node{$s}->safe_psql('app', "CREATE SUBSCRIPTION sub_${s}_$p CONNECTION 'host=$addr{\"$p $s\"} port="
			  . $node{$p}->port . " dbname=app' PUBLICATION pub_$p WITH (origin = none, copy_data = false)");
	}
	$node{$_}->poll_query_until('app', q{SELECT count(*) >= 1 FROM pg_stat_subscription WHERE pid IS NOT NULL AND relid IS NULL})
	  or die "the subscription of $_ does not run\n" for qw(a b);

	# converged(WHAT): both hold the same rows (within 120 s), and no
	# replication error or conflict was counted or logged
	my %log_from;
	my $converged = sub {
		my ($what, $healed) = @_;
		my $digest = 'SELECT count(*) || \' \' || md5(string_agg(id::text, \',\' ORDER BY id)) FROM got';
		my $same = uid_wait_until(120, sub { on_db($node{a}, $digest) eq on_db($node{b}, $digest) });
		ok($same, "$what: a and b hold the same rows");
		note sprintf("$what: the same rows %.1f s after the heal: %s", time - $healed, on_db($node{a}, $digest));
		is(on_db($node{a}, q{SELECT count(*) FILTER (WHERE server = 'a') > 0 AND count(*) FILTER (WHERE server = 'b') > 0 FROM got}),
			't', "$what: rows of both");
		for my $s (qw(a b))
		{
			is( on_db($node{$s}, q{SELECT coalesce(sum(v::bigint), 0) FROM pg_stat_subscription_stats s,
				jsonb_each_text(to_jsonb(s)) AS e(k, v) WHERE k IN ('apply_error_count', 'sync_error_count') OR k LIKE 'confl%'}),
				0, "$what: no apply error or conflict counted on $s");
			my $file = $node{$s}->logfile;
			my $log = slurp_file($file, $log_from{$file} // 0);
			$log_from{$file} = -s $file;
			my @bad = $log =~ /^.*(?:duplicate key value|conflict detected).*$/mg;
			is(scalar @bad, 0, "$what: no duplicate key or conflict logged on $s") or diag $bad[0];
		}
	};

	for my $leases (1, 5)
	{
		my $what = "c, $leases lease" . ($leases > 1 ? 's' : '');
		my $healed;
		figure("c: group halves, $leases lease" . ($leases > 1 ? 's' : ''), cycle($what,
			fenced => ['b'], steady => ['a'],
			# a's end of the link to b, and the registry's, down: b's packets vanish
			cut => sub { nf('down a b'); nf('down r b') },
			heal => sub { nf('up a b'); nf('up r b'); $healed = time },
			for => $leases * $lease,
			after => sub { $converged->($what, $healed) }));
	}
	$node{$_}->stop('fast') for qw(a b);
}

# ---- d: a holder behind a TCP proxy ----

# proxy_start(SOCKET): a TCP proxy on 127.0.0.1 (a child process) to the
# Unix socket SOCKET; proxy_set(PROXY, MODE) switches it, once it has:
# "pass"; "delay SECONDS", every byte read from then on forwarded that much
# later, in order; "hold", nothing read, written, accepted or closed (the
# kernel still completes new connections and takes what is sent to it).
sub proxy_loop
{
	my ($l, $ctl, $ack, $target, $parent) = @_;
	my ($hold, $delay, $ctlbuf) = (0, 0, '');
	my @pairs;
	$SIG{PIPE} = 'IGNORE';
	while (getppid() == $parent)
	{
		my $sel = IO::Select->new($ctl);
		my $wait = 0.05;
		unless ($hold)
		{
			$sel->add($l);
			for my $p (@pairs)
			{
				for my $side (qw(c s))
				{
					$sel->add($p->{$side}) unless $p->{eof}{$side};
					$wait = min($wait, max(0, $p->{q}{$side}[0][0] - time)) if @{ $p->{q}{$side} };
				}
			}
		}
		for my $fh ($sel->can_read($wait))
		{
			if ($fh == $ctl)
			{
				sysread($ctl, $ctlbuf, 4096, length $ctlbuf) or return;
				while ($ctlbuf =~ s/^(.*)\n//)
				{
					my $m = $1;
					($hold, $delay) = $m eq 'hold' ? (1, $delay) : $m =~ /^delay (\S+)$/ ? (0, $1) : (0, 0);
					syswrite($ack, "ok\n");
				}
			}
			elsif ($fh == $l)
			{
				my $c = $l->accept or next;
				my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => $target);
				if ($s) { push @pairs, { c => $c, s => $s, q => { c => [], s => [] }, eof => {}, shut => {} }; }
				else    { close $c; }
			}
			else
			{
				for my $p (@pairs)
				{
					for my $side (qw(c s))
					{
						next unless $p->{$side} == $fh;
						my $to = $side eq 'c' ? 's' : 'c';
						my $n = sysread($fh, my $buf, 65536);
						my $q = $p->{q}{$to};
						push @$q, [ max(time + $delay, @$q ? $q->[-1][0] : 0), $n ? $buf : undef ];
						$p->{eof}{$side} = 1 unless $n;
					}
				}
			}
		}
		next if $hold;
		for my $p (@pairs)
		{
			for my $to (qw(c s))
			{
				my $q = $p->{q}{$to};
				while (@$q && $q->[0][0] <= time && !$p->{dead})
				{
					my (undef, $data) = @{ shift @$q };
					if (!defined $data)
					{
						shutdown($p->{$to}, 1);
						$p->{shut}{$to} = 1;
						next;
					}
					while (length $data)
					{
						my $w = syswrite($p->{$to}, $data);
						if (!$w) { $p->{dead} = 1; last; }
						substr($data, 0, $w, '');
					}
				}
			}
		}
		for my $p (grep { $_->{dead} || ($_->{shut}{c} && $_->{shut}{s}) } @pairs)
		{
			close $p->{c};
			close $p->{s};
		}
		@pairs = grep { !$_->{dead} && !($_->{shut}{c} && $_->{shut}{s}) } @pairs;
	}
	return;
}

my @proxies;
sub proxy_start
{
	my ($target) = @_;
	my $l = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp', Listen => 128, ReuseAddr => 1)
	  or die "proxy: cannot listen: $!\n";
	pipe(my $cr, my $cw) or die "pipe: $!";
	pipe(my $ar, my $aw) or die "pipe: $!";
	my $parent = $$;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		close $cw;
		close $ar;
		eval { proxy_loop($l, $cr, $aw, $target, $parent) };
		print STDERR "proxy: $@" if $@;
		# (not the test's END blocks, which would stop its servers)
		POSIX::_exit(0);
	}
	close $cr;
	close $aw;
	$cw->autoflush(1);
	my $p = { pid => $pid, port => $l->sockport, ctl => $cw, ack => $ar };
	close $l;
	push @proxies, $p;
	return $p;
}

sub proxy_set
{
	my ($p, $mode) = @_;
	syswrite($p->{ctl}, "$mode\n") or die "proxy: $!\n";
	IO::Select->new($p->{ack})->can_read(10) or die "the proxy did not take \"$mode\" within 10 s\n";
	sysread($p->{ack}, my $buf, 3);
	return;
}

my $proxy = proxy_start($reg->host . '/.s.PGSQL.' . $reg->port);
# p leases 30 (of 30-31) through the proxy; q, straight from the registry's
# socket, wants 30 only
holder('p', '30-31', 'host=127.0.0.1 port=' . $proxy->{port}, 'postgres');
holder('q', '30', 'host=' . $reg->host . ' port=' . $reg->port, 'postgres');
$node{p}->start;
ready($node{p});
is(wait_number($node{p}), 30, 'p holds number 30, through the proxy');

# more latency than the lease (each way), for a lease
figure('d: proxy, latency > lease, 1 lease', cycle('d, latency',
	fenced => ['p'], steady => [],
	cut => sub { proxy_set($proxy, 'delay ' . ($lease + 1)) }, heal => sub { proxy_set($proxy, 'pass') },
	for => $lease));

# half-open for five leases, q taking number 30 meanwhile
$node{q}->start;
ready($node{q});
my $lingering;
figure('d: proxy, half-open, 5 leases', cycle('d, half-open',
	fenced => ['p'], steady => [], others => ['q'], moved => { p => 1 },
	cut => sub { proxy_set($proxy, 'hold') }, heal => sub { proxy_set($proxy, 'pass') },
	for => 5 * $lease,
	during => sub {
		ok(uid_wait_until(4 * $lease, sub { number_of($node{q}) eq '30' }), 'd, half-open: q takes number 30 meanwhile');
		# (the registry's session of p, whose client has given up on it and
		# closed it: the registry does not know)
		uid_sleep_until($_[0] + 2 * $lease);
		$lingering = $reg->safe_psql('registry',
			q{SELECT count(*) || ' session(s), idle for ' || coalesce(round(max(extract(epoch FROM now() - state_change))::numeric, 1), 0) || ' s'
			  FROM pg_stat_activity WHERE application_name = 'p'});
	}));
note "d, half-open: the registry's sessions of p two leases into the hold (p's worker had closed them): $lingering";

# p stopped while the proxy holds: its worker tries to give the number back
# (a second at most per step), gives up, and the number stays leased until
# its lease runs out; the release it sent, held by the proxy, reaches the
# registry after the heal and gives it back then (p fenced before sending it)
proxy_set($proxy, 'hold');
my $log_from = -s $node{p}->logfile;
my $t0 = time;
$node{p}->stop('fast');
my $stopped = time - $t0;
my $stop_log = slurp_file($node{p}->logfile, $log_from);
like($stop_log, qr/did not (?:answer|accept the connection) within 1 s/,
	'd: p, stopped while the proxy holds, could not give its number back, and said so');
# (not "its lease still runs": p's last renewal was up to a third of the
# lease before the hold, and its stop may take up to a second for each of
# three steps, so the lease may have run out by now, as designed)
is( $reg->safe_psql('registry',
		q{SELECT lease_until <> '-infinity' FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 31 AND holder_name = 'p'}),
	't', 'd: its number stays p\'s meanwhile, given back to nobody');
note sprintf('d: p stopped in %.1f s while the proxy held (design: the release waits at most %d s for each of the connection, '
	  . 'the schema check and the statement)', $stopped, $timeout);
proxy_set($proxy, 'pass');
# After the heal, number 31 is free again: given back, when the held release
# reaches the registry, or else once its lease has run out.  (The design
# does not promise the release arrives: p's worker has exited, and a held
# request may be lost with its connection, e.g. by a reset; a fresh run on
# 17 saw it lost once, where the logged timeout showed it sent.)  Either way
# nobody else had it meanwhile (above), and nobody waits past the lease.
my $freed;
ok( uid_wait_until(30, sub {
		$freed = $reg->safe_psql('registry', q{SELECT CASE WHEN lease_until = '-infinity' THEN 'given back'
			WHEN lease_until < now() THEN 'lease run out' END
			FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 31});
		$freed ne '' }),
	'd: after the heal, number 31 is free again (given back, or its lease run out)');
note "d: number 31 after the heal: " . ($freed || 'still leased') . ' (p\'s stop logged: '
  . ($stop_log =~ /(did not (?:answer|accept the connection) within 1 s)/ ? $1 : 'no timeout') . ')';
$node{q}->stop('fast');

note "figures (lease $lease s, skew $skew s; design: first refusal $fence_from to $fence_by s after the cut, "
  . "IDs again at most $resume_by s after the heal, $resume_moved_by s under another number):\n" . join("\n", @figures);

END
{
	local $?;
	kill 'TERM', map { $_->{pid} } @proxies if @proxies;
	if ($netns && -p "$netns/cmd")
	{
		eval { nf("free $_") } for @freed;
	}
}

done_testing();
