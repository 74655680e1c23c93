# t/076_orms.pl's SQLAlchemy side, run in a copy of this directory:
#   run.py sql       the SQL of `alembic upgrade head --sql`
#   run.py migrate   `alembic upgrade head`
#   run.py use       an author, then 250 books added to one session and
#                    flushed in batches of 100 (insertmanyvalues on
#                    SQLAlchemy 2, psycopg2's execute_values on 1.4);
#                    prints as JSON the key the ORM gave each object (with
#                    the book's title), the same read from the table, what
#                    SQLAlchemy's inspector reads of the keys, and what
#                    Alembic's autogenerate finds different between the
#                    models and the database, with env.py's include_name
#                    and without
import json
import sys

import alembic
import sqlalchemy
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.orm import Session

from shop import Author, Base, Book, include_name, make_engine

if sys.argv[1] in ("sql", "migrate"):
    command.upgrade(Config("alembic.ini"), "head", sql=sys.argv[1] == "sql")
    sys.exit(0)

# the ORM's batches: insertmanyvalues_page_size since SQLAlchemy 2.0,
# executemany_values_page_size (psycopg2) before
two = int(sqlalchemy.__version__.split(".")[0]) >= 2
engine = make_engine(**({"insertmanyvalues_page_size": 100} if two else {"executemany_values_page_size": 100}))
with Session(engine) as session:
    author = Author(name="Ursula")
    session.add(author)
    session.flush()
    books = [Book(author_id=author.id, title="book %d" % i) for i in range(250)]
    session.add_all(books)
    session.flush()
    session.commit()
    keys = {"author": str(author.id), "books": ["%d %s" % (b.id, b.title) for b in books]}
with engine.connect() as connection:
    table = [r[0] for r in connection.execute(text("SELECT id::text || ' ' || title FROM books ORDER BY id"))]
    columns = {
        t: {c["name"]: str(c["type"]) for c in inspect(connection).get_columns(t)}["id"] for t in ("authors", "books")
    }
    diff = compare_metadata(MigrationContext.configure(connection, opts={"include_name": include_name}), Base.metadata)
    unfiltered = compare_metadata(MigrationContext.configure(connection), Base.metadata)
print(json.dumps(dict(
    keys,
    sqlalchemy=sqlalchemy.__version__,
    alembic=alembic.__version__,
    book_table=table,
    columns=columns,
    autogenerate=[repr(d) for d in diff],
    autogenerate_unfiltered=sorted(d[0] + " " + d[1].name for d in unfiltered if d[0].endswith("_table")),
)))
