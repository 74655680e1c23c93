-- The registry's side of negotiated node numbers (1.6,
-- doc/negotiated-nodes.md): the claims table and the functions a node's
-- worker calls there, run here by hand.  The workers themselves, the
-- fencing and the hand-over are t/056_node_registry.pl's.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS uniqueid;
RESET client_min_messages;
-- (times relative to the clock: a base of now, horizons as offsets from it)
SELECT uniqueid_timestamptz_to_ms(clock_timestamp()) AS base \gset
CREATE FUNCTION claim(lo int, hi int, sysid numeric, name text, token bigint,
                      lease_ms int DEFAULT 60000, skew_ms int DEFAULT 20000, base_ms bigint DEFAULT :base)
RETURNS TABLE (number int, previous_ahead bigint, horizon_ahead bigint)
LANGUAGE sql AS $$
    SELECT number, CASE WHEN previous_horizon_ms = 0 THEN NULL ELSE previous_horizon_ms - base_ms END,
           horizon_ms - base_ms
    FROM uniqueid_claim_node(lo, hi, sysid, name, token, lease_ms, skew_ms, base_ms, lease_ms + 2000)
$$;

-- a new registry, with no record of its incarnation, may have forgotten
-- claims (a standby cloned, or a backup taken, before the first claim):
-- for the grace period, the longest terms seen (ahead and skew), it grants
-- no number, only the period's end
SELECT number IS NULL AS no_number,
       lease_until_ms - uniqueid_timestamptz_to_ms(clock_timestamp()) BETWEEN 81000 AND 82000 AS grace_ahead_and_skew
FROM uniqueid_claim_node(3, 5, 111, 'a', 1, 60000, 20000, :base, 62000);
SELECT system_identifier = (SELECT s.system_identifier FROM pg_control_system() s) AS this_cluster,
       since > clock_timestamp() - interval '1 minute' AS since_now, max_ahead_ms, max_skew_ms
FROM uniqueid_catalog.uniqueid_node_registry;
-- (below, as a registry updated from 1.7 is: one that never forgot, so
-- with no floor under its claims; the grace period and the floor come
-- back at the end)
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = '-infinity', grace_until = '-infinity';

-- the lowest free number, one per holder; none left: no row
SELECT * FROM claim(3, 5, 111, 'a', 1);
SELECT * FROM claim(3, 5, 222, 'b', 2);
SELECT * FROM claim(3, 5, 333, 'c', 3);
SELECT * FROM claim(3, 5, 444, 'd', 4);
SELECT number, holder_name, lease_until > clock_timestamp() + interval '50 s' AS leased
FROM uniqueid_catalog.uniqueid_node_claims ORDER BY number;

-- a lease that ended: free only after the skew allowance too, the
-- holder's (20 s, from its claim) or the claimer's, the larger
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = clock_timestamp() - interval '5 s' WHERE number = 4;
SELECT * FROM claim(3, 5, 444, 'd', 4);
SELECT * FROM claim(3, 5, 444, 'd', 4, skew_ms => 100);
UPDATE uniqueid_catalog.uniqueid_node_claims SET skew_ms = 100 WHERE number = 4;
-- (its clock 5 s on, its lease 10 s, ahead 12 s)
SELECT * FROM claim(3, 5, 444, 'd', 4, lease_ms => 10000, skew_ms => 100, base_ms => :base + 5000);
-- the new holder starts above the old horizon, and its own covers a lease
-- from there (its clock plus ahead is less): the previous horizon is
-- carried as it is, not with the lead added again (1.7 recorded the
-- previous horizon plus ahead_ms, 69000 here, and the lead of the holders
-- grew with each handover)
SELECT holder_name, previous_horizon < horizon AS above FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 4;

-- renewal: only with the claim's token; the horizon only rises
SELECT count(*) AS renewed_by_old_holder FROM uniqueid_renew_node(4, 2, 60000, 100, :base, 62000);
SELECT horizon_ms - :base AS horizon_ahead, lease_until_ms > :base + 50000 AS leased
FROM uniqueid_renew_node(4, 4, 60000, 100, :base + 10000, 62000);
SELECT horizon_ms - :base AS horizon_ahead FROM uniqueid_renew_node(4, 4, 60000, 100, :base, 62000);
-- a shorter lease (uniqueid.node_lease lowered) does not end the one given sooner
SELECT lease_until_ms > :base + 50000 AS still_leased FROM uniqueid_renew_node(4, 4, 1000, 100, :base, 62000);
-- a base past the registry's clock plus its allowance (the holder's clock
-- or horizon that far ahead) still renews (1.8), its horizon recorded at
-- the registry's clock plus its allowance, the longest ahead_ms and skew_ms
-- seen (62 s and 20 s), no further: so that a horizon the registry forgets
-- is never past the floor of a later claim (below)
SELECT horizon_ms - uniqueid_timestamptz_to_ms(clock_timestamp()) BETWEEN 81000 AND 82000 AS at_allowance
FROM uniqueid_renew_node(4, 4, 60000, 100, :base + 90000000, 62000);

-- a holder that had a number gets it back first when it is free, even
-- with a lower one free: c gives 5 back at shutdown, a lets 3 run out
SELECT uniqueid_release_node(5, 3, :base + 1000) AS released;
-- (again: the same; by another token: nothing)
SELECT uniqueid_release_node(5, 3, :base + 1000) AS released_again;
SELECT uniqueid_release_node(5, 2, :base) AS released_by_another;
SELECT uniqueid_timestamptz_to_ms(horizon) - :base AS horizon_ahead, lease_until = '-infinity' AS free
FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 5;
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = '-infinity' WHERE number = 3;
SELECT * FROM claim(3, 5, 333, 'c', 5);
-- a released number's horizon came down to what its holder gave (base + 1 s)
SELECT holder_name, uniqueid_timestamptz_to_ms(previous_horizon) - :base AS previous_ahead
FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 5;

-- bad arguments
\set VERBOSITY sqlstate
SELECT * FROM claim(5, 3, 1, 'x', 9);
SELECT * FROM claim(0, 65536, 1, 'x', 9);
SELECT * FROM claim(0, 9, 1, 'x', 9, lease_ms => 999);
SELECT * FROM claim(0, 9, 1, 'x', 9, lease_ms => 2000, skew_ms => 1000);
SELECT * FROM uniqueid_claim_node(0, 9, 1, 'x', 9, 60000, 1000, :base, 60000 + 3601001);
SELECT * FROM uniqueid_claim_node(0, 9, 1, 'x', 9, 3600001, 1000, :base, 3600001);
-- (a base past the registry's clock plus a day is no longer a bad argument,
-- 1.8: the horizon is bounded instead)
SELECT number, horizon_ms <= uniqueid_timestamptz_to_ms(clock_timestamp()) + 86400000 AS within_a_day
FROM uniqueid_claim_node(0, 9, 1, 'x', 9, 60000, 1000, :base + 90000000, 62000);
INSERT INTO uniqueid_catalog.uniqueid_node_claims VALUES (70000, 1, 'x', 1, now(), now(), now(), 0, now(), now());
-- a renewal's bad terms are an error (1.8), told from a number not the
-- token's (no row): a skew of half the lease or more, a lease out of bounds
SELECT * FROM uniqueid_renew_node(4, 4, 60000, 2147483647, :base, 62000);
SELECT * FROM uniqueid_renew_node(4, 4, 60000, 30000, :base, 62000);
SELECT * FROM uniqueid_renew_node(4, 4, 999, 100, :base, 62000);
SELECT * FROM uniqueid_renew_node(4, 4, 60000, 100, -1, 62000);
SELECT * FROM uniqueid_renew_node(4, 4, 60000, 100, :base, 59999);
\set VERBOSITY default
SELECT count(*) AS renewed_by_another FROM uniqueid_renew_node(4, 999, 60000, 100, :base, 62000);

-- claims and releases in a row cannot push a number's horizon further than
-- the registry's clock plus its allowance (here the largest terms, about
-- two hours), nor lock its next holder out: 300 cycles of the worst a
-- registry role can send (a base a day ahead, the largest ahead, a release
-- that keeps the horizon)
DO $$
BEGIN
    FOR i IN 1..300 LOOP
        PERFORM uniqueid_claim_node(20, 20, 1, 'pusher', i, 3600000, 0,
                                    uniqueid_timestamptz_to_ms(clock_timestamp()) + 86400000, 7201000);
        PERFORM uniqueid_release_node(20, i, 9000000000000);
    END LOOP;
END $$;
SELECT horizon <= clock_timestamp() + (SELECT (max_ahead_ms + max_skew_ms) * interval '1 millisecond'
                                       FROM uniqueid_catalog.uniqueid_node_registry) AS within_allowance,
       horizon > clock_timestamp() + interval '1 hour' AS pushed,
       (SELECT max_ahead_ms + max_skew_ms FROM uniqueid_catalog.uniqueid_node_registry) AS allowance_ms
FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 20;
-- the next holder, its clock right, gets the number with a horizon not
-- below the previous one (it starts above it), and renews
SELECT number, horizon_ms >= previous_horizon_ms AS not_below,
       previous_horizon_ms <= uniqueid_timestamptz_to_ms(clock_timestamp()) + 86400000 AS previous_within_a_day
FROM uniqueid_claim_node(20, 20, 2, 'victim', 77, 60000, 1000, :base, 62000);
SELECT count(*) AS renewed FROM uniqueid_renew_node(20, 77, 60000, 1000, :base + 86400000 + 7200000, 62000);

-- a claim retried with its token (its first try's outcome unknown to the
-- holder) gets the number that try claimed, not another
SELECT number FROM uniqueid_claim_node(21, 23, 3, 'retry', 555, 60000, 1000, :base, 62000);
SELECT number, horizon_ms >= :base + 62000 AS covers
FROM uniqueid_claim_node(21, 23, 3, 'retry', 555, 60000, 1000, :base, 62000);
SELECT count(*) AS claims_of_retry FROM uniqueid_catalog.uniqueid_node_claims WHERE holder_name = 'retry';
-- the functions' commits wait for the synchronous standbys, whatever the
-- role or session says (the setting, raised for the transaction)
BEGIN;
SET LOCAL synchronous_commit = off;
SELECT count(*) AS renewed FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
SHOW synchronous_commit;
ROLLBACK;

-- the registry restarted, promoted or restored (another start, timeline or
-- system identifier than the last claim saw): for the longest terms seen
-- (or the claimer's, if longer), no number, only the end of the grace
-- period; renewals of leases that still run go on
SELECT system_identifier = (SELECT s.system_identifier FROM pg_control_system() s) AS this_cluster,
       max_ahead_ms, max_skew_ms
FROM uniqueid_catalog.uniqueid_node_registry;
UPDATE uniqueid_catalog.uniqueid_node_registry SET timeline = 'FFFFFFFF', max_ahead_ms = 0, max_skew_ms = 0;
SELECT number IS NULL AS no_number, previous_horizon_ms IS NULL AS no_horizon,
       lease_until_ms - uniqueid_timestamptz_to_ms(clock_timestamp()) BETWEEN 62000 AND 63000 AS grace_ahead_and_skew
FROM uniqueid_claim_node(24, 24, 4, 'after', 8, 60000, 1000, :base, 62000);
SELECT timeline <> 'FFFFFFFF' AS noted, max_ahead_ms, max_skew_ms FROM uniqueid_catalog.uniqueid_node_registry;
-- a claimer with shorter terms waits as long (the role cannot shorten it)
SELECT lease_until_ms - uniqueid_timestamptz_to_ms(clock_timestamp()) BETWEEN 60000 AND 63000 AS grace_of_the_longest
FROM uniqueid_claim_node(24, 24, 4, 'short', 10, 1000, 0, :base, 1000);
SELECT count(*) AS renewed_in_grace FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
-- (a lease that had ended: not renewed in the grace period, nor claimed
-- again with its token; the renewal says until when, as a row with no
-- horizon, told from a number with another claim, no row, and from a number
-- the registry has no claim of, a row of NULLs)
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = clock_timestamp() - interval '10 s' WHERE number = 21;
SELECT horizon_ms IS NULL AS not_renewed_in_grace,
       lease_until_ms = (SELECT uniqueid_timestamptz_to_ms(grace_until) FROM uniqueid_catalog.uniqueid_node_registry) AS until_grace_ends
FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
SELECT count(*) AS another_claim FROM uniqueid_renew_node(21, 556, 60000, 1000, :base, 62000);
SELECT horizon_ms IS NULL AS forgotten, lease_until_ms IS NULL AS forgotten_too
FROM uniqueid_renew_node(29, 555, 60000, 1000, :base, 62000);
SELECT number IS NULL AS ended_reclaimed_in_grace FROM uniqueid_claim_node(21, 23, 3, 'retry', 555, 60000, 1000, :base, 62000);
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = clock_timestamp() - interval '64 s', grace_until = clock_timestamp() - interval '1 s';
-- after it, a claim starts above the end of the grace period and the skew
-- (the floor) even with its own clock far behind: no horizon the registry
-- forgot is past it; a number never claimed, or one whose row is older,
-- alike; its horizon gives it a lease from there
SELECT number, previous_horizon_ms = (SELECT uniqueid_timestamptz_to_ms(grace_until) + max_skew_ms
                                      FROM uniqueid_catalog.uniqueid_node_registry) AS floor_is_grace_end_and_skew,
       horizon_ms - previous_horizon_ms AS room
FROM uniqueid_claim_node(24, 24, 4, 'after', 8, 60000, 1000, :base - 3600000, 62000);
SELECT count(*) AS ended_renewed_after FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
-- a restart alone counts from the start (this server's, more than the
-- 1 s of these terms ago)
SELECT true AS waited FROM pg_sleep(greatest(0, 1.2 - extract(epoch FROM clock_timestamp() - pg_postmaster_start_time())));
UPDATE uniqueid_catalog.uniqueid_node_registry SET started = '2000-01-01', max_ahead_ms = 1000, max_skew_ms = 0;
SELECT count(*) AS claimed FROM uniqueid_claim_node(25, 25, 5, 'restart', 9, 1000, 0, :base, 1000)
WHERE number IS NOT NULL;
SELECT since = pg_postmaster_start_time() AS since_start FROM uniqueid_catalog.uniqueid_node_registry;
-- a registry restored from a dump has no row (it is not dumped): with
-- claims in the table, that is a new incarnation too
DELETE FROM uniqueid_catalog.uniqueid_node_registry;
SELECT number IS NULL AS no_number_after_restore FROM uniqueid_claim_node(26, 26, 6, 'restored', 11, 1000, 0, :base, 1000);
-- and its grace period covers the longest terms its claims show (a lease
-- of 60 s past its last renewal, number 21's), not only the claimer's
SELECT max_ahead_ms >= 60000 AS terms_of_the_claims, grace_until >= clock_timestamp() + interval '59 s' AS grace_of_them
FROM uniqueid_catalog.uniqueid_node_registry;
-- a lease that ends within the skew allowance of when the registry may
-- have forgotten claims is not renewed, even while it runs: the clock of a
-- registry that replaced another may be behind the other's by that much,
-- and the other may have handed the number on already (review of issue 48)
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = clock_timestamp() - interval '1 s',
       grace_until = clock_timestamp() + interval '1 min', max_skew_ms = 20000;
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = clock_timestamp() + interval '5 s', token = 555 WHERE number = 21;
SELECT horizon_ms IS NULL AS not_renewed, lease_until_ms IS NOT NULL AS says_until
FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
-- (one that ends past it is, in the grace period too)
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = clock_timestamp() + interval '30 s' WHERE number = 21;
SELECT horizon_ms IS NOT NULL AS renewed FROM uniqueid_renew_node(21, 555, 60000, 1000, :base, 62000);
-- longer terms sent after the grace period leave it over (they widen the
-- allowance only): a server with a longer lease does not lock the others
-- out for as long (review of issue 48)
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = clock_timestamp() - interval '30 s',
       grace_until = clock_timestamp() - interval '25 s', max_ahead_ms = 5000, max_skew_ms = 500;
SELECT number FROM uniqueid_claim_node(27, 27, 7, 'longer', 12, 600000, 1000, :base, 602000);
SELECT grace_until < clock_timestamp() AS grace_still_over, max_ahead_ms, max_skew_ms FROM uniqueid_catalog.uniqueid_node_registry;
-- (while it runs, they lengthen it)
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = clock_timestamp() - interval '1 s',
       grace_until = clock_timestamp() + interval '4 s', max_ahead_ms = 5000, max_skew_ms = 500;
SELECT number IS NULL AS no_number,
       lease_until_ms - uniqueid_timestamptz_to_ms(clock_timestamp()) BETWEEN 600000 AND 602000 AS grace_lengthened
FROM uniqueid_claim_node(28, 28, 8, 'longer', 13, 600000, 1000, :base, 602000);
DELETE FROM uniqueid_catalog.uniqueid_node_claims WHERE number >= 20;
UPDATE uniqueid_catalog.uniqueid_node_registry SET since = '-infinity', grace_until = '-infinity';

-- the registry role: the functions, granted; the table, not writable
CREATE ROLE uid_registry;
CREATE ROLE uid_other;
GRANT EXECUTE ON FUNCTION uniqueid_claim_node, uniqueid_renew_node, uniqueid_release_node TO uid_registry;
SET ROLE uid_registry;
SELECT number FROM uniqueid_claim_node(6, 6, 666, 'f', 6, 60000, 1000, :base, 62000);
\set VERBOSITY sqlstate
UPDATE uniqueid_catalog.uniqueid_node_claims SET lease_until = '-infinity';
DELETE FROM uniqueid_catalog.uniqueid_node_claims;
SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims;
SET ROLE uid_other;
SELECT number FROM uniqueid_claim_node(7, 7, 777, 'g', 7, 60000, 1000, :base, 62000);
SELECT count(*) FROM uniqueid_renew_node(6, 6, 60000, 1000, :base, 62000);
SELECT uniqueid_release_node(6, 6, :base);
SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims;
SELECT * FROM uniqueid_node_status();
\set VERBOSITY default
RESET ROLE;

-- this server has no registry: its number is uniqueid.node
SELECT uniqueid_node() = current_setting('uniqueid.node')::int AS node_is_setting;
SELECT registry, node = current_setting('uniqueid.node')::int AS node_is_setting, lease_left
FROM uniqueid_node_status();
SELECT current_setting('uniqueid.node_registry') AS registry, current_setting('uniqueid.node_range') AS node_range,
       current_setting('uniqueid.node_lease') AS lease, current_setting('uniqueid.node_skew') AS skew,
       current_setting('uniqueid.node_leased') AS leased;

DELETE FROM uniqueid_catalog.uniqueid_node_claims;
DELETE FROM uniqueid_catalog.uniqueid_node_registry;
DROP FUNCTION claim;
REVOKE EXECUTE ON FUNCTION uniqueid_claim_node, uniqueid_renew_node, uniqueid_release_node FROM uid_registry;
DROP ROLE uid_registry, uid_other;
