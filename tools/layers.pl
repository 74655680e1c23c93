#!/usr/bin/env perl
# tools/layers.pl - holds src/ to its map of layers (src/LAYERS), as TAP.
#
# usage: perl tools/layers.pl [--pg-config PG_CONFIG] [--map FILE] [SRCDIR]
#
# SRCDIR is src/ beside this script unless given; FILE is SRCDIR/LAYERS.
# The map names the layers from the bottom, each with its files; a file may
# depend on files of its own layer and of the layers below it, and the
# parts (X.c with X.h) may not depend on each other in a circle, within a
# layer or across.  What a file depends on, found with the server's own
# compiler and flags (pg_config), without LTO and optimization (-O0: every
# call the source makes stays a reference, at a third less CPU than -O2):
#
#   - the headers of src/ it includes (gcc -MM: directly or not);
#   - for a .c, the objects of src/ that define what its object refers to
#     (nm; inline functions of a header it includes count here too);
#   - for a .h, the objects of src/ its inline functions refer to (each
#     compiled on its own, its address taken, so that it is emitted), less
#     what the headers it includes refer to.
#
# And that the Makefile's OBJS are the .c files of src/; and what each
# part declares: every extern of X.h is defined in X.c (so no other header
# declares it), and every global symbol of X.o is declared in X.h, but for
# SQL-callable functions (PG_FUNCTION_INFO_V1 declares each beside its
# definition) and the module's magic block and _PG_init (which
# PostgreSQL's fmgr.h declares; compat.h for 15).
#
# Prints one TAP test per rule, what breaks it as diagnostics, then the plan;
# exits 1 if any failed.  t/002_layers.pl runs it in the suite.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Temp qw(tempdir);
use Getopt::Long;

my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
my $map_file;
GetOptions('pg-config=s' => \$pg_config, 'map=s' => \$map_file)
  or die "usage: perl tools/layers.pl [--pg-config PG_CONFIG] [--map FILE] [SRCDIR]\n";
my $src = abs_path(shift // dirname(abs_path($0)) . '/../src')
  or die "no source directory\n";
$map_file //= "$src/LAYERS";

my $tests = 0;
my $failed = 0;

# check(OK, NAME, DIAGNOSTICS...): one TAP test
sub check
{
	my ($ok, $name, @diag) = @_;
	$tests++;
	$failed++ unless $ok;
	print(($ok ? 'ok' : 'not ok') . " $tests - $name\n");
	print "#   $_\n" for ($ok ? () : @diag);
	return $ok;
}

# ---- the map ----

my (@layers, %layer_of);    # layer names bottom up; file -> index
{
	open(my $fh, '<', $map_file) or die "cannot read $map_file: $!\n";
	while (my $line = <$fh>)
	{
		$line =~ s/#.*//;
		next unless $line =~ /\S/;
		# "NAME: files" starts a layer; an indented line goes on with its files
		if ($line =~ s/^(\w[\w-]*):\s*//)
		{
			push @layers, $1;
		}
		elsif ($line !~ /^\s/ || !@layers)
		{
			die "$map_file: a line neither starts a layer (NAME:) nor goes on with one: $line";
		}
		for my $f (split ' ', $line)
		{
			die "$map_file: $f is in two layers\n" if exists $layer_of{$f};
			$layer_of{$f} = $#layers;
		}
	}
}
sub where { my $f = shift; return "$f ($layers[$layer_of{$f}])"; }

my @files = sort map { basename($_) } glob("$src/*.c"), glob("$src/*.h");
my %in_src = map { $_ => 1 } @files;
check(!(grep { !exists $layer_of{$_} } @files), "every file of src/ is in the map of layers",
	map { "$_ is in no layer of $map_file" } grep { !exists $layer_of{$_} } @files);
check(!(grep { !$in_src{$_} } keys %layer_of), "every file of the map is in src/",
	map { "$_ is in $map_file but not in src/" } sort grep { !$in_src{$_} } keys %layer_of);
@files = grep { exists $layer_of{$_} } @files;

# the part of a file: X for X.c and X.h
sub part { my $f = shift; $f =~ s/\.[ch]$//; return $f; }
my @cfiles = grep { /\.c$/ } @files;
my @hfiles = grep { /\.h$/ } @files;
check(!(grep { !$in_src{ part($_) . '.h' } } @cfiles), "every .c has its own header",
	map { "$_ has no " . part($_) . '.h' } grep { !$in_src{ part($_) . '.h' } } @cfiles);
# the Makefile builds every .c, and only those
if (open(my $mk, '<', "$src/../Makefile"))
{
	my ($objs) = map { /^OBJS\s*=\s*(.*)$/ ? $1 : () } <$mk>;
	my %obj = map { s{^src/}{}r =~ s/\.o$/.c/r => 1 } split ' ', $objs // '';
	my @missing = grep { !$obj{$_} } @cfiles;
	my @extra = grep { !$in_src{$_} } sort keys %obj;
	check(!@missing && !@extra, "the Makefile's OBJS are the .c files of src/",
		(map { "$_ is not in OBJS" } @missing), (map { "OBJS names $_, which is not in src/" } @extra));
}
my @split = grep { $in_src{ part($_) . '.h' } && exists $layer_of{ part($_) . '.h' }
	  && $layer_of{$_} != $layer_of{ part($_) . '.h' } } @cfiles;
check(!@split, "a .c and its header are in one layer",
	map { where($_) . ' and ' . where(part($_) . '.h') } @split);

# ---- the compiler, as the server builds extensions, without LTO ----

sub pgc
{
	my $v = `$pg_config --$_[0]`;
	die "$pg_config --$_[0] failed\n" if $?;
	chomp $v;
	return $v;
}
my $cc = pgc('cc');
my $cppflags = join(' ', "-I$src", '-I' . pgc('includedir'), '-I' . pgc('includedir-server'),
	'-I' . pgc('pkgincludedir') . '/internal', pgc('cppflags'));
my $cflags = join(' ', pgc('cflags'), pgc('cflags_sl'), '-fno-lto', '-O0');
my $tmp = tempdir(CLEANUP => 1);

# run(COMMAND): its stdout; undef (and the error in $run_error) if it fails
my $run_error;
sub run
{
	my $cmd = shift;
	my $out = `$cmd 2>$tmp/err`;
	$run_error = $? ? do { local (@ARGV, $/) = ("$tmp/err"); <> } : undef;
	return $? ? undef : $out;
}

# nm_syms(OBJECT): (defined global symbols, undefined symbols)
sub nm_syms
{
	my $o = shift;
	my (%def, %undef);
	for (split /\n/, run("nm $o") // '')
	{
		if (/^\s+U (\S+)$/) { $undef{$1} = 1 }
		elsif (/^\S+ ([A-Z]) (\S+)$/) { $def{$2} = 1 }
	}
	return (\%def, \%undef);
}

my @broken;    # files that do not compile, with the error's start
my %dep;       # file -> { file it depends on -> how ("include", or the symbols) }
sub depend
{
	my ($from, $to, $how) = @_;
	return if $from eq $to;
	$dep{$from}{$to} = $dep{$from}{$to} ? "$dep{$from}{$to} $how" : $how;
}

# (a) includes: the headers of src/ each file includes, directly or not
my %includes;
for my $f (@files)
{
	my $out = run("$cc $cppflags -MM -x c $src/$f");
	if (!defined $out)
	{
		push @broken, "$f: " . (split /\n/, $run_error)[0];
		next;
	}
	$out =~ s/\\\n/ /g;
	for my $h ($out =~ m{(\S+\.h)\b}g)
	{
		my $b = basename($h);
		next unless dirname(abs_path($h) // $h) eq $src && exists $layer_of{$b} && $b ne $f;
		$includes{$f}{$b} = 1;
		depend($f, $b, 'include');
	}
}

# the objects: what each defines, what it refers to
my (%defined_by, %odef, %oundef);
for my $c (@cfiles)
{
	my $o = "$tmp/" . part($c) . '.o';
	if (!defined run("$cc $cflags $cppflags -c $src/$c -o $o"))
	{
		push @broken, "$c: " . (split /\n/, $run_error)[0];
		next;
	}
	($odef{$c}, $oundef{$c}) = nm_syms($o);
	$defined_by{$_} = $c for keys %{ $odef{$c} };
}

# a header's own text, macros expanded, and its top-level statements
sub statements
{
	my $h = shift;
	my $pp = run("$cc $cppflags -E -x c $src/$h") // return ();
	my ($text, $mine) = ('', 0);
	for (split /\n/, $pp)
	{
		if (/^# \d+ "([^"]*)"/) { $mine = (abs_path($1) // '') eq "$src/$h"; next; }
		$text .= "$_\n" if $mine;
	}
	# statements at depth 0: up to a ';', or a function's closing brace
	my (@st, $cur, $depth, $head);
	($cur, $depth) = ('', 0);
	while ($text =~ /\G("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[{};]|[^"'{};]+)/gcs)
	{
		my $t = $1;
		if ($t eq '{') { $head = $cur if $depth++ == 0; }
		elsif ($t eq '}' && --$depth == 0 && $head =~ /\)\s*$/ && $head !~ /=/)
		{
			push @st, [ $head, 1 ];
			$cur = '';
			next;
		}
		elsif ($t eq ';' && $depth == 0)
		{
			push @st, [ $cur, 0 ];
			$cur = '';
			next;
		}
		$cur .= $t if $depth == 0;
	}
	for (@st)
	{
		$_->[0] =~ s/__attribute__\s*(\((?:[^()]++|(?1))*\))//g;
		$_->[0] =~ s/\[\[[^\]]*\]\]//g;	# C23 attributes ([[noreturn]], pg_noreturn on 19)
		$_->[0] =~ s/\b(?:__extension__|_Noreturn|__inline__|__inline)\b//g;
		$_->[0] =~ s/\s+/ /g;
		$_->[0] =~ s/^ | $//g;
	}
	return @st;
}
# the name a declaration declares: a function's, or a variable's
sub declared
{
	my $d = shift;
	return $1 if $d =~ /(\w+)\s*\(/ && $d !~ /\(\s*\*/;
	return $1 if $d =~ /(\w+)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?$/;
	return undef;
}

# (b) for a header: the objects its inline functions refer to, less what
# the headers it includes refer to; and the externs it declares
my (%hundef, %externs);
for my $h (@hfiles)
{
	my (@inline, @ext);
	for (statements($h))
	{
		my ($s, $body) = @$_;
		push @inline, declared($s) if $body && $s =~ /^static\b/;
		push @ext, declared($s) if !$body && $s =~ /^extern\b/ && $s !~ /^extern "/;
	}
	$externs{$h} = [ grep { defined } @ext ];
	open(my $tu, '>', "$tmp/tu.c") or die;
	print $tu "#include \"$h\"\n";
	print $tu 'static void *const uid_layers_keep[] __attribute__((used)) = {'
	  . join(', ', map { "(void *) &$_" } grep { defined } @inline) . "};\n" if @inline;
	close $tu;
	if (!defined run("$cc $cflags -O0 -w $cppflags -c $tmp/tu.c -o $tmp/tu.o"))
	{
		push @broken, "$h (its inline functions): " . (split /\n/, $run_error)[0];
		next;
	}
	(undef, $hundef{$h}) = nm_syms("$tmp/tu.o");
}
for my $h (@hfiles)
{
	next unless $hundef{$h};
	my %inherited = map { %{ $hundef{$_} // {} } } keys %{ $includes{$h} };
	for my $sym (sort keys %{ $hundef{$h} })
	{
		depend($h, $defined_by{$sym}, $sym) if $defined_by{$sym} && !$inherited{$sym};
	}
}
for my $c (@cfiles)
{
	depend($c, $defined_by{$_}, $_) for grep { $defined_by{$_} } sort keys %{ $oundef{$c} // {} };
}
check(!@broken, "every file of src/ compiles, with the server's flags and without LTO", @broken);

# ---- the rules ----

# where(FILE) -> TO: how, for the diagnostics
sub edge
{
	my ($from, $to) = @_;
	my $how = $dep{$from}{$to};
	return where($from) . ' -> ' . where($to) . ($how eq 'include' ? ' (#include)' : ": $how");
}
my @up;
for my $f (sort keys %dep)
{
	for my $t (sort keys %{ $dep{$f} })
	{
		push @up, edge($f, $t) if $layer_of{$t} > $layer_of{$f};
	}
}
my @up_inc = grep { /\(#include\)$/ } @up;
my @up_ref = grep { !/\(#include\)$/ } @up;
check(!@up_inc, "every #include points down the layers (or within one)", @up_inc);
check(!@up_ref, "every link-time reference points down the layers (or within one)", @up_ref);

# no circle between parts: Tarjan's strongly connected components
my %pdep;
for my $f (keys %dep)
{
	for my $t (keys %{ $dep{$f} })
	{
		push @{ $pdep{ part($f) }{ part($t) } }, edge($f, $t) if part($f) ne part($t);
	}
}
my (%index, %low, %on, @stack, @circles);
my $next = 0;
sub strong
{
	my $v = shift;
	$index{$v} = $low{$v} = $next++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{ $pdep{$v} // {} })
	{
		if (!exists $index{$w}) { strong($w); $low{$v} = $low{$w} if $low{$w} < $low{$v}; }
		elsif ($on{$w} && $index{$w} < $low{$v}) { $low{$v} = $index{$w}; }
	}
	return unless $low{$v} == $index{$v};
	my @c;
	while (1) { my $w = pop @stack; $on{$w} = 0; push @c, $w; last if $w eq $v; }
	push @circles, [ sort @c ] if @c > 1;
}
strong($_) for sort map { part($_) } @files;
# for each knot of parts that depend on each other: its parts, and its
# shortest circle, edge by edge
my @circle_diag;
for my $c (@circles)
{
	my %in = map { $_ => 1 } @$c;
	my $best;
	for my $start (@$c)
	{
		# breadth first from $start back to it, within the knot
		my %from = ($start => undef);
		my @queue = ($start);
		my $found;
		while (@queue && !$found)
		{
			my $v = shift @queue;
			for my $w (sort grep { $in{$_} } keys %{ $pdep{$v} })
			{
				if ($w eq $start) { $found = $v; last; }
				next if exists $from{$w};
				$from{$w} = $v;
				push @queue, $w;
			}
		}
		next unless defined $found;
		my @path = ($found);
		unshift @path, $from{ $path[0] } while defined $from{ $path[0] };
		$best = [@path] if !$best || @path < @$best;
	}
	push @circle_diag, 'parts that depend on each other: ' . join(', ', @$c) . '; the shortest circle:';
	my @ring = (@$best, $best->[0]);
	for my $i (0 .. $#ring - 1)
	{
		my @edges = @{ $pdep{ $ring[$i] }{ $ring[ $i + 1 ] } };
		# (a reference tells more than an #include of a header that makes it)
		my @refs = grep { !/\(#include\)$/ } @edges;
		push @circle_diag, "  $_" for (@refs ? @refs : @edges);
	}
}
check(!@circles, "no part depends on itself through others", @circle_diag);

# what each part declares
my (@misplaced, @undeclared);
for my $h (@hfiles)
{
	my $c = part($h) . '.c';
	for my $sym (@{ $externs{$h} })
	{
		next if $sym eq '_PG_init';
		push @misplaced, "$h declares $sym, " . ($defined_by{$sym} ? "defined in $defined_by{$sym}" : 'defined in no object')
		  unless $odef{$c} && $odef{$c}{$sym};
	}
}
for my $c (@cfiles)
{
	my %declared = map { $_ => 1 } @{ $externs{ part($c) . '.h' } // [] };
	for my $sym (sort keys %{ $odef{$c} // {} })
	{
		next if $declared{$sym} || $sym =~ /^(pg_finfo_|Pg_magic_func$|_PG_init$)/ || $odef{$c}{"pg_finfo_$sym"};
		push @undeclared, "$c defines $sym, which " . part($c) . '.h does not declare';
	}
}
check(!@misplaced, "every extern of a header X.h is defined in X.c", @misplaced);
check(!@undeclared, "every global symbol of X.c is declared in X.h (but SQL functions)", @undeclared);

print "1..$tests\n";
exit($failed ? 1 : 0);
