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
#                    models and the database (every table of it, the
#                    server defaults compared too), and between the
#                    database and the models with books' key declared
#                    Identity()
import json
import sys

import alembic
import sqlalchemy
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import BigInteger, Column, ForeignKey, Identity, MetaData, Table, Text, inspect, text
from sqlalchemy.orm import Session

from shop import Author, Base, Book, make_engine

# the models with books' key an identity
identity = MetaData()
Table("authors", identity, Column("id", BigInteger, primary_key=True), Column("name", Text, nullable=False))
Table("books", identity, Column("id", BigInteger, Identity(), primary_key=True),
      Column("author_id", BigInteger, ForeignKey("authors.id"), nullable=False), Column("title", Text, nullable=False))


def autogenerate(connection, metadata):
    try:
        opts = {"compare_server_default": True}
        return [repr(d) for d in compare_metadata(MigrationContext.configure(connection, opts=opts), metadata)]
    except Exception as e:
        return ["%s %s" % (type(e).__name__, e)]


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
    diff = autogenerate(connection, Base.metadata)
    diff_identity = autogenerate(connection, identity)
print(json.dumps(dict(
    keys,
    sqlalchemy=sqlalchemy.__version__,
    alembic=alembic.__version__,
    book_table=table,
    columns=columns,
    autogenerate=diff,
    autogenerate_identity=diff_identity,
)))
