# Every relative link of the documents resolves: README.md, DEVELOPER.md,
# CHANGELOG.md, bench/README.md, model/README.md and doc/*.md.  A link
# [text](path) names a file or directory that exists (relative to the
# document), and [text](path#anchor) or [text](#anchor) a heading of that
# Markdown file, as GitHub makes a heading's anchor: lowercased, every
# character but letters, digits, spaces, hyphens and underscores dropped,
# spaces made hyphens, and -1, -2, ... after a repeated one.  Links to
# other sites (http:, https:, mailto:) are not followed: the suite has no
# network.  Code (fenced blocks and `spans`) holds no links.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Test::More;

my @docs = grep { -f } ('README.md', 'DEVELOPER.md', 'CHANGELOG.md', 'bench/README.md', 'model/README.md', glob('doc/*.md'));
ok(@docs > 5, 'the documents are found (' . scalar(@docs) . ')');

# slurp(FILE): its text
sub slurp
{
	my ($f) = @_;
	open(my $fh, '<:encoding(UTF-8)', $f) or die "cannot read $f: $!\n";
	local $/;
	return <$fh>;
}

# prose(TEXT[, SPANS]): the text without its fenced code blocks, and
# without its code spans unless SPANS, each line kept (so that line numbers
# still count)
sub prose
{
	my ($text, $spans) = @_;
	my $in_fence = 0;
	my @lines;
	for my $line (split /\n/, $text, -1)
	{
		if ($line =~ /^\s*(```|~~~)/)
		{
			$in_fence = !$in_fence;
			push @lines, '';
			next;
		}
		if ($in_fence)
		{
			push @lines, '';
			next;
		}
		unless ($spans)
		{
			$line =~ s/``.*?``//g;
			$line =~ s/`[^`]*`//g;
		}
		push @lines, $line;
	}
	return @lines;
}

# anchors(FILE): the set of its headings' anchors
my %anchor_cache;
sub anchors
{
	my ($file) = @_;
	return $anchor_cache{$file} if $anchor_cache{$file};
	my (%set, %seen);
	for my $line (prose(slurp($file), 1))
	{
		next unless $line =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
		my $a = lc $1;
		$a =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;    # a link in a heading: its text
		$a =~ s/[^\p{L}\p{N} _-]//g;
		$a =~ s/ /-/g;
		my $n = $seen{$a}++;
		$set{ $n ? "$a-$n" : $a } = 1;
	}
	return $anchor_cache{$file} = \%set;
}

my ($links, @bad) = (0);
for my $doc (@docs)
{
	my $n = 0;
	for my $line (prose(slurp($doc)))
	{
		$n++;
		while ($line =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)
		{
			my $target = $1;
			next if $target =~ /^(?:https?|mailto|ftp):/i;
			$links++;
			my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
			my $file = $path eq '' ? $doc : File::Spec->canonpath(File::Spec->catfile(dirname($doc), $path));
			# (a path through a directory named .. is resolved textually)
			1 while $file =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
			if (!-e $file)
			{
				push @bad, "$doc:$n: $target: no file $file";
				next;
			}
			next unless defined $anchor && $anchor ne '';
			if ($file !~ /\.md$/ || -d $file)
			{
				push @bad, "$doc:$n: $target: an anchor in $file, which is not a Markdown file";
				next;
			}
			push @bad, "$doc:$n: $target: $file has no heading whose anchor is #$anchor"
			  unless anchors($file)->{$anchor};
		}
	}
}
ok($links > 50, "the documents' relative links are found ($links)");
is(scalar(@bad), 0, 'every relative link and anchor resolves') or diag(join("\n", @bad));

done_testing();
