/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model_internal.h - what the model's three files share and no other
 * layer may use: model.c builds the tree, layout.c orders it for display,
 * nsnames.c names its namespaces. The API is model.h.
 */
#ifndef UCT_MODEL_INTERNAL_H
#define UCT_MODEL_INTERNAL_H

#include "grow.h"
#include "model.h"

/* The model's arrays grow with uct_grow() and never shrink: an update
 * reuses the last one's memory. */

/* Whether the tty collapsed namespace inum (layout.c): a namespace of a
 * new snapshot starts as collapsed as the one of the same inum was */
bool uct_model_collapsed(const struct uct_model *m, __u32 inum);

/* The name of a namespace no process is in (nsnames.c): zeros, shared */
extern const struct uct_nsname uct_no_nsname;

/* Look cgroup e's path up through process pid (nsnames.c): its path and
 * container set, or e->failed_pid = pid when the lookup fails */
void uct_model_lookup_cgroup(struct uct_model *m, struct uct_cgname *e, __u32 pid);

/* The row of ucounts address id (model.c), -1: none */
int uct_model_find_row_by_id(const struct uct_model *m, __u64 id);


/* Each row's processes and refusals by cgroup (shares.c), from the task
 * records of this update and m->cg_denials; before the cgroup cache is
 * swept. 0 or -ENOMEM. */
int uct_model_build_shares(struct uct_model *m, const struct uct_tlim *tl, size_t n);
/* Their cgroups and containers, looked up once per update as the row is
 * resolved (uct_model_resolve_names()): then containers first, the most
 * processes first */
void uct_model_name_shares(struct uct_model *m, struct uct_row *r);

#endif /* UCT_MODEL_INTERNAL_H */
