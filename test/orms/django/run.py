# t/076_orms.pl's Django side, run in a copy of this directory:
#   run.py migrate   makemigrations and migrate shop (and Django's own apps),
#                    as the models of SHOP_STAGE stand; prints the SQL
#                    Django made for shop's newest migration
#   run.py use       an author (save), 250 books (bulk_create, in batches of
#                    100) and a tag through the ORM; prints, as JSON, the
#                    keys the ORM got back, the keys in the table, and what
#                    inspectdb reads of shop_author and shop_book
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.loader import MigrationLoader  # noqa: E402

if sys.argv[1] == "migrate":
    call_command("makemigrations", "shop", verbosity=0)
    newest = max(name for app, name in MigrationLoader(None).disk_migrations if app == "shop")
    out = io.StringIO()
    call_command("sqlmigrate", "shop", newest, stdout=out)
    print(out.getvalue())
    call_command("migrate", verbosity=0)
    print("migrated", newest)
elif sys.argv[1] == "use":
    from shop.models import Author, Book, Tag

    author = Author.objects.create(name="Ursula")
    books = Book.objects.bulk_create([Book(author=author, title="book %d" % i) for i in range(250)], batch_size=100)
    tag = Tag.objects.create(label="classic")
    with connection.cursor() as cur:
        cur.execute("SELECT id FROM shop_book ORDER BY id")
        table = [r[0] for r in cur.fetchall()]
    out = io.StringIO()
    call_command("inspectdb", "shop_author", "shop_book", stdout=out)
    print(json.dumps({
        "django": django.get_version(),
        "author": author.pk,
        "books": [b.pk for b in books],
        "book_table": table,
        "tag": tag.pk,
        "inspectdb": out.getvalue(),
    }))
