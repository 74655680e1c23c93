# Real ORMs against a server with uniqueid.serial_normalization =
# snowflake (doc/orms.md), each with the setting in its own connection
# settings (the databases' own is off), running its own migrations,
# unchanged, and inserting through its own API (test/orms/):
#   - Django (Debian's python3-django: 3.2 on Debian 12, which declares
#     BigAutoField keys bigserial, 4.2 and 5.2 in the roots of 17, 18 and 19,
#     which declare them identities; test/orms/django): makemigrations and
#     migrate of an app whose keys are BigAutoField, beside Django's own apps
#     (AutoField keys, left alone); save() and bulk_create() in batches get
#     every key back; inspectdb reads the keys as big integers; then a key
#     switched from AutoField to BigAutoField migrates (a sequence key
#     still), and one switched from BigAutoField to AutoField fails naming
#     the setting, changing nothing;
#   - Rails' ActiveRecord (Debian's ruby-activerecord and ruby-pg;
#     test/orms/activerecord): a migration's create_table keys (bigserial),
#     run and dumped to db/schema.rb as `rails db:migrate` does; create!
#     and insert_all returning in batches get every key back; schema.rb
#     declares each key a bigint primary key defaulting to a snowflake,
#     lists none of uniqueid's own objects (in their own schema), and loads
#     into another database (`rails db:schema:load`);
#   - SQLAlchemy with Alembic (Debian's python3-sqlalchemy and
#     python3-alembic; test/orms/sqlalchemy): an Alembic migration of a
#     BigInteger key (BIGSERIAL) and an Identity() one; the ORM's flush of
#     250 objects in batches of 100 gives each object its row's key; the
#     inspector reads the keys as BIGINT, and Alembic's autogenerate, with
#     compare_server_default and no filter, finds the models and the
#     database alike;
#   - Knex (npm's knex; test/orms/knex): its migrator makes bigIncrements
#     keys; insert and batchInsert returning get every key back, as exact
#     strings, where the common setTypeParser(20, parseInt) would not;
#   - Sequelize (npm's sequelize; test/orms/sequelize): sync() makes BIGINT
#     autoIncrement keys (BIGSERIAL); create() and bulkCreate() returning,
#     in batches, give each instance its row's key as an exact string; a
#     later sync({ alter: true }) leaves the keys alone, and describeTable
#     reads them as BIGINT;
#   - TypeORM and Drizzle (npm's typeorm, drizzle-orm and drizzle-kit;
#     test/orms/typeorm, test/orms/drizzle), which compare their models
#     with the database on every run: with the keys they make, the first
#     synchronize()/push makes snowflake keys and the second, which would
#     undo them, fails naming the setting, every key as it was; with the
#     key declared as doc/orms.md says, the default is set once in the
#     ORM's words and then neither synchronize() nor migration:generate,
#     push nor generate finds anything; keys, and one past 2^53 read
#     back, are exact in each ORM's default form, and wrong as JavaScript
#     numbers (parseInt8, mode: "number", which drizzle-kit pull writes).
# Every key is a snowflake of this server's node made now, and no sequence
# feeds it.  First, the setup doc/orms.md shows for each ORM is in its
# files word for word.  An ORM whose package is missing here is skipped,
# saying why: test/run.sh installs the Python and Ruby ORMs from Debian on
# the machine and in every root, and the Node ORMs with npm in
# /var/cache/uniqueid/npm-orms on the machine only (Node is the machine's,
# so they run on its PostgreSQL 15 only).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
my $orms = "$top/test/orms";
my $npm = $ENV{UID_NPM_ORMS_DIR} // '/var/cache/uniqueid/npm-orms';
my $tmp = PostgreSQL::Test::Utils::tempdir();

# doc/orms.md's code blocks fenced with a path of test/orms/ (```python
# test/orms/django/settings.py): each is in that file word for word (with
# the same indentation added to every line), and every ORM has one
my %documented;
for my $b (grep { $_->[0] =~ m{^\w+ test/orms/\w+/\S+$} } uid_doc_blocks("$top/doc/orms.md"))
{
	my ($path, $orm) = $b->[0] =~ m{^\w+ (test/orms/(\w+)/\S+)$};
	my $n = ++$documented{$orm}{$path};
	ok(uid_contains("$top/$path", $b->[1]),
		"doc/orms.md's block $n of $path (" . scalar(@{ $b->[1] }) . ' lines) is in it word for word');
}
is_deeply([ sort keys %documented ], [qw(activerecord django drizzle knex sequelize sqlalchemy typeorm)],
	'doc/orms.md shows the setup of every ORM tested here');

my $node = uid_node('orms', conf => ['uniqueid.node = 7']);
$node->start;
sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q); }

# run(DIR, COMMAND, ENV...): COMMAND (an array) in DIR with more
# environment, killed after the framework's timeout; its exit status (-1
# if it did not end in time) and its output (stdout and stderr together).
sub run
{
	my ($dir, $cmd, %env) = @_;
	local @ENV{ keys %env } = values %env;
	my $out = '';
	my $h = IPC::Run::start($cmd, '<', \undef, '>&', \$out,
		init => sub { chdir $dir or die "cannot chdir to $dir: $!" },
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	if (!eval { $h->finish; 1 })
	{
		$h->kill_kill;
		return (-1, "$out\n$@");
	}
	return ($h->result(0), $out);
}

# db(NAME, SETTINGS...): a database with uniqueid (and SETTINGS for its
# sessions, "name = value"), where the setting stays off unless the client
# sets it; the environment of a client that connects to it
sub db
{
	my ($name, @settings) = @_;
	sql('postgres', "CREATE DATABASE $name");
	sql('postgres', "ALTER DATABASE $name SET $_") for @settings;
	sql($name, 'CREATE EXTENSION uniqueid');
	return (PGHOST => $node->host, PGPORT => $node->port, PGUSER => scalar(getpwuid($<)), PGDATABASE => $name);
}

# fresh(DB, TABLE): every key of TABLE is a snowflake of node 7 made in the
# last 10 minutes, and no sequence feeds it; "rows|t|t"
sub fresh
{
	my ($db, $table) = @_;
	return sql($db, qq{SELECT count(*), bool_and(id_node(id::snowflake) = 7
		AND id_time(id::snowflake) BETWEEN now() - interval '10 minutes' AND clock_timestamp() + interval '2 seconds'),
		pg_get_serial_sequence('$table', 'id') IS NULL FROM $table});
}

# npm_missing(ORM, MODULE): why the Node ORM of npm's MODULE cannot run
# here, or undef
sub npm_missing
{
	my ($orm, $module) = @_;
	return "$orm: node is not installed here (Node is the machine's: test/run.sh installs the npm ORMs there only)"
	  unless grep { -x "$_/node" } split /:/, $ENV{PATH};
	return "$orm: $module is not installed in $npm/node_modules (test/run.sh installs it there with npm)"
	  unless -f "$npm/node_modules/$module/package.json" && -f "$npm/node_modules/pg/package.json";
	return undef;
}

# JSON from the last line of an output that is one
sub last_json
{
	my ($out) = @_;
	my ($line) = grep { /^\{/ } reverse split /\n/, $out;
	return defined $line ? decode_json($line) : {};
}

# --- Django --------------------------------------------------------------------
SKIP:
{
	my ($rc, $out) = run($tmp, [ '/usr/bin/python3', '-c', 'import django, psycopg2' ]);
	skip("Django: python3-django (with python3-psycopg2) is not installed here ($out)", 17) if $rc != 0;
	my %env = db('django_app');
	is(sql('django_app', 'SHOW uniqueid.serial_normalization'), 'off',
		"Django: (the database's own setting is off: Django's OPTIONS set it)");
	my $dir = "$tmp/django";
	system('cp', '-R', "$orms/django", $dir) == 0 or die "cannot copy $orms/django\n";

	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'migrate' ], %env, SHOP_STAGE => 1);
	is($rc, 0, 'Django: makemigrations and migrate succeed, the migrations unchanged') or diag($out);
	like($out, qr/"id" (bigserial|bigint NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY)/,
		'Django: its SQL declares the keys bigserial or as an identity');
	note("Django declares the keys: $1") if $out =~ /"id" (bigserial|bigint NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY)/;
	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'use' ], %env);
	is($rc, 0, 'Django: save(), bulk_create() and inspectdb run') or diag($out);
	my $r = last_json($out);
	note("Django $r->{django}") if $r->{django};
	my @books = @{ $r->{books} // [] };
	is(scalar(grep { defined } @books), 250, 'Django: bulk_create() in batches of 100 got back all 250 keys');
	is_deeply([ sort @books ], [ sort @{ $r->{book_table} // [] } ], 'Django: ... the keys in the table');
	is(sql('django_app', 'SELECT id FROM shop_author'), $r->{author} // '', 'Django: save() got back the key');
	is(fresh('django_app', 'shop_author'), '1|t|t', 'Django: the author\'s key is a snowflake of this node, made now, with no sequence');
	is(fresh('django_app', 'shop_book'), '250|t|t', 'Django: and so is every book\'s');
	like($r->{inspectdb} // '', qr/class ShopAuthor\(models\.Model\):\n\s+id = models\.(BigIntegerField\(primary_key=True\)|BigAutoField\(primary_key=True\))/,
		'Django: inspectdb reads the key as a big integer');
	like($r->{inspectdb} // '', qr/author = models\.ForeignKey\(ShopAuthor/, 'Django: and the foreign key as one');
	note("Django's inspectdb: $1") if ($r->{inspectdb} // '') =~ /class ShopAuthor\(models\.Model\):\n\s+(id = [^\n]*)/;
	is(sql('django_app', q{SELECT pg_get_serial_sequence('auth_user', 'id') IS NOT NULL}), 't',
		"Django: its own apps' AutoField keys keep their sequences");

	# Tag: AutoField to BigAutoField (the DEFAULT_AUTO_FIELD switch)
	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'migrate' ], %env, SHOP_STAGE => 2);
	is($rc, 0, 'Django: a key switched from AutoField to BigAutoField migrates') or diag($out);
	is(sql('django_app', q{SELECT format_type(atttypid, atttypmod), pg_get_serial_sequence('shop_tag', 'id') IS NOT NULL
		FROM pg_attribute WHERE attrelid = 'shop_tag'::regclass AND attname = 'id'}), 'bigint|t',
		'Django: ... to a bigint key that a sequence still feeds (uniqueid_convert_key moves it)');

	# Author: BigAutoField to AutoField
	my $before = sql('django_app', q{SELECT string_agg(format('%s %s', table_name, column_name), ', ')
		FROM uniqueid_normalized_columns()});
	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'migrate' ], %env, SHOP_STAGE => 3);
	isnt($rc, 0, 'Django: a key switched from BigAutoField to AutoField does not migrate');
	like($out, qr/column "id" of table "shop_author" cannot become an integer.*uniqueid\.serial_normalization/s,
		'Django: ... with the error naming the column and the setting') or diag($out);
	is(sql('django_app', q{SELECT string_agg(format('%s %s', table_name, column_name), ', ') FROM uniqueid_normalized_columns()}),
		$before, 'Django: ... and nothing changed');
}

# --- ActiveRecord -------------------------------------------------------------
SKIP:
{
	my ($rc, $out) = run($tmp, [ '/usr/bin/ruby', '-e', 'require "active_record"; require "pg"' ]);
	skip("ActiveRecord: ruby-activerecord (with ruby-pg) is not installed here ($out)", 14) if $rc != 0;
	my %env = db('rails_app');
	my $dir = "$tmp/activerecord";
	system('cp', '-R', "$orms/activerecord", $dir) == 0 or die "cannot copy $orms/activerecord\n";

	($rc, $out) = run($dir, [ '/usr/bin/ruby', 'run.rb', 'migrate' ], %env);
	is($rc, 0, 'ActiveRecord: the migration, the schema dump, create! and insert_all run') or diag($out);
	my $r = last_json($out);
	note("ActiveRecord $r->{activerecord}") if $r->{activerecord};
	is_deeply($r->{migrations}, ['20260101000000'], 'ActiveRecord: the migration ran, unchanged');
	my @books = @{ $r->{books} // [] };
	is(scalar(@books), 300, 'ActiveRecord: insert_all returning, in batches of 100, got back all 300 keys');
	is_deeply(\@books, $r->{book_table}, 'ActiveRecord: ... the keys in the table, in order');
	is(sql('rails_app', 'SELECT id FROM authors'), $r->{author} // '', 'ActiveRecord: create! got back the key');
	is($r->{author_class}, 'Integer', 'ActiveRecord: ... as an Integer (exact in Ruby)');
	is(fresh('rails_app', 'authors') . ' ' . fresh('rails_app', 'books'), '1|t|t 300|t|t',
		'ActiveRecord: every key is a snowflake of this node, made now, with no sequence');
	my $schema = $r->{schema} // '';
	like($schema, qr/^  create_table "authors", id: :bigint, default: -> \{ "\(next_snowflake\(\)\)::bigint" \}, force: :cascade do \|t\|$/m,
		'ActiveRecord: schema.rb declares the key a bigint primary key defaulting to next_snowflake()') or diag($schema);
	like($schema, qr/^  create_table "books", id: :bigint, default: -> \{ "\(next_snowflake\(\)\)::bigint" \}, .*^    t\.bigint "author_id", null: false$/ms,
		'ActiveRecord: ... and the foreign key a bigint');
	# (Rails 7.1 to 8.0 write a create_schema for every schema there is)
	is(join(' ', grep { !/^  create_schema "uniqueid_catalog"$/ } $schema =~ /^.*uniqueid_.*$/mg), '',
		"ActiveRecord: schema.rb lists none of uniqueid's own tables, with no ignore list (they are in uniqueid_catalog)");

	# db:schema:load into another database, which has the extension, and
	# into one that has not
	my %loaded = db('rails_loaded');
	sql('postgres', 'CREATE DATABASE rails_fresh');
	for my $db ('rails_loaded', 'rails_fresh')
	{
		my %other = (%loaded, PGDATABASE => $db);
		($rc, $out) = run($dir, [ '/usr/bin/ruby', 'run.rb', 'load' ], %other);
		is($rc, 0, "ActiveRecord: schema.rb loads into another database ($db: with uniqueid " . ($db eq 'rails_loaded' ? 'already' : 'not yet') . ')')
		  or diag($out);
		is(sql($db, q{SELECT id = } . (last_json($out)->{author} // 0) . q{ FROM authors}) . ' ' . fresh($db, 'authors'),
			't 1|t|t', 'ActiveRecord: ... where a new key is a snowflake of this node, made now, with no sequence');
	}
}

# --- SQLAlchemy and Alembic ---------------------------------------------------
SKIP:
{
	my ($rc, $out) = run($tmp, [ '/usr/bin/python3', '-c', 'import sqlalchemy, alembic, psycopg2' ]);
	skip("SQLAlchemy: python3-sqlalchemy and python3-alembic (with python3-psycopg2) are not installed here ($out)", 13)
	  if $rc != 0;
	# (every statement of the database in the server's log: the batches)
	my %env = db('alembic_app', q{log_statement = 'all'});
	my $dir = "$tmp/sqlalchemy";
	system('cp', '-R', "$orms/sqlalchemy", $dir) == 0 or die "cannot copy $orms/sqlalchemy\n";

	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'sql' ], %env);
	is($rc, 0, 'SQLAlchemy: alembic upgrade head --sql runs') or diag($out);
	like($out, qr/CREATE TABLE authors \(\s*id BIGSERIAL NOT NULL,/, 'SQLAlchemy: it declares the BigInteger key BIGSERIAL');
	like($out, qr/CREATE TABLE books \(\s*id BIGINT GENERATED BY DEFAULT AS IDENTITY,/, 'SQLAlchemy: ... and the Identity() one an identity');
	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'migrate' ], %env);
	is($rc, 0, 'SQLAlchemy: alembic upgrade head succeeds, the migration unchanged') or diag($out);
	is(sql('alembic_app', 'SELECT version_num FROM alembic_version'), '0001', 'SQLAlchemy: ... to its revision');

	my $log = -s $node->logfile;
	($rc, $out) = run($dir, [ '/usr/bin/python3', 'run.py', 'use' ], %env);
	is($rc, 0, "SQLAlchemy: the ORM's inserts, the inspector and autogenerate run") or diag($out);
	my $r = last_json($out);
	note("SQLAlchemy $r->{sqlalchemy}, Alembic $r->{alembic}") if $r->{sqlalchemy};
	my $batches = () = slurp_file($node->logfile, $log) =~ /statement: INSERT INTO books /g;
	my @books = @{ $r->{books} // [] };
	is(scalar(@books) . " books in $batches statements", '250 books in 3 statements',
		"SQLAlchemy: one flush of 250 objects inserts them in batches of 100");
	is_deeply(\@books, $r->{book_table}, "SQLAlchemy: ... and gives each object its row's key");
	is(sql('alembic_app', 'SELECT id FROM authors'), $r->{author} // '', 'SQLAlchemy: a flush of one object gets back its key');
	is(fresh('alembic_app', 'authors') . ' ' . fresh('alembic_app', 'books'), '1|t|t 250|t|t',
		'SQLAlchemy: every key is a snowflake of this node, made now, with no sequence');
	is_deeply($r->{columns}, { authors => 'BIGINT', books => 'BIGINT' }, "SQLAlchemy: its inspector reads the keys as BIGINT");
	is_deeply($r->{autogenerate}, [],
		"SQLAlchemy: Alembic's autogenerate, with compare_server_default and no filter, finds the models and the database alike")
	  or diag(explain($r->{autogenerate}));
	# (Alembic 1.18 asserts that a column declared Identity() is one in the
	# database; 1.8 and 1.13 compare nothing of it)
	is(join('; ', grep { !/^AssertionError\b/ } @{ $r->{autogenerate_identity} // ['none'] }), '',
		"SQLAlchemy: with books' key declared Identity(), autogenerate writes nothing (or Alembic 1.18 stops with an AssertionError)");
}

# --- Knex --------------------------------------------------------------------------
SKIP:
{
	my $missing = npm_missing('Knex', 'knex');
	skip($missing, 9) if $missing;
	my %env = db('knex_app');
	my ($rc, $out) = run("$orms/knex", [ 'node', 'run.js' ], %env, NODE_PATH => "$npm/node_modules");
	is($rc, 0, "Knex: its migrator and inserts run") or diag($out);
	my $r = last_json($out);
	is_deeply($r->{migrations}, ['20260101000000_shop.js'], 'Knex: the migration ran, unchanged');
	my @books = @{ $r->{books} // [] };
	is(scalar(@books), 300, 'Knex: batchInsert in batches of 100 got back all 300 keys');
	is_deeply(\@books, $r->{book_table}, 'Knex: ... as strings equal to the keys in the table, in order');
	is(sql('knex_app', 'SELECT id FROM authors'), $r->{author} // '', 'Knex: insert returning got back the key');
	is(fresh('knex_app', 'authors') . ' ' . fresh('knex_app', 'books'), '1|t|t 300|t|t',
		'Knex: every key is a snowflake of this node, made now, with no sequence');
	# with setTypeParser(20, parseInt), a key comes back as a number that
	# prints (and is sent back) as another key, and most are another number
	# altogether (a double keeps 53 bits)
	my @parsed = @{ $r->{parse_int} // [] };
	my @value = @{ $r->{parse_int_value} // [] };
	my @printed = grep { $parsed[$_] ne $books[$_] } 0 .. $#books;
	my @rounded = grep { $value[$_] ne $books[$_] } 0 .. $#books;
	cmp_ok(scalar(@printed), '>', @books / 2,
		'Knex: setTypeParser(20, parseInt) gives back ' . scalar(@printed) . ' of the ' . scalar(@books)
		  . ' keys as another key (doc/orms.md)' . (@printed ? ", $books[$printed[0]] as $parsed[$printed[0]]" : ''));
	cmp_ok(scalar(@rounded), '>', @books / 2,
		'Knex: ... ' . scalar(@rounded) . ' of them rounded to another number'
		  . (@rounded ? ", $books[$rounded[0]] to $value[$rounded[0]]" : ''));
	is(scalar(grep { $_ <= 2**53 } @books), 0, 'Knex: (every key is above 2^53)');
}

# --- Sequelize ----------------------------------------------------------------
SKIP:
{
	my $missing = npm_missing('Sequelize', 'sequelize');
	skip($missing, 9) if $missing;
	my %env = db('sequelize_app');
	my ($rc, $out) = run("$orms/sequelize", [ 'node', 'run.js' ], %env, NODE_PATH => "$npm/node_modules");
	is($rc, 0, 'Sequelize: sync(), create() and bulkCreate() run') or diag($out);
	my $r = last_json($out);
	note("Sequelize $r->{sequelize}") if $r->{sequelize};
	like(join("\n", @{ $r->{ddl} // [] }), qr/CREATE TABLE IF NOT EXISTS "authors" \("id"\s+BIGSERIAL\s*,/,
		'Sequelize: sync() declares the BIGINT autoIncrement key BIGSERIAL');
	my @books = @{ $r->{books} // [] };
	is(scalar(@books), 300, 'Sequelize: bulkCreate() returning, in batches of 100, got back all 300 keys');
	is_deeply(\@books, $r->{book_table}, "Sequelize: ... each instance its row's key");
	is_deeply([ $r->{author_type}, $r->{book_types} ], [ 'string', ['string'] ], 'Sequelize: ... as strings (exact)');
	is(sql('sequelize_app', 'SELECT id FROM authors'), $r->{author} // '', 'Sequelize: create() got back the key');
	is(fresh('sequelize_app', 'authors') . ' ' . fresh('sequelize_app', 'books'), '1|t|t 300|t|t',
		'Sequelize: every key is a snowflake of this node, made now, with no sequence');
	is_deeply($r->{altered} && [ grep { /ALTER COLUMN "id"/ } @{ $r->{altered} } ], [], 'Sequelize: a later sync({ alter: true }) leaves the keys alone')
	  or diag(explain($r->{altered}));
	is($r->{described} && "$r->{described}{type} primary key: " . ($r->{described}{primaryKey} ? 'yes' : 'no'), 'BIGINT primary key: yes',
		'Sequelize: describeTable reads the key as a BIGINT primary key');
}

# The key past 2^53, with its lowest bit set, that test/orms/typeorm and
# test/orms/drizzle insert and read back (BIG in their run.js)
my $past_2_53 = '1152921504606846977';

# read_as_number(OUT, WHAT): a run.js whose keys are JavaScript numbers
# (OUT its output) read $past_2_53 back as another number (the nearest
# double, 1152921504606846976, which JavaScript prints 1152921504606847000),
# and the books saved with it failed their foreign key (23503)
sub read_as_number
{
	my ($out, $what) = @_;
	my $r = last_json($out);
	is(join(' ', map { $_ // 'none' } $r->{author_type}, ($r->{read_back} // '') eq $past_2_53 ? 'same' : 'another',
			($r->{books_error} // '') =~ /^(\d+)/),
		'number another 23503', $what)
	  or diag($out);
	return;
}

# normalized(DB): the columns the setting made in DB, "table.column, ..."
sub normalized
{
	return sql($_[0], q{SELECT string_agg(format('%s.%s', table_name, column_name), ', ' ORDER BY 1) FROM uniqueid_normalized_columns()});
}

# --- TypeORM ------------------------------------------------------------------
SKIP:
{
	my $missing = npm_missing('TypeORM', 'typeorm');
	skip($missing, 13) if $missing;
	my %env = (db('typeorm_app'), NODE_PATH => "$npm/node_modules");
	my $dir = "$orms/typeorm";
	# the keys TypeORM makes, synchronized twice
	my ($rc, $out) = run($dir, [ 'node', 'run.js', 2 ], %env, MODEL => 'generated');
	is($rc, 0, 'TypeORM: synchronize() runs, with the keys TypeORM makes') or diag($out);
	my $r = last_json($out);
	note("TypeORM $r->{typeorm}") if $r->{typeorm};
	my @runs = @{ $r->{runs} // [] };
	like(join("\n", @{ $runs[0]{pending} // [] }),
		qr/CREATE TABLE "authors" \("id" BIGSERIAL NOT NULL.*CREATE TABLE "books" \("id" bigint GENERATED BY DEFAULT AS IDENTITY NOT NULL/s,
		'TypeORM: the first synchronize() declares a BIGSERIAL key and an identity');
	is(normalized('typeorm_app'), 'authors.id, books.id', 'TypeORM: ... both made snowflake keys');
	# (what 1.8 let through: the keys' defaults dropped, a sequence behind one)
	like(join("\n", @{ $runs[1]{pending} // [] }), qr/ALTER TABLE "authors" ALTER COLUMN "id" DROP DEFAULT/,
		'TypeORM: a second synchronize() with those models would drop the keys\' defaults');
	like($runs[1]{error} // '', qr/^55000 uniqueid\.serial_normalization keeps column "id" of table "authors" a snowflake key/,
		'TypeORM: ... and fails, naming the column and the setting');
	is(normalized('typeorm_app'), 'authors.id, books.id', 'TypeORM: ... with every key as it was');

	# the declaration doc/orms.md gives: once the default in TypeORM's form,
	# then nothing, for synchronize() and for migration:generate
	($rc, $out) = run($dir, [ 'node', 'run.js', 3 ], %env, MODEL => 'declared');
	is($rc, 0, 'TypeORM: synchronize() three times, save() and save() of 300 in chunks of 100 run, with the declared keys')
	  or diag($out);
	$r = last_json($out);
	@runs = @{ $r->{runs} // [] };
	is_deeply([ grep { /ALTER COLUMN "id"/ } @{ $runs[0]{pending} // [] } ],
		[ map { qq{ALTER TABLE "$_" ALTER COLUMN "id" SET DEFAULT next_snowflake()} } qw(authors books) ],
		'TypeORM: with the declared keys, the first synchronize() sets the same default, in its own words') or diag(explain(\@runs));
	is_deeply([ map { scalar @{ $_->{pending} // [1] } } @runs[ 1, 2 ] ], [ 0, 0 ],
		'TypeORM: ... and the next two find nothing to do');
	($rc, $out) = run($dir, [ 'node', "$npm/node_modules/typeorm/cli.js", 'migration:generate', "$tmp/typeorm-migrations/Next",
		'-d', './datasource.js', '--check' ], %env, MODEL => 'declared');
	is("$rc " . ($out =~ /No changes in database schema were found/ ? 'none' : $out), '0 none',
		'TypeORM: migration:generate --check finds nothing to write');
	my @books = @{ $r->{books} // [] };
	is_deeply([ scalar(@books), $r->{author_type}, $r->{book_types}, $r->{author}, $r->{read_back} ],
		[ 300, 'string', ['string'], $r->{author_in_table}, $past_2_53 ],
		'TypeORM: save() got back every key, and findOneBy() read one past 2^53, as exact strings');
	is_deeply(\@books, $r->{book_table}, "TypeORM: ... each entity its row's key");
	# parseInt8: a key past 2^53 as a number is another number
	($rc, $out) = run($dir, [ 'node', 'run.js', 1 ], %env, MODEL => 'declared', PARSE_INT8 => 'yes');
	read_as_number($out, 'TypeORM: with parseInt8, findOneBy() reads another key, and the books of that author fail');
}

# --- Drizzle ------------------------------------------------------------------
SKIP:
{
	my $missing = npm_missing('Drizzle', 'drizzle-kit') // npm_missing('Drizzle', 'drizzle-orm');
	skip($missing, 12) if $missing;
	my $dir = "$tmp/drizzle";
	system('cp', '-R', "$orms/drizzle", $dir) == 0 or die "cannot copy $orms/drizzle\n";
	my @kit = ('node', "$npm/node_modules/drizzle-kit/bin.cjs");
	my %env = (db('drizzle_app'), NODE_PATH => "$npm/node_modules");
	# the keys drizzle-kit makes, pushed twice
	my ($rc, $out) = run($dir, [ @kit, 'push', '--force' ], %env, MODEL => 'generated');
	like("$rc $out", qr/^0 .*Changes applied/s, 'Drizzle: push makes the tables, with the keys drizzle-kit makes') or diag($out);
	is(normalized('drizzle_app'), 'authors.id, books.id',
		'Drizzle: ... both snowflake keys (the identity, its options each the default, too)');
	($rc, $out) = run($dir, [ @kit, 'push', '--force' ], %env, MODEL => 'generated');
	like($out, qr/uniqueid\.serial_normalization keeps column "id" of table "authors" a snowflake key/,
		'Drizzle: a second push with those models fails, naming the column and the setting') or diag($out);
	is(normalized('drizzle_app'), 'authors.id, books.id', 'Drizzle: ... with every key as it was');
	# the declaration doc/orms.md gives
	($rc, $out) = run($dir, [ @kit, 'push', '--force', '--verbose' ], %env, MODEL => 'declared');
	is( join(' ', $rc, $out =~ /^(ALTER TABLE .*)$/mg),
		'0 ALTER TABLE "authors" ALTER COLUMN "id" SET DEFAULT next_snowflake(); ALTER TABLE "books" ALTER COLUMN "id" SET DEFAULT next_snowflake();',
		'Drizzle: with the declared keys, push sets the same default, in its own words') or diag($out);
	($rc, $out) = run($dir, [ @kit, 'push', '--force' ], %env, MODEL => 'declared');
	like("$rc $out", qr/^0 .*No changes detected/s, 'Drizzle: ... and the next push finds nothing to do') or diag($out);
	($rc, $out) = run($dir, [ 'node', 'run.js' ], %env);
	my $r = last_json($out);
	my @books = @{ $r->{books} // [] };
	is_deeply([ scalar(@books), $r->{author_type}, $r->{book_types}, $r->{author}, $r->{read_back} ],
		[ 300, 'bigint', ['bigint'], $r->{author_in_table}, $past_2_53 ],
		'Drizzle: insert().returning(), in batches of 100, got back every key, and select() read one past 2^53, as exact BigInts')
	  or diag($out);
	is_deeply(\@books, $r->{book_table}, "Drizzle: ... each row its key");
	($rc, $out) = run($dir, [ 'node', 'run.js' ], %env, MODE => 'number');
	read_as_number($out, 'Drizzle: with mode: "number", select() reads another key, and the books of that author fail');
	# drizzle-kit pull reads a key back as a number
	($rc, $out) = run($dir, [ @kit, 'pull' ], %env, DRIZZLE_OUT => './pulled');
	like(-f "$dir/pulled/schema.ts" ? slurp_file("$dir/pulled/schema.ts") : $out, qr/^\s*id: bigint\(\{ mode: "number" \}\)/m,
		'Drizzle: drizzle-kit pull declares the key bigint({ mode: "number" })');
	# drizzle-kit generate twice, then migrate and push, into another database
	%env = (db('drizzle_gen'), NODE_PATH => "$npm/node_modules");
	my @gen = map { [ run($dir, [ @kit, 'generate' ], %env, MODEL => 'declared') ] } 1 .. 2;
	like(join("\n", map { "$_->[0] $_->[1]" } @gen), qr/^0 .*Your SQL migration file.*\n0 .*No schema changes, nothing to migrate/s,
		'Drizzle: generate writes a migration, and a second generate none');
	($rc, $out) = run($dir, [ @kit, 'migrate' ], %env, MODEL => 'declared');
	my ($rc2, $out2) = run($dir, [ @kit, 'push', '--force' ], %env, MODEL => 'declared');
	like("$rc $rc2 $out2", qr/^0 0 .*No changes detected/s, 'Drizzle: ... which migrate applies, after which push finds nothing to do')
	  or diag("$out\n$out2");
}

$node->stop;
done_testing();
