# t/076_orms.pl's SQLAlchemy models and engine, on the server libpq's PG*
# variables name: keys declared as doc/orms.md says, autoincrementing
# BigInteger primary keys (BIGSERIAL when created), whatever the migration
# made them (the one of books, written when its model had Identity(), an
# identity).
from sqlalchemy import BigInteger, Column, ForeignKey, Text, create_engine
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class Author(Base):
    __tablename__ = "authors"
    id = Column(BigInteger, primary_key=True)
    name = Column(Text, nullable=False)


class Book(Base):
    __tablename__ = "books"
    id = Column(BigInteger, primary_key=True)
    author_id = Column(BigInteger, ForeignKey("authors.id"), nullable=False)
    title = Column(Text, nullable=False)


def make_engine(**options):
    return create_engine(
        "postgresql+psycopg2://",
        connect_args={"options": "-c uniqueid.serial_normalization=snowflake"},
        **options,
    )
