#!/usr/bin/env bash
# bench/horizon_ab.sh - does the durable horizon cost generation throughput?
# The work tree with the horizon's per-call fast paths compiled out ("a")
# against the work tree as shipped ("b", and "b2" for the noise): see
# bench/ab.sh, which does the work.
#   bash bench/horizon_ab.sh
exec bash "$(dirname "$0")/ab.sh" --horizon
