// SPDX-License-Identifier: GPL-2.0
/*
 * uct_fault: test-only fault injection for ucounts rlimit accounting.
 *
 * Reproduces, on demand, the classes of bug that upstream fixed after
 * "Count rlimits in each user namespace" was merged, so that the guest
 * tests can prove `ucounttop check` reports each one. Never part of the
 * kernel series: it is built out of tree and loaded only by those tests.
 *
 * Write "OP TYPE AMOUNT" to /sys/kernel/debug/uct_fault/inject, where TYPE
 * is nproc, msgqueue, sigpending or memlock and OP is one of:
 *
 *   leak       charge AMOUNT through inc_rlimit_ucounts() on the caller's
 *              ucounts and never uncharge it (lost uncharge)
 *   double     uncharge AMOUNT through dec_rlimit_ucounts() that was never
 *              charged (double uncharge)
 *   free       charge AMOUNT on a fresh ucounts for uid 4242 in the caller's
 *              user namespace, then drop the last reference: it is freed
 *              while charged
 *   skiplevel  add AMOUNT to the caller's own counter only, skipping the
 *              levels above it (hierarchy mismatch)
 *   admit      charge AMOUNT through inc_rlimit_ucounts(), then ask
 *              is_rlimit_overlimit() with the caller's rlimit plus AMOUNT:
 *              the off-by-AMOUNT comparison of the RLIMIT_NPROC+1 bug. It
 *              says "within limits", so the charge is kept (admitted over
 *              limit) until a work item uncharges it ADMIT_HOLD_MS later,
 *              as the exit of an admitted process would: the counter ends
 *              where it began, only the admission was wrong
 *
 * leak, double and skiplevel hold a reference on the ucounts so that it
 * outlives the workload; "repair" (write it alone) undoes their counter
 * changes and drops the references, so later tests see a sane kernel.
 * free cannot undo the freed ucounts, but "repair" uncharges what it left
 * in the levels above it (nothing when the caller is in the initial
 * namespace, which has none).
 *
 * The ucounts functions are not exported to modules; their addresses come
 * from a kprobe registration, the usual trick for test-only modules.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/version.h>

/*
 * Take a reference of our own on a ucounts the caller holds one on: an
 * atomic_t before 6.15, an rcuref_t since (which get_ucounts(), inline
 * there, takes; it cannot fail while the caller's reference lasts).
 */
static void uct_get(struct ucounts *ucounts)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
	WARN_ON_ONCE(!get_ucounts(ucounts));
#else
	atomic_inc(&ucounts->count);
#endif
}

#define FAULT_FREE_UID 4242
#define ADMIT_HOLD_MS 200

static long (*fn_inc_rlimit_ucounts)(struct ucounts *, enum rlimit_type, long);
/* our series (v3): inc_rlimit_ucounts() is an inline wrapper of this one */
static long (*fn_inc_rlimit_ucounts_over)(struct ucounts *, enum rlimit_type, long, void *);
static bool (*fn_dec_rlimit_ucounts)(struct ucounts *, enum rlimit_type, long);
static struct ucounts *(*fn_alloc_ucounts)(struct user_namespace *, kuid_t);
static void (*fn_put_ucounts)(struct ucounts *);
static bool (*fn_is_rlimit_overlimit)(struct ucounts *, enum rlimit_type, unsigned long);
/* our series: is_rlimit_overlimit() is an inline wrapper of this one */
static bool (*fn_ucounts_overlimit)(struct ucounts *, enum rlimit_type, unsigned long, void *);

/* The kernel's charge, through the function tools hook */
static long inc_rlimit(struct ucounts *uc, enum rlimit_type type, long v)
{
	if (fn_inc_rlimit_ucounts_over)
		return fn_inc_rlimit_ucounts_over(uc, type, v, NULL);
	return fn_inc_rlimit_ucounts(uc, type, v);
}

/* The kernel's limit check, through the function tools hook */
static bool overlimit(struct ucounts *uc, enum rlimit_type type, unsigned long lim)
{
	if (fn_ucounts_overlimit)
		return fn_ucounts_overlimit(uc, type, lim, NULL);
	return fn_is_rlimit_overlimit(uc, type, lim);
}

/* A fault whose effect "repair" undoes. */
struct held_fault {
	struct list_head node;
	struct ucounts *ucounts;
	enum rlimit_type type;
	long delta;		/* what was added to the counter(s) */
	bool whole_chain;	/* through the functions (all levels) or leaf only */
};

static LIST_HEAD(held_faults);
static DEFINE_MUTEX(fault_lock);
static struct dentry *fault_dir;

/* An admitted charge, uncharged later by a work item. */
struct admitted {
	struct list_head node;
	struct delayed_work work;
	struct ucounts *ucounts;
	enum rlimit_type type;
	long amount;
};

static LIST_HEAD(admitted_charges);
static DEFINE_SPINLOCK(admitted_lock);

static const char * const type_names[UCOUNT_RLIMIT_COUNTS] = {
	[UCOUNT_RLIMIT_NPROC] = "nproc",
	[UCOUNT_RLIMIT_MSGQUEUE] = "msgqueue",
	[UCOUNT_RLIMIT_SIGPENDING] = "sigpending",
	[UCOUNT_RLIMIT_MEMLOCK] = "memlock",
};

static void *lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	void *addr;

	if (register_kprobe(&kp) < 0)
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

static int hold(struct ucounts *ucounts, enum rlimit_type type, long delta,
		bool whole_chain)
{
	struct held_fault *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	uct_get(ucounts);
	f->ucounts = ucounts;
	f->type = type;
	f->delta = delta;
	f->whole_chain = whole_chain;
	list_add(&f->node, &held_faults);
	return 0;
}

static void repair(void)
{
	struct held_fault *f, *tmp;

	list_for_each_entry_safe(f, tmp, &held_faults, node) {
		if (!f->whole_chain)
			atomic_long_sub(f->delta, &f->ucounts->rlimit[f->type]);
		else if (f->delta > 0)
			fn_dec_rlimit_ucounts(f->ucounts, f->type, f->delta);
		else
			inc_rlimit(f->ucounts, f->type, -f->delta);
		fn_put_ucounts(f->ucounts);
		list_del(&f->node);
		kfree(f);
	}
}

static void admitted_release(struct admitted *a)
{
	fn_dec_rlimit_ucounts(a->ucounts, a->type, a->amount);
	fn_put_ucounts(a->ucounts);
	kfree(a);
}

static void admitted_work(struct work_struct *work)
{
	struct admitted *a = container_of(to_delayed_work(work), struct admitted, work);

	spin_lock(&admitted_lock);
	list_del(&a->node);
	spin_unlock(&admitted_lock);
	admitted_release(a);
}

/* The rlimit of current that the callers compare the leaf with. */
static unsigned long caller_rlimit(enum rlimit_type type)
{
	static const int res[UCOUNT_RLIMIT_COUNTS] = {
		[UCOUNT_RLIMIT_NPROC] = RLIMIT_NPROC,
		[UCOUNT_RLIMIT_MSGQUEUE] = RLIMIT_MSGQUEUE,
		[UCOUNT_RLIMIT_SIGPENDING] = RLIMIT_SIGPENDING,
		[UCOUNT_RLIMIT_MEMLOCK] = RLIMIT_MEMLOCK,
	};
	unsigned long lim = rlimit(res[type]);

	if (type == UCOUNT_RLIMIT_MEMLOCK && lim != RLIM_INFINITY)
		lim >>= PAGE_SHIFT;
	return lim;
}

static int admit(struct ucounts *uc, enum rlimit_type type, long amount)
{
	struct admitted *a = kzalloc(sizeof(*a), GFP_KERNEL);
	unsigned long lim = caller_rlimit(type);

	if (!a)
		return -ENOMEM;
	inc_rlimit(uc, type, amount);
	/* the buggy check: too large a limit, so it never refuses */
	if (overlimit(uc, type, lim > LONG_MAX - amount ? lim : lim + amount)) {
		fn_dec_rlimit_ucounts(uc, type, amount);
		kfree(a);
		return -EAGAIN;
	}
	uct_get(uc);
	a->ucounts = uc;
	a->type = type;
	a->amount = amount;
	INIT_DELAYED_WORK(&a->work, admitted_work);
	spin_lock(&admitted_lock);
	list_add(&a->node, &admitted_charges);
	spin_unlock(&admitted_lock);
	schedule_delayed_work(&a->work, msecs_to_jiffies(ADMIT_HOLD_MS));
	return 0;
}

static int inject(const char *op, enum rlimit_type type, long amount)
{
	struct ucounts *uc = current_ucounts();

	if (!strcmp(op, "leak")) {
		inc_rlimit(uc, type, amount);
		return hold(uc, type, amount, true);
	}
	if (!strcmp(op, "double")) {
		fn_dec_rlimit_ucounts(uc, type, amount);
		return hold(uc, type, -amount, true);
	}
	if (!strcmp(op, "skiplevel")) {
		atomic_long_add(amount, &uc->rlimit[type]);
		return hold(uc, type, amount, false);
	}
	if (!strcmp(op, "admit"))
		return admit(uc, type, amount);
	if (!strcmp(op, "free")) {
		kuid_t uid = make_kuid(current_user_ns(), FAULT_FREE_UID);
		struct ucounts *parent;
		int ret = 0;

		uc = fn_alloc_ucounts(current_user_ns(), uid);
		if (!uc)
			return -ENOMEM;
		inc_rlimit(uc, type, amount);
		/* what the levels above keep, for "repair" */
		parent = uc->ns->ucounts;
		if (parent)
			ret = hold(parent, type, amount, true);
		fn_put_ucounts(uc);
		return ret;
	}
	return -EINVAL;
}

static ssize_t inject_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[64], op[16], tname[16];
	long amount;
	int type, ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';

	mutex_lock(&fault_lock);
	if (sscanf(buf, "%15s", op) == 1 && !strcmp(op, "repair")) {
		repair();
		ret = 0;
		goto out;
	}
	ret = -EINVAL;
	if (sscanf(buf, "%15s %15s %ld", op, tname, &amount) != 3 || amount <= 0)
		goto out;
	for (type = 0; type < UCOUNT_RLIMIT_COUNTS; type++)
		if (!strcmp(tname, type_names[type]))
			break;
	if (type == UCOUNT_RLIMIT_COUNTS)
		goto out;
	ret = inject(op, type, amount);
out:
	mutex_unlock(&fault_lock);
	return ret ? ret : len;
}

static const struct file_operations inject_fops = {
	.owner = THIS_MODULE,
	.write = inject_write,
};

static int __init uct_fault_init(void)
{
	fn_inc_rlimit_ucounts_over = lookup("inc_rlimit_ucounts_over");
	if (!fn_inc_rlimit_ucounts_over)
		fn_inc_rlimit_ucounts = lookup("inc_rlimit_ucounts");
	fn_dec_rlimit_ucounts = lookup("dec_rlimit_ucounts");
	fn_alloc_ucounts = lookup("alloc_ucounts");
	fn_put_ucounts = lookup("put_ucounts");
	fn_ucounts_overlimit = lookup("ucounts_overlimit");
	if (!fn_ucounts_overlimit)
		fn_is_rlimit_overlimit = lookup("is_rlimit_overlimit");
	if ((!fn_inc_rlimit_ucounts && !fn_inc_rlimit_ucounts_over) || !fn_dec_rlimit_ucounts ||
	    !fn_alloc_ucounts || !fn_put_ucounts ||
	    (!fn_ucounts_overlimit && !fn_is_rlimit_overlimit)) {
		pr_err("uct_fault: ucounts functions not found (kprobes?)\n");
		return -ENOENT;
	}
	fault_dir = debugfs_create_dir("uct_fault", NULL);
	debugfs_create_file("inject", 0200, fault_dir, NULL, &inject_fops);
	return 0;
}

static void __exit uct_fault_exit(void)
{
	struct admitted *a;

	debugfs_remove_recursive(fault_dir);
	mutex_lock(&fault_lock);
	repair();
	mutex_unlock(&fault_lock);
	/* admitted charges not released yet: release them now */
	for (;;) {
		spin_lock(&admitted_lock);
		a = list_first_entry_or_null(&admitted_charges, struct admitted, node);
		spin_unlock(&admitted_lock);
		if (!a)
			break;
		if (cancel_delayed_work_sync(&a->work)) {
			spin_lock(&admitted_lock);
			list_del(&a->node);
			spin_unlock(&admitted_lock);
			admitted_release(a);
		}
	}
}

module_init(uct_fault_init);
module_exit(uct_fault_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ucounttop test-only ucounts fault injection");
