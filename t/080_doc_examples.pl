# Every SQL example of README.md and doc/*.md runs as written, and shows
# what PostgreSQL answers.
#
# Each document gets a fresh database (with uniqueid created, unless the
# document creates it); its ```sql blocks run in order in one session,
# statement by statement.  What a document shows after a statement
# is checked:
#   - comment lines right below it ("-- " then psql's aligned output, or
#     "-- ERROR:  ...", "-- DETAIL:  ...", "-- HINT:  ...") must be what psql
#     prints; "..." in a line stands for any text, and an output whose first
#     line is "-- for example (...):" depends on the time, so only its header
#     and its number of lines are compared;
#     (a comment below a statement without output, that shows no table, is
#     prose);
#   - "-- → VALUE" at the end of a one-line statement is its one value;
#   - a statement that shows no ERROR must not fail.
# A block fenced as ```sql NAME runs on a server of its own called NAME,
# set up with the ```ini NAME blocks of the document (postgresql.conf lines)
# and reachable from the others as the libpq service NAME (pg_service.conf).
# When those preload citus, the servers form a Citus cluster ("coordinator"
# and its workers) before the blocks run; without Citus the document is
# skipped, saying so.
# Every server runs in UTC, so that times print as the documents show them.
# A document that says "<!-- doc examples: PostgreSQL N or later -->" is
# skipped, saying so, on earlier versions; one that says "<!-- doc examples:
# the SQL edition -->" runs with portable/uniqueid.sql instead of the
# extension.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $top = "$FindBin::RealBin/..";
my @docs = ('README.md', map { s{^\Q$top\E/}{}r } sort glob("$top/doc/*.md"));
ok(@docs > 1, 'README.md and the documents of doc/ are found');
# UID_DOCS=doc/sno.md checks one document only
@docs = grep { $_ eq $ENV{UID_DOCS} } @docs if $ENV{UID_DOCS};
# each document with examples says, in one place, what they assume
for my $doc (@docs)
{
	my $text = slurp_file("$top/$doc");
	next unless $text =~ /^\s*```sql/m;
	like($text, qr/fresh server, in UTC, with `client_min_messages = warning`/,
		"$doc says what its examples assume (a fresh server, UTC, client_min_messages)");
}

# parse(FILE): the document's SQL blocks [server, [statements]] and its
# servers' settings {server => [lines]}; a statement is
# {sql, line, inline, expect => [lines]}.
sub parse
{
	my ($file) = @_;
	open my $fh, '<', "$top/$file" or die "cannot read $file: $!";
	my @lines = <$fh>;
	chomp @lines;
	my (@blocks, %conf);
	for (my $i = 0; $i < @lines; $i++)
	{
		next unless $lines[$i] =~ /^(\s*)```(sql|ini)(?:\s+([\w-]+))?\s*$/;
		my ($indent, $lang, $server) = (length $1, $2, $3);
		my @body;
		my $start = $i + 1;
		while (++$i < @lines && $lines[$i] !~ /^\s*```\s*$/)
		{
			push @body, substr($lines[$i], 0, $indent) =~ /^\s*$/
			  ? substr($lines[$i], $indent) : $lines[$i];
		}
		if ($lang eq 'ini')
		{
			push @{ $conf{$server} }, @body if defined $server;
			next;
		}
		push @blocks, [ $server // 'main', statements(\@body, $start), $start ];
	}
	return (\@blocks, \%conf);
}

# statements(LINES, FIRST_LINE_NUMBER): splits a block into statements and
# the output each shows.
sub statements
{
	my ($body, $lineno) = @_;
	my (@stmts, $cur, $last);
	my $dollar = 0;
	for my $k (0 .. $#$body)
	{
		my $l = $body->[$k];
		if (!defined $cur && $l =~ /^\s*--\s?(.*)$/)
		{
			# a comment right below a statement is its output
			push @{ $last->{expect} }, $1 if $last && !$last->{closed};
			next;
		}
		if ($l =~ /^\s*$/)
		{
			$last->{closed} = 1 if $last;
			next;
		}
		$cur //= { sql => '', line => $lineno + $k, expect => [] };
		$cur->{sql} .= "$l\n";
		$dollar ^= 1 for ($l =~ /\$\$/g);
		my $code = $l;
		$code =~ s/\s+--\s.*$// unless $dollar;
		if (!$dollar && $code =~ /;\s*$/)
		{
			$cur->{inline} = $1 if $l =~ /;\s+--\s*→\s*(.*?)\s*$/;
			push @stmts, $cur;
			$last = $cur;
			undef $cur;
		}
	}
	push @stmts, $cur if defined $cur;
	return \@stmts;
}

# matches(EXPECTED, ACTUAL): line equality where "..." stands for any text,
# runs of spaces are one, and a rule of dashes is any rule (so a document may
# show a wide result narrower than psql pads it)
sub matches
{
	my ($want, $got) = map { s/^\s+|\s+$//gr =~ s/\s+/ /gr =~ s/^[-+ ]*-[-+ ]*$/---/r } @_;
	my $re = join '.*', map { quotemeta } split /\.\.\./, $want, -1;
	return $got =~ /^$re$/;
}

my $main = uid_node('main', conf => ["timezone = 'UTC'"]);
$main->start;
my $n = 0;
for my $doc (@docs)
{
	my ($blocks, $conf) = parse($doc);
	next unless @$blocks;
	my ($needs) = slurp_file("$top/$doc") =~ /<!-- doc examples: PostgreSQL (\d+) or later -->/;
	if ($needs && $main->pg_version < $needs)
	{
	  SKIP: { skip("$doc: its examples need PostgreSQL $needs or later; this is " . $main->pg_version, 1); }
		next;
	}
	my $db = lc("doc_$doc" =~ s/\W/_/gr);

	# the document's own servers, each a libpq service of that name
	my %node = (main => $main);
	my @named = grep { $_ ne 'main' } map { $_->[0] } @$blocks;
	my %seen;
	@named = grep { !$seen{$_}++ } @named;
	# a document whose servers preload citus gets a Citus cluster of them
	# (its "coordinator" and the others as workers), where Citus is installed
	my $citus = grep { /shared_preload_libraries.*citus/ } map { @$_ } values %$conf;
	my $missing = $citus && uid_citus_missing($main);
	if ($missing)
	{
	  SKIP: { skip("$doc: $missing", 1); }
		next;
	}
	push @named, grep { !$seen{$_}++ } sort keys %$conf if $citus;
	for my $s (@named)
	{
		# (named after the document too: two documents may both have a "coordinator")
		(my $id = "${db}_$s") =~ s/\W/_/g;
		$node{$s} = uid_node($id, conf => [ "timezone = 'UTC'", @{ $conf->{$s} // [] } ]);
		$node{$s}->append_conf('postgresql.conf', "citus.local_hostname = '" . $node{$s}->host
			  . "'\ncitus.enable_statistics_collection = off")
		  if $citus;
	}
	my $services = PostgreSQL::Test::Utils::tempdir() . '/pg_service.conf';
	open my $sf, '>', $services or die;
	print $sf "[$_]\nhost=" . $node{$_}->host . "\nport=" . $node{$_}->port . "\ndbname=$db\n\n"
	  for sort keys %node;
	close $sf;
	local $ENV{PGSERVICEFILE} = $services;
	$_->start for map { $node{$_} } @named;
	my %psql;
	for my $s (sort keys %node)
	{
		$node{$s}->safe_psql('postgres', "DROP DATABASE IF EXISTS $db");
		$node{$s}->safe_psql('postgres', "CREATE DATABASE $db");
		$psql{$s} = $node{$s}->background_psql($db, on_error_stop => 0);
		$psql{$s}->query_safe("SET client_min_messages = warning");
	}
	if ($citus)
	{
		$node{$_}->safe_psql($db, 'CREATE EXTENSION citus') for @named;
		my $co = $node{coordinator} or die "$doc: a Citus document needs a server called coordinator";
		$co->safe_psql($db, "SELECT citus_set_coordinator_host('" . $co->host . "', " . $co->port . ')');
		$co->safe_psql($db, "SELECT citus_add_node('" . $node{$_}->host . "', " . $node{$_}->port . ')')
		  for grep { $_ ne 'coordinator' } @named;
	}
	# a document that does not create the extension itself reads as if it
	# were there, on the servers it uses
	my $creates = grep { $_->{sql} =~ /CREATE EXTENSION (IF NOT EXISTS )?uniqueid/i }
	  map { @{ $_->[1] } } @$blocks;
	# (a document about the SQL edition, that says "<!-- doc examples: the
	# SQL edition -->", reads as if portable/uniqueid.sql were installed
	# instead, into public)
	if (slurp_file("$top/$doc") =~ /<!-- doc examples: the SQL edition -->/)
	{
		$node{$_}->safe_psql($db, slurp_file("$top/portable/uniqueid.sql")) for keys %psql;
	}
	elsif (!$creates)
	{
		$psql{$_}->query_safe('CREATE EXTENSION uniqueid') for keys %psql;
	}

	for my $block (@$blocks)
	{
		my ($server, $stmts) = @$block;
		my $session = $psql{$server};
		for my $st (@$stmts)
		{
			my $where = "$doc:$st->{line}";
			my @want = @{ $st->{expect} };
			my @want_err = grep { /^(ERROR|DETAIL|HINT|WARNING):/ } @want;
			my @want_out = grep { !/^(ERROR|DETAIL|HINT|WARNING):/ } @want;
			my $mode = defined $st->{inline}
			  ? "\\pset format unaligned\n\\pset tuples_only on\n\\pset fieldsep ' | '\n"
			  : "\\pset format aligned\n\\pset tuples_only off\n\\pset footer off\n";
			$session->{stderr} = '';
			my $out = $session->query($mode . $st->{sql});
			my @err = map { s/^psql:[^:]*:\d+: //r } grep { /\S/ } split /\n/, $session->{stderr};
			my $first = (split /\n/, $st->{sql})[0];
			$n++;

			if (!@want_err)
			{
				is(join("\n", @err), '', "$where runs: $first");
			}
			else
			{
				my @missing = grep { my $w = $_; !grep { matches($w, $_) } @err } @want_err;
				is(join("\n", @missing), '', "$where fails as shown: $first")
				  or diag("psql printed:\n" . join("\n", @err));
			}
			if (defined $st->{inline})
			{
				ok(matches($st->{inline}, $out), "$where returns $st->{inline}")
				  or diag("got: $out");
			}
			elsif (@want_out && $out eq '' && !grep { /^-+(\+-+)*$/ } @want_out)
			{
				# no output, and the comment below does not show any: prose
			}
			elsif (@want_out)
			{
				my @got = split /\n/, $out;
				s/\s+$// for @got, @want_out;
				if ($want_out[0] =~ /^for example/)
				{
					shift @want_out;
					ok(@got == @want_out && matches($want_out[0], $got[0]),
						"$where shows the shape of its output (it depends on the time)")
					  or diag("got:\n$out");
				}
				else
				{
					my $same = @got == @want_out
					  && !grep { !matches($want_out[$_], $got[$_]) } 0 .. $#got;
					ok($same, "$where shows its output") or diag("got:\n$out");
				}
			}
		}
	}
	$_->quit for values %psql;
	$_->stop for map { $node{$_} } @named;
}
cmp_ok($n, '>', $ENV{UID_DOCS} ? 0 : 50, "every document's examples ran ($n statements)");
done_testing();
