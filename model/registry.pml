/*
 * registry.pml - a Promela model of the node registry's lease protocol
 * (doc/negotiated-nodes.md).  model/README.md says what is abstracted and
 * how to run it; model/check.sh checks it with SPIN.
 *
 * Actors: the registry (one PostgreSQL database: the claims row of ONE node
 * number and the record of its incarnation), NH holders (servers that lease
 * the number: the worker of src/registry.c and the generators), and the
 * clock.  A request is sent and processed by the registry in one
 * indivisible step (d_step), as its one statement under the row lock is;
 * its answer reaches the holder in the same step, or is lost.
 *
 * Time is integer ticks, and every time the model keeps is RELATIVE TO NOW:
 * a tick (proctype Clock) moves each one down, clamped at a level below
 * which all values behave alike (the comments at the clamps say why).  So
 * the state space is finite, and an exhaustive check covers runs of any
 * length: any number of handovers, crashes, amnesias.
 *
 * The rules are the NEW ones, as sql/uniqueid--1.7--1.8.sql and src/ have
 * them at 0879ebd (issue 48); each switch brings back the OLD rule of one
 * defect:
 *   -DOLD_NO_RECORD_GRACE  no incarnation record and no claims row: no grace
 *                          period (uniqueid_node_grace_until; defect 1)
 *   -DOLD_NO_FLOOR         a new claim's previous horizon is the row's only,
 *                          never the end of the grace period (defect 2)
 *   -DOLD_RATCHET          a claim's horizon counts from the previous one
 *                          with a day's cap, the new holder's high water is
 *                          raised to it, and its renewals' base is its
 *                          durable horizon (defect 3)
 *   -DOLD_EXTEND_LAPSED    a lease that had ended before the registry may
 *                          have forgotten claims is extended once the grace
 *                          period is over, with no floor (defect 4: the
 *                          rules of a53c5ef; this model and the review of
 *                          issue 48 found it, 0cf79b4 fixed it)
 * Other switches:
 *   -DRECOVERY             the recovery check: the faults stop, then a
 *                          holder generates again within the grace period
 *   -DJUMPS                the holders' clocks step while they run
 *   -DNO_RELEASE           no clean shutdown (handovers after crashes only)
 *   -DNH=3                 three holders; and the settings below.
 */

/* ---- the settings, in ticks ---- */
#ifndef L
#define L 3                 /* uniqueid.node_lease */
#endif
#ifndef S
#define S 1                 /* uniqueid.node_skew (2 S < L) */
#endif
#ifndef D
#define D 1                 /* uniqueid.max_clock_lead */
#endif
#define U 1                 /* the longest unit (UID_NODE_LONGEST_UNIT_MS): one tick */
#ifdef NO_RELEASE
#define RELEASES false      /* (-DNO_RELEASE: handovers only after a lease ran out) */
#else
#define RELEASES true
#endif
#define AHEAD (L + D + U)   /* ahead_ms: what the registry adds to a base */
#define ALLOW (AHEAD + S)   /* the registry's allowance: max_ahead_ms + max_skew_ms */
#define DAY 100             /* OLD: uniqueid_node_allowance_ms(), a day: no cap here */

/* the holders' wall clocks: true time + off, off within [OFFLO, OFFHI] */
#ifndef OFFLO
#define OFFLO (-1)
#endif
#ifndef OFFHI
#define OFFHI 0
#endif

/*
 * The lead bound asserted at each ID: the start of its unit (its end - U)
 * less true time.  The brief's bound is OFFHI + L + D + U; every horizon
 * the registry records is at most ALLOW past its clock, so no ID's unit
 * starts more than L + D + S ahead, whatever the clocks.  The default is
 * the smaller of the two.
 */
#ifndef LEADMAX
#if (OFFHI + U) < S
#define LEADMAX (OFFHI + L + D + U)
#else
#define LEADMAX (L + D + S)
#endif
#endif

#ifndef NH
#define NH 2                /* holders: 2 or 3 */
#endif

/*
 * Clamps.  LOW: a horizon, durable horizon or ID end at or below it is
 * below every ID a holder can make from now on (an ID's unit ends past its
 * holder's wall clock, which is at least OFFLO: at OFFLO + U or later), so
 * all such values are alike; -infinity is LOW too.  HIGH: above anything
 * the NEW rules record (asserted); the OLD ratchet is cut there, past
 * LEADMAX.
 */
#define LOW OFFLO
#define HIGH (LEADMAX + AHEAD + S + 3)
#define ENDED (-(S + 1))            /* a lease that ended more than the skew ago (or -infinity) */
#define SINCE_NEVER (LOW - ALLOW - S)   /* since -infinity, or so long ago that it ends no grace and floors nothing */

#define MAX(a, b) ((a) > (b) -> (a) : (b))
#define MIN(a, b) ((a) < (b) -> (a) : (b))
#define DOWN(x, lo) x = ((x) > (lo) -> (x) - 1 : (lo))
#define CLAMP(x) ((x) < LOW -> LOW : ((x) > HIGH -> HIGH : (x)))
/* a horizon recorded: the NEW rules never pass HIGH (asserted); the OLD ratchet is cut there */
#ifdef OLD_RATCHET
#define SETHOR(x, v) x = CLAMP(v)
#else
#define SETHOR(x, v) assert((v) <= HIGH); x = CLAMP(v)
#endif

/* ---- the registry ---- */

/* uniqueid_node_claims: the number's row */
bool row;                   /* the number has a row */
byte row_tok;               /* token (0: no row) */
short row_lease = ENDED;    /* lease_until */
short row_hor = LOW;        /* horizon */
short row_prev = LOW;       /* previous_horizon */
bool row_old;               /* lease_until < renewable_from (since + skew): ended before the registry may have forgotten */

/* uniqueid_node_registry (max_ahead_ms, max_skew_ms: every holder sends AHEAD and S) */
bool rec;                   /* the record exists */
bool rec_other;             /* it names another incarnation than the running one */
short rec_since = SINCE_NEVER;

/* a snapshot: what an asynchronous standby had replayed, or a backup held, when taken */
bool snap_row;
byte snap_tok;
short snap_lease = ENDED, snap_hor = LOW, snap_prev = LOW;
/*
 * Whether the snapshot has the record: restored, it names another
 * incarnation (its since does not matter).  Under the NEW rules a record
 * of another incarnation and no record at all both start the grace period
 * at the first call, so the snapshot's record does not matter and a
 * restore from a dump is the failover; only OLD_NO_RECORD_GRACE tells them
 * apart.
 */
#ifdef OLD_NO_RECORD_GRACE
bool snap_rec;
#define SNAP_REC snap_rec
#else
#define SNAP_REC false
#endif

/* ---- the holders ---- */
#define IDLE 0              /* no number (tok != 0: a claim to retry with that token) */
#define HOLD 1              /* a number held (it may have run out: safe) */

byte st[NH];
byte tok[NH];               /* the claim's token (0: none) */
short off[NH];              /* wall clock - true time */
short hw[NH];               /* high water of the clock's readings (carried forward: constant relative to now) */
short dur[NH];              /* durable horizon: >= the end of every ID made, >= every floor adopted */
bool atfloor[NH];           /* the next unit may be the floor's first (after a start or an adoption) */
short hh[NH];               /* the horizon the registry answered (uid_node_shared->horizon_ms) */
short safe[NH];             /* safe_until (monotonic): IDs only while it is > 0 */

/* the virtual clock: the wall clock, or the high water carried forward */
#define VCLOCK(h) MAX(off[h], hw[h])
/*
 * The high water before any reading: with fixed offsets, a high water at
 * or below the wall clock is the wall clock (it only rises, the wall clock
 * stays where it is relative to now); with -DJUMPS, anything below OFFLO.
 */
#ifdef JUMPS
#define HW_NONE(h) OFFLO
#else
#define HW_NONE(h) off[h]
#endif

/* the end of the highest ID made under the number so far */
short highest_id = LOW;

/*
 * Temporaries of the d_steps: hidden (not in the state vector); for a
 * breadth-first search, which does not allow hidden variables (-DBFS_TRAIL),
 * zeroed at the end of each step (TEMPS_CLEARED).
 */
#ifdef BFS_TRAIL
#define TEMP
#else
#define TEMP hidden
#endif
TEMP int gu, prev, hor, base, id_end, vc;
TEMP byte ans, k, n;
TEMP byte recovered;
TEMP byte map[8];
#define TEMPS_CLEARED recovered = 0; gu = 0; prev = 0; hor = 0; base = 0; id_end = 0; vc = 0; ans = 0; k = 0; n = 0; \
	map[0] = 0; map[1] = 0; map[2] = 0; map[3] = 0; map[4] = 0; map[5] = 0; map[6] = 0; map[7] = 0

#define A_NUMBER 1          /* claim: the number, its previous horizon and its horizon */
#define A_GRACE 2           /* "grace period until T": a claim, or the renewal of a lease that ended */
#define A_NONE 3            /* claim: no number free */
#define A_RENEWED 4         /* renewal: its horizon */
#define A_NOCLAIM 5         /* renewal: the registry has no claim of the number */
#define A_OTHER 6           /* renewal: another claim holds the number */

/*
 * Recovery (-DRECOVERY): from any state the faults may stop for good (the
 * calm): no answer lost, no crash, release, number given up or clock
 * step, no amnesia or restart of the registry; every holder claims or
 * renews once a tick (L = 3: every third of the lease) and has its answer
 * before time moves on, and its generators borrow no units ahead of their
 * clock.  RECOVER_TICKS after, at the end of every tick, some holder holds
 * the number with its lease running and its horizon covering its next ID.
 */
#ifdef RECOVERY
#ifndef RECOVER_TICKS
#define RECOVER_TICKS ALLOW       /* the grace period, then the claim in the tick it ends (found the least that holds) */
#endif
bool calm;                  /* the faults have stopped for good */
byte calm_ticks;            /* ticks since (up to RECOVER_TICKS) */
bool done[NH];              /* in the calm: the holder's request of this tick answered */
#define FAULT (!calm)
#define BORROWS (!calm)
#define DUE(h) !done[h]
#define DONE(h) done[h] = calm
#else
#define FAULT true
#define BORROWS true
#define DUE(h) true
#define DONE(h) skip
#endif

/*
 * Tokens are random 64-bit numbers, compared only for equality: the ones
 * holders have are renamed 1, 2, ... in the order of the holders, so that
 * states that differ only in their names are one.  A token no holder has
 * (its holder fenced, or crashed) is never sent again: the row's or the
 * snapshot's is DEAD then, and its previous horizon, which only its
 * holder's retried claim or release reads, is LOW.
 */
#define DEAD 6
#define FRESH 7             /* a new token, no slot's until renamed */
inline canon_tokens()
{
	k = 0;
	do
	:: k < 8 -> map[k] = 0; k++
	:: else -> break
	od;
	n = 0;
	k = 0;
	do
	:: k < NH ->
		if
		:: tok[k] != 0 && map[tok[k]] == 0 -> n++; map[tok[k]] = n
		:: else -> skip
		fi;
		k++
	:: else -> break
	od;
	k = 0;
	do
	:: k < NH -> tok[k] = map[tok[k]]; k++
	:: else -> break
	od;
	if
	:: row_tok != 0 && map[row_tok] == 0 -> row_tok = DEAD; row_prev = LOW; row_old = false
	:: else -> row_tok = map[row_tok]
	fi;
	if
	:: snap_tok != 0 && map[snap_tok] == 0 -> snap_tok = DEAD; snap_prev = LOW
	:: else -> snap_tok = map[snap_tok]
	fi
}

/*
 * Holders are alike (the same process, their offsets chosen alike), so a
 * state and the one with two holders' parts swapped are one: the holders
 * are kept sorted by a key of their parts (with their tokens' relation to
 * the row's and the snapshot's), before the tokens are renamed.
 */
#define TOKREL(i) (tok[i] == 0 -> 0 : 1 + (tok[i] == row_tok -> 1 : 0) + (tok[i] == snap_tok -> 2 : 0))
#ifdef RECOVERY
#define DONEBIT(i) (done[i] -> 1 : 0)
#else
#define DONEBIT(i) 0
#endif
#define KEY(i) ((((((((off[i] - OFFLO) * 2 + st[i]) * 2 + (atfloor[i] -> 1 : 0)) * 4 + safe[i]) * 8 + TOKREL(i)) * 2 \
	+ DONEBIT(i)) * 32 + (hw[i] - LOW)) * 32 + (dur[i] - LOW)) * 32 + (hh[i] - LOW)
#define SWAP(a, b, tmp) tmp = a; a = b; b = tmp
inline sort2(i, j)
{
	if
	:: KEY(i) > KEY(j) ->
		printf("@swap %d %d\n", i, j);
		SWAP(off[i], off[j], vc);
		SWAP(st[i], st[j], vc);
		SWAP(tok[i], tok[j], vc);
		SWAP(hw[i], hw[j], vc);
		SWAP(dur[i], dur[j], vc);
		SWAP(atfloor[i], atfloor[j], vc);
		SWAP(hh[i], hh[j], vc);
		SWAP(safe[i], safe[j], vc);
#ifdef RECOVERY
		SWAP(done[i], done[j], vc);
#endif
		vc = 0
	:: else -> skip
	fi
}

/* the end of every step: holders sorted, tokens renamed, temporaries zeroed */
inline step_end()
{
#ifdef RECOVERY
	/* (in the calm the registry forgets nothing more: the snapshot does not matter) */
	if
	:: calm ->
		snap_row = false;
		snap_tok = 0;
		snap_lease = ENDED;
		snap_hor = LOW;
		snap_prev = LOW
#ifdef OLD_NO_RECORD_GRACE
		;
		snap_rec = false
#endif
	:: else -> skip
	fi;
#endif
	/* (atfloor matters only while the clock's unit is not past the floor: else true) */
	k = 0;
	do
	:: k < NH ->
		if
		:: VCLOCK(k) + U > dur[k] -> atfloor[k] = true
		:: else -> skip
		fi;
		k++
	:: else -> break
	od;
#ifndef NOSYMMETRY
#if NH == 2
	sort2(0, 1);
#endif
#if NH == 3
	sort2(0, 1);
	sort2(1, 2);
	sort2(0, 1);
#endif
#endif
	canon_tokens();
	TEMPS_CLEARED
}

/* ---- the registry's functions (sql/uniqueid--1.7--1.8.sql) ---- */

/*
 * renewable_from (since + skew) set with since: a lease that ends before it
 * (relative: lease_until < S when since is now) is never extended again.
 * Kept as the row's bit row_old, which nothing but since and lease_until
 * change.  (since -infinity: renewable_from too.)
 */
#define RENEWABLE_FROM_NOW() row_old = (row && rec_since > SINCE_NEVER && row_lease < S)

/*
 * uniqueid_node_grace_until (uniqueid_node_incarnation): the record noted,
 * the end of the grace period in gu (also the floor of a new claim).  No
 * record: NEW, from now (a registry that may have forgotten everything, a
 * brand-new one too); OLD_NO_RECORD_GRACE, none while there is no claims
 * row.  Another incarnation: from now.  (A restart on the same timeline,
 * from its start: the Registry's restart sets it.)
 */
inline grace_until()
{
	if
	:: !rec ->
		rec = true;
		rec_other = false;
#ifdef OLD_NO_RECORD_GRACE
		rec_since = (row -> 0 : SINCE_NEVER);
#else
		rec_since = 0;
#endif
		RENEWABLE_FROM_NOW()
	:: rec && rec_other ->
		rec_other = false;
		rec_since = 0;
		RENEWABLE_FROM_NOW()
	:: else -> skip
	fi;
	gu = rec_since + ALLOW
}

/* uniqueid_node_horizon: a horizon over `recorded` for base b, within the registry's allowance */
#define NODE_HORIZON(recorded, b) MAX(recorded, MIN((b) + AHEAD, ALLOW))

/*
 * uniqueid_node_extend's condition: the row is the token's, and the grace
 * period is over or its lease still runs (lease_until + skew >= now).
 */
#define LEASE_RUNS (row_lease + S >= 0)
#ifndef OLD_EXTEND_LAPSED
/* (and lease_until >= renewable_from: a lease that ended before is claimed anew, above the floor) */
#define EXTENDS(h) (row && row_tok == tok[h] && !row_old && (gu <= 0 || LEASE_RUNS))
#else
#define EXTENDS(h) (row && row_tok == tok[h] && (gu <= 0 || LEASE_RUNS))
#endif

/* uniqueid_node_extend: the lease and the horizon moved on (base: the holder's) */
inline extend()
{
	row_lease = MAX(row_lease, L);
	row_old = false;
	hor = NODE_HORIZON(row_hor, base);
	SETHOR(row_hor, hor)
}

/* uniqueid_claim_node(token tok[h], base): the answer in ans, prev, hor */
inline registry_claim(h)
{
	grace_until();
	if
	:: EXTENDS(h) ->
		/* the same claim again (its first try's answer was lost) */
		extend();
		ans = A_NUMBER;
		prev = row_prev;
		hor = row_hor
	:: else ->
		if
		:: gu > 0 ->
			ans = A_GRACE
		:: gu <= 0 && (!row || row_lease + S < 0) ->
			/* the number is free: a new claim, above its previous horizon */
#ifdef OLD_NO_FLOOR
			prev = (row -> row_hor : LOW);
#else
			prev = MAX((row -> row_hor : LOW), gu + S); /* greatest(horizon, floor_at): grace_until + skew */
#endif
#ifdef OLD_RATCHET
			hor = MAX(prev, MIN(MAX(prev, base) + AHEAD, DAY));
#else
			/* uniqueid_node_claim_horizon: base + ahead, or previous + lease if later (prev LOW: base) */
			hor = MAX(prev, MIN(MAX(base + AHEAD, prev + L), ALLOW));
#endif
			row = true;
			row_tok = tok[h];
			row_lease = L;
			row_old = false;
			SETHOR(row_prev, prev);
			SETHOR(row_hor, hor);
			ans = A_NUMBER;
			prev = row_prev;
			hor = row_hor
		:: else ->
			ans = A_NONE
		fi
	fi
}

/* uniqueid_renew_node(number, tok[h], base) */
inline registry_renew(h)
{
	grace_until();
	if
	:: EXTENDS(h) ->
		extend();
		ans = A_RENEWED;
		prev = row_prev;
		hor = row_hor
	:: row && row_tok == tok[h] && !EXTENDS(h) ->
		ans = A_GRACE           /* the token's, not renewed: in the grace period, or ended before renewable_from */
	:: !row ->
		ans = A_NOCLAIM
	:: else ->
		ans = A_OTHER
	fi
}

/* uniqueid_release_node(number, tok[h], horizon = dur[h]) */
inline registry_release(h)
{
	if
	:: row && row_tok == tok[h] ->
		row_lease = ENDED;      /* -infinity */
		row_hor = MAX(row_prev, MIN(row_hor, dur[h]))
	:: else -> skip
	fi
}

/* ---- the holder's side (src/registry.c, src/node.c, src/horizon.c) ---- */


/*
 * uid_node_base_ms: where the horizon recorded starts.  NEW: the clock's
 * high water, or the durable horizon less AHEAD (the lead of an adopted
 * floor is not counted again).  OLD_RATCHET: the durable horizon itself.
 */
#ifdef OLD_RATCHET
#define BASE(h) MAX(VCLOCK(h), dur[h])
#else
#define BASE(h) MAX(VCLOCK(h), dur[h] - AHEAD)
#endif

/* uid_node_fence: no number (the next claim has a new token) */
inline fence(h)
{
	st[h] = IDLE;
	tok[h] = 0;
	hh[h] = LOW;
	safe[h] = 0
}

/*
 * uid_horizon_raise(previous horizon): the durable horizon first, then the
 * generators' high water: NEW to the previous horizon less the lead and the
 * unit (its lead counts as borrowed); OLD_RATCHET to the previous horizon.
 */
inline adopt(h)
{
	if
	:: prev > dur[h] ->
		dur[h] = prev;
		atfloor[h] = true;
#ifdef OLD_RATCHET
		hw[h] = MAX(hw[h], prev)
#else
		hw[h] = MAX(hw[h], prev - D - U)
#endif
	:: else -> skip
	fi
}

/* uid_node_claim, on the registry's answer: the floor raised, then the claim published (uid_node_publish) */
inline holder_claimed(h)
{
	if
	:: ans == A_NUMBER ->
		adopt(h);
		st[h] = HOLD;
		hh[h] = hor;
		safe[h] = L - S         /* (sent now: the monotonic clock) */
	:: else ->
		/* grace, or none free: the answer committed, so the next claim has a new token */
		tok[h] = 0
	fi
}

/* uid_node_renew, on the registry's answer (uid_node_renewed: raise-only) */
inline holder_renewed(h)
{
	if
	:: ans == A_RENEWED ->
		hh[h] = MAX(hh[h], hor);
		safe[h] = L - S
	:: else ->
		/* not renewed (grace: lease_until_ms), no claim of it, or another claim: fenced, a new claim */
		fence(h)
	fi
}

/* a crash: everything volatile lost, the durable horizon kept; the server starts again at once */
inline crash(h)
{
	fence(h);
	hw[h] = HW_NONE(h);         /* (no reading yet: the virtual clock is the wall clock) */
	atfloor[h] = true           /* (the floor: the durable horizon) */
}

/*
 * The next ID's unit end under the number (uid_generate_slow): the clock's
 * unit if it is past the last ID (or floor), else the next unit, borrowed
 * (at most D ahead of the virtual clock), or the floor's first unit after a
 * start or an adoption (uid_horizon_floor_wait lets it go).  Then
 * uid_node_confirm: the lease (monotonic) and the horizon.
 */
#define NEXT_ID(h) MAX(VCLOCK(h) + U, dur[h] + 1)
#define RECOVERED(h) (st[h] == HOLD && safe[h] > 0 && NEXT_ID(h) <= hh[h])
#define ID_ALLOWED(h) \
	(st[h] == HOLD && safe[h] > 0 && NEXT_ID(h) <= hh[h] && \
	 (VCLOCK(h) + U > dur[h] || atfloor[h] || (BORROWS && dur[h] + 1 <= VCLOCK(h) + D + U)))

inline make_id(h)
{
	vc = VCLOCK(h);
	id_end = NEXT_ID(h);
	printf("@id %d %d %d %d\n", h, id_end, vc, highest_id);
	/* Uniqueness: above every ID made under the number before (by any tenure) */
	assert(id_end > highest_id);
	/* Lead: the start of its unit at most LEADMAX past true time */
	assert(id_end - U <= LEADMAX);
	highest_id = id_end;
	dur[h] = id_end;
	atfloor[h] = false;
	hw[h] = vc                  /* (the reading raises the high water) */
}

/* ---- the processes ---- */

/* The clock: true time moves on one tick. */
proctype Clock()
{
	do
#ifdef RECOVERY
	:: d_step { !calm -> calm = true; calm_ticks = 0; printf("@calm\n") }
#endif
	:: d_step {
#ifdef RECOVERY
		/* in the calm, each holder has sent a request this tick and had its answer */
		(!calm || (done[0]
#if NH > 1
		           && done[1]
#endif
#if NH > 2
		           && done[2]
#endif
		));
		/*
		 * Recovery: RECOVER_TICKS after the faults stopped, at the end of
		 * every tick some holder holds the number, its lease runs and its
		 * horizon covers its next ID.
		 */
		recovered = (!calm || calm_ticks < RECOVER_TICKS || RECOVERED(0)
#if NH > 1
		             || RECOVERED(1)
#endif
#if NH > 2
		             || RECOVERED(2)
#endif
		            );
		assert(recovered);
		if
		:: calm && calm_ticks < RECOVER_TICKS -> calm_ticks++
		:: else -> skip
		fi;
		k = 0;
		do
		:: k < NH -> done[k] = false; k++
		:: else -> break
		od;
#endif
		printf("@tick\n");
		DOWN(row_lease, ENDED);
		DOWN(row_hor, LOW);
		DOWN(row_prev, LOW);
		DOWN(rec_since, SINCE_NEVER);
		DOWN(snap_lease, ENDED);
		DOWN(snap_hor, LOW);
		DOWN(snap_prev, LOW);
		DOWN(highest_id, LOW);
		k = 0;
		do
		:: k < NH ->
			/* (hw and off are relative to now already) */
			DOWN(dur[k], LOW);
			DOWN(hh[k], LOW);
			DOWN(safe[k], 0);
			k++
		:: else -> break
		od;
		step_end()
	}
	od
}

/*
 * A holder: its worker (src/registry.c) claims and renews (every third of
 * the lease: here whenever it likes, or never: frozen, cut off), its
 * generators make IDs, it crashes, shuts down cleanly, gives its number up.
 * Each request is processed by the registry as it is sent, its answer
 * received or lost (the outcome unknown).
 */
proctype Holder(byte h)
{
	do
	/* uid_node_claim: uniqueid_claim_node (a new token, or the one of a claim whose outcome is unknown) */
	:: d_step { st[h] == IDLE && DUE(h) ->
		if
		:: tok[h] == 0 -> tok[h] = FRESH
		:: else -> skip
		fi;
		base = BASE(h);
		registry_claim(h);
		printf("@claim %d %d %d %d %d\n", h, ans, prev, hor, base);
		holder_claimed(h);
		DONE(h);
		step_end() }
	:: d_step { FAULT && st[h] == IDLE ->
		if
		:: tok[h] == 0 -> tok[h] = FRESH
		:: else -> skip
		fi;
		base = BASE(h);
		registry_claim(h);      /* (its answer lost: the token kept for the retry) */
		printf("@claimlost %d %d %d %d %d\n", h, ans, prev, hor, base);
		step_end() }
	/* uid_node_renew: uniqueid_renew_node */
	:: d_step { st[h] == HOLD && DUE(h) ->
		base = BASE(h);
		registry_renew(h);
		printf("@renew %d %d %d %d %d\n", h, ans, prev, hor, base);
		holder_renewed(h);
		DONE(h);
		step_end() }
	:: d_step { FAULT && st[h] == HOLD ->
		base = BASE(h);
		registry_renew(h);      /* (its answer lost: nothing extended) */
		printf("@renewlost %d %d %d %d %d\n", h, ans, prev, hor, base);
		step_end() }
	/* an ID under the number (the generators) */
	:: d_step { ID_ALLOWED(h) -> make_id(h); step_end() }
	/* uid_node_release at a clean shutdown (fenced first; with the durable horizon); it starts again */
	:: d_step { FAULT && RELEASES && st[h] == HOLD ->
		printf("@release %d %d\n", h, dur[h]);
		registry_release(h);
		crash(h);
		step_end() }
	/* a crash (kill, power cut) */
	:: d_step { FAULT && (st[h] != IDLE || tok[h] != 0 || hw[h] != HW_NONE(h) || !atfloor[h]) ->
		printf("@crash %d\n", h);
		crash(h);
		step_end() }
	/* the number given up (as 1.7 did on a renewal answered "no row" in the grace period) */
	:: d_step { FAULT && st[h] == HOLD -> printf("@giveup %d\n", h); fence(h); step_end() }
#ifdef JUMPS
	/* the wall clock stepped (or slewed) by a tick, within [OFFLO, OFFHI] */
	:: d_step { FAULT && off[h] < OFFHI -> off[h]++; printf("@clock %d %d\n", h, off[h]); step_end() }
	:: d_step { FAULT && off[h] > OFFLO -> off[h]--; printf("@clock %d %d\n", h, off[h]); step_end() }
#endif
	od
}

/*
 * The registry's faults: it may forget.  Amnesia reverts its state to the
 * empty one (a standby cloned, or a backup taken, before the first claim)
 * or to the snapshot (an asynchronous standby's replay point, a backup)
 * with or without the record (a dump has none), under a new identity; the
 * old primary was stopped first (the operator's rule), so the old state
 * never answers again.  A restart forgets nothing.
 */
proctype Registry()
{
	do
	/* a snapshot: a base backup, or what an asynchronous standby has replayed */
	:: d_step { FAULT ->
		snap_row = row;
		snap_tok = row_tok;
		snap_lease = row_lease;
		snap_hor = row_hor;
		snap_prev = row_prev;
#ifdef OLD_NO_RECORD_GRACE
		snap_rec = rec;
#endif
		printf("@snapshot\n");
		step_end() }
	/* failover to the asynchronous standby, or a restore of the backup: the snapshot, another incarnation */
	:: d_step { FAULT ->
		row = snap_row;
		row_tok = snap_tok;
		row_lease = snap_lease;
		row_hor = snap_hor;
		row_prev = snap_prev;
		row_old = false;                /* (set with since, at the first call) */
		rec = SNAP_REC;
		rec_other = SNAP_REC;
		rec_since = SINCE_NEVER;        /* (another incarnation: from its first call) */
		printf("@failover %d %d\n", row, rec);
		step_end() }
#ifdef OLD_NO_RECORD_GRACE
	/* a restore from a dump of the snapshot: the claims, no record (NEW: as the failover) */
	:: d_step { FAULT ->
		row = snap_row;
		row_tok = snap_tok;
		row_lease = snap_lease;
		row_hor = snap_hor;
		row_prev = snap_prev;
		row_old = false;
		rec = false;
		rec_other = false;
		rec_since = SINCE_NEVER;
		printf("@dump %d\n", row);
		step_end() }
#endif
	/* a standby cloned (or a backup taken) before the first claim, promoted: nothing */
	:: d_step { FAULT ->
		row = false;
		row_tok = 0;
		row_lease = ENDED;
		row_hor = LOW;
		row_prev = LOW;
		row_old = false;
		rec = false;
		rec_other = false;
		rec_since = SINCE_NEVER;
		printf("@empty\n");
		step_end() }
	/* a restart (same timeline): nothing forgotten; the grace period from its start */
	:: d_step { FAULT && rec && !rec_other -> rec_since = 0; RENEWABLE_FROM_NOW(); printf("@restart\n") }
	od
}

init
{
	byte i;
	short o;

	printf("@settings %d %d\n", LOW, L - S);   /* (for model/check.sh --trail) */
	/* each holder's clock offset, once (with -DJUMPS it moves later too) */
	do
	:: i < NH ->
		select(o : OFFLO .. OFFHI);
		atomic {
			off[i] = o;
			printf("@offset %d %d\n", i, o);
			hw[i] = HW_NONE(i);
			dur[i] = LOW;
			atfloor[i] = true;
			hh[i] = LOW;
			i++
		}
	:: else -> break
	od;
	atomic {
		i = 0;
		o = 0;
		run Clock();
		run Registry();
		run Holder(0);
#if NH > 1
		run Holder(1);
#endif
#if NH > 2
		run Holder(2);
#endif
	}
}
