#!/usr/bin/env bash
# demo.sh - on a fresh Debian 12 machine: installs PostgreSQL 15 and the build
# tools, builds and installs uniqueid, starts a throwaway cluster with
# uniqueid preloaded, shows next_id() as a primary-key default, and stops.
set -eu
cd "$(dirname "$0")"
. test/lib.sh

uid_install_packages make gcc libssl-dev "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER"
uid_build_install
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D"
uid_cluster_start "$D"
uid_psql "$D" -d postgres -e <<'SQL'
CREATE EXTENSION uniqueid;
CREATE TABLE photos (
    id      shardid PRIMARY KEY DEFAULT next_id(5),
    caption text
);
INSERT INTO photos (caption) VALUES ('sunrise'), ('lunch'), ('cat'), ('sunset');
SELECT id, id_time(id), id_shard(id), id_seq(id), caption FROM photos ORDER BY id;
-- rows of the last hour, found through the primary key
EXPLAIN (COSTS OFF)
SELECT * FROM photos WHERE id >= now() - interval '1 hour' AND id < now() + interval '1 minute';
SQL
