# t/076_orms.pl's Alembic environment: online, on shop.py's engine; offline
# (--sql), the SQL it would run
from alembic import context

from shop import Base, make_engine

if context.is_offline_mode():
    context.configure(url="postgresql://", target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    with make_engine().connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
