/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_input.h - input formats of the fuzz targets, shared with the seed
 * generator (fuzz_seeds.c). fuzz_opts needs none: its input is the
 * arguments, separated by NUL bytes.
 */
#ifndef UCT_TEST_FUZZ_INPUT_H
#define UCT_TEST_FUZZ_INPUT_H

#include <stdint.h>
#include <string.h>
#include "judge.h"
#include "common.h"
#include "ucounttop_check.h"

/*
 * fuzz_model: a struct fuzz_model_hdr, then passwd_len bytes of passwd
 * text, then struct uct_rec records, then (names >> FN_TASKS_SHIFT)
 * struct uct_tlim task records, then nstats struct uct_stat_kv entries,
 * both taken from the end of the input.
 */
#define FM_EVENTS	0x01	/* --events views */
#define FM_TTY		0x02	/* tty table: width, markers, cursor */
#define FM_SMALL_IDS	0x04	/* fold inums and uids to a few values */
#define FM_NS_FILTER	0x08	/* --ns: the namespace of record pick_ns */
#define FM_UID_FILTER	0x10	/* --uid: the uid of record pick_uid */
#define FM_COLLAPSE	0x20	/* tty: collapse record pick_ns's namespace */
#define FM_CALLER	0x40	/* caller limits from the records */
#define FM_KUID		0x80	/* --kuid, page shift pad[0] % 40 */

/* fuzz_model_hdr.names: what runs in the namespaces (task records) */
#define FN_CONTAINER	0x01	/* --container: a hex prefix from pick_ns */
#define FN_SEARCH	0x02	/* search: the first task record's comm */
#define FN_LOOKUP	0x04	/* cgroup lookups succeed: paths from the
				 * tasks' hostname bytes, or a container's */
#define FN_SCREEN	0x08	/* resolve the first screen only, as a tty */
#define FN_TASKS_SHIFT	4	/* names >> 4: task records */

/* fuzz_model_hdr.users: the passwd files. The text is split at each
 * form feed into up to FU_FILES files: the first is ucounttop's own,
 * the others are a process's by its mount namespace */
#define FU_FILES	3
#define FU_READER	0x01	/* files are read (else no reader at all) */
#define FU_ROTATE	0x02	/* each update, each source's file is the next one */
#define FU_FAIL		0x04	/* reads through an odd pid fail */
#define FU_CUT		0x08	/* the last file is not whole (cut by the cap) */

struct fuzz_model_hdr {
	uint8_t sort;		/* % UCT_SORT_COUNT */
	uint8_t type;		/* % 5 - 1: the -t filter */
	uint8_t flags;		/* FM_* */
	uint8_t updates;	/* 1 + % 3 */
	uint16_t width;		/* tty columns, % 300 */
	uint16_t nstats;	/* stats entries at the end */
	uint8_t win[6];		/* per update: first record, end (first: empty = all) */
	int16_t step;		/* centiseconds between updates */
	uint8_t pick_ns, pick_uid;
	uint8_t pad[1];
	uint8_t names;		/* FN_*, and the number of task records */
	uint8_t users;		/* FU_* */
	uint8_t pad2;
	uint16_t passwd_len;	/* bytes of passwd text after the header */
};

/*
 * fuzz_check: a struct fuzz_check_hdr, then n[A] elements of each array
 * A in this order, as the map records check.c reads.
 */
enum {
	FC_BASE_RECS,		/* struct uck_rec */
	FC_BASE_INV,		/* struct judge_inv_kv */
	FC_BASE_TALLY,		/* struct judge_tally_kv */
	FC_FIN_RECS,
	FC_FIN_INV,
	FC_FIN_TALLY,
	FC_AGG,			/* struct judge_agg_kv */
	FC_ITEMS,		/* struct judge_item_kv */
	FC_OVER,		/* struct judge_over_kv */
	FC_PEND,		/* struct judge_pend_kv */
	FC_FREED,		/* struct judge_free_kv */
	FC_OBJS,		/* struct judge_obj_kv */
	FC_PRE_REL,		/* struct judge_rt_kv */
	FC_GONE,		/* struct judge_rt_kv */
	FC_NARRAYS
};

#define FC_COMPLETE	0x01	/* judge_input.complete */
#define FC_FREE_TP	0x02	/* .have_free_tp */
#define FC_OVERLIMIT	0x04	/* .have_overlimit */
#define FC_MQ		0x08	/* .have_mq_hooks */
#define FC_SHM		0x10	/* .have_shm_hooks */
#define FC_FAIL_OUT	0x20	/* .fail_outstanding */
#define FC_SMALL_IDS	0x40	/* fold inums and uids to a few values */
#define FC_ALL_HOOKS	(FC_COMPLETE | FC_FREE_TP | FC_OVERLIMIT | FC_MQ | FC_SHM)

#define FC_TORN_BASE	0x01	/* base.torn: counters never settled */
#define FC_TORN_FIN	0x02	/* fin.torn */

struct fuzz_check_hdr {
	uint8_t n[FC_NARRAYS];	/* elements per array */
	uint8_t flags;		/* FC_* */
	uint8_t torn;		/* FC_TORN_* */
	uint8_t counters[UCK_NCOUNTERS];	/* drop counters */
	uint8_t missed[JUDGE_NMISS];	/* runs the kernel skipped (judge_input.missed) */
	int32_t status;		/* CMD's wait status, for the reports */
};

/*
 * Magnitudes. Counters, amounts and event counts from the kernel are far
 * below 2^40; limits are too, or LONG_MAX ("unlimited"). Built with
 * -DFUZZ_WIDE the targets take full-range values, which model.c and the
 * judge (input.c bounds what enters it) must survive; without it they
 * fold every 64-bit quantity into +-2^40 and keep LONG_MAX where a limit
 * may hold it, the magnitudes a kernel gives.
 */
#define FUZZ_MAG	(1LL << 40)

static inline void tame_s(void *p)
{
#ifndef FUZZ_WIDE
	long long v;

	memcpy(&v, p, sizeof(v));
	v %= FUZZ_MAG;
	memcpy(p, &v, sizeof(v));
#endif
}

static inline void tame_u(void *p)
{
#ifndef FUZZ_WIDE
	unsigned long long v;

	memcpy(&v, p, sizeof(v));
	v %= FUZZ_MAG;
	memcpy(p, &v, sizeof(v));
#endif
}

/* a limit: "unlimited" stays */
static inline void tame_limit(void *p)
{
	long long v;

	memcpy(&v, p, sizeof(v));
	if (v != 0x7fffffffffffffffLL)
		tame_s(p);
}

/* Any 64-bit field or array of them, by its type. */
#define TAME(x) _Generic((x), unsigned long long: tame_u, unsigned long: tame_u, \
			 default: tame_s)(&(x))
#define TAME_ALL(a) do { for (size_t i_ = 0; i_ < sizeof(a) / sizeof((a)[0]); i_++) \
				 TAME((a)[i_]); } while (0)
#define TAME_LIMITS(a) do { for (size_t i_ = 0; i_ < sizeof(a) / sizeof((a)[0]); i_++) \
				    tame_limit(&(a)[i_]); } while (0)

#endif /* UCT_TEST_FUZZ_INPUT_H */
