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

#endif /* UCT_MODEL_INTERNAL_H */
