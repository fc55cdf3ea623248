// SPDX-License-Identifier: GPL-2.0
/*
 * core_relocs - does every CO-RE relocation of our BPF objects resolve on
 * each kernel we support? Answered on the host from the objects' .BTF.ext
 * and the kernels' BTF, loading nothing.
 *
 *   core_relocs [-v] OBJ.bpf.o... -- NAME=BTF_PATH...
 *
 * BTF_PATH is raw BTF (/sys/kernel/btf/vmlinux) or an ELF vmlinux.
 *
 * The matching is a simplified libbpf relo_core.c: a relocation's local
 * root type has candidates in the kernel of the same kind and essential
 * name (the name up to a "___flavour" suffix); its access string is walked
 * member by member by name in each candidate, looking into anonymous
 * struct/union members, each member checked for compatibility as
 * bpf_core_fields_are_compat() does. A relocation no candidate satisfies
 * is poisoned by libbpf, and the verifier refuses the program unless that
 * instruction is dead code. We cannot see dead code, so we look for its
 * usual cause: an existence check (bpf_core_field_exists() and friends)
 * in the same function, on the same local type and the same member or
 * one that contains it, which is false on that kernel. Such a relocation
 * is "guarded"; any other unresolved one is a failure.
 *
 * Existence checks never fail, nor do a type's id or size, which libbpf
 * makes 0 when the kernel lacks the type; those are noted. So is a member
 * whose struct became another one: libbpf relocates it all the same.
 *
 * Programs whose hook the kernel lacks are not loaded there (the loader
 * probes hooks), so their relocations do not count; nor do those of .text
 * subprograms that no loaded program reaches.
 *
 * TAP on stdout, one test per object and kernel; "insn" numbers are
 * instruction indexes within the ELF section, as llvm-objdump -d shows
 * them. Exit 0 when all pass, 1 on any failure, 2 on a usage or parse
 * error.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#ifndef EM_BPF
#define EM_BPF		247
#endif
#define BTF_EXT_MAGIC	0xeB9F
#define MAX_ACCESS	64	/* libbpf's BPF_CORE_SPEC_MAX_LEN */
#define MAX_DEPTH	32	/* nesting we follow, as libbpf */

enum relo_kind {
	FIELD_BYTE_OFFSET,
	FIELD_BYTE_SIZE,
	FIELD_EXISTS,
	FIELD_SIGNED,
	FIELD_LSHIFT_U64,
	FIELD_RSHIFT_U64,
	TYPE_ID_LOCAL,
	TYPE_ID_TARGET,
	TYPE_EXISTS,
	TYPE_SIZE,
	ENUMVAL_EXISTS,
	ENUMVAL_VALUE,
	TYPE_MATCHES,
	NR_KINDS,
};

static const char *const kind_names[NR_KINDS] = {
	"FIELD_BYTE_OFFSET", "FIELD_BYTE_SIZE", "FIELD_EXISTS", "FIELD_SIGNED",
	"FIELD_LSHIFT_U64", "FIELD_RSHIFT_U64", "TYPE_ID_LOCAL", "TYPE_ID_TARGET",
	"TYPE_EXISTS", "TYPE_SIZE", "ENUMVAL_EXISTS", "ENUMVAL_VALUE", "TYPE_MATCHES",
};

/* The .BTF.ext header (libbpf_internal.h; not in any uapi header) */
struct btf_ext_hdr {
	__u16 magic;
	__u8 version;
	__u8 flags;
	__u32 hdr_len;
	__u32 func_info_off;
	__u32 func_info_len;
	__u32 line_info_off;
	__u32 line_info_len;
	__u32 core_relo_off;
	__u32 core_relo_len;
};

/* One element of the local access path, anonymous members left out */
struct step {
	const char *name;	/* member or enumerator name; NULL: array index */
	__u32 idx;		/* the array index when name is NULL */
	__u32 type_id;		/* local type of the member */
};

struct relo {
	size_t insn;		/* index within its section */
	__u32 type_id;		/* local root type */
	__u32 kind;
	const char *access;	/* "0:3:1" */
	__u32 raw[MAX_ACCESS];	/* the access string, parsed */
	int nraw;
	struct step steps[MAX_ACCESS];
	int nsteps;
	char path[256];		/* "root.member[2].sub", for the report */
	int func;		/* the function holding the instruction */
};

struct func {
	const char *name;
	int sec;		/* index into obj->secs */
	size_t start, end;	/* instructions [start, end) of that section */
	int *callees;		/* .text subprograms it calls or takes the address of */
	int ncallees;
	bool loaded;		/* on the kernel being checked */
};

struct sec {
	const char *name;
	size_t shndx;
	const struct bpf_insn *insns;
	size_t ninsns;
	bool *relocated;	/* insn has an ELF relocation */
};

struct obj {
	const char *path;
	const char *name;
	Elf *elf;
	struct btf *btf;
	struct sec *secs;
	int nsecs;
	int text;		/* index of .text in secs, -1 if none */
	struct func *funcs;
	int nfuncs;
	struct relo *relos;
	int nrelos;
};

/* A named type of a kernel, keyed by essential name and kind */
struct cand {
	const char *name;
	size_t len;		/* essential length */
	int kind;		/* ENUM64 counts as ENUM: they match each other */
	__u32 id;
};

struct target {
	const char *name;
	const char *path;
	struct btf *btf;
	struct cand *cands;
	size_t ncands;
};

/* The outcome of one relocation on one kernel */
enum res {
	RES_OK,
	RES_NONE,	/* no candidate satisfies it: libbpf poisons the insn */
	RES_FATAL,	/* libbpf refuses the object whatever the code does */
};

#define WHY_LEN	1024

struct verdict {
	enum res res;
	char why[WHY_LEN];	/* why unresolved or refused */
	char note[WHY_LEN];	/* resolved, but a struct changed its name */
};

static bool verbose;

static void __attribute__((noreturn, format(printf, 2, 3)))
parse_error(const char *file, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "core_relocs: %s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* errno after a libbpf call: libbpf's own codes (4000 up) too */
static const char *btf_err(void)
{
	static char buf[128];
	int err = errno ? errno : EINVAL;

	if (libbpf_strerror(err, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "%s", strerror(err));
	return buf;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "core_relocs: out of memory\n");
		exit(2);
	}
	return p;
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	p = realloc(p, (n ? n : 1) * size);
	if (!p) {
		fprintf(stderr, "core_relocs: out of memory\n");
		exit(2);
	}
	return p;
}

/* ---- BTF helpers ---------------------------------------------------------- */

static const char *str(const struct btf *btf, __u32 off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

/* Length of name up to its "___flavour" suffix: the last "x___y" with x
 * and y not underscores ends the essential name. */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name), i;

	for (i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;) {
		if (name[i] != '_' && !strncmp(name + i + 1, "___", 3) && name[i + 4] != '_')
			return i + 1;
	}
	return n;
}

/* Follow typedefs and const/volatile/restrict/type tags to the type they
 * name; *id becomes its id. */
static const struct btf_type *skip_mods(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);
	int depth = 0;

	while (t && depth++ < MAX_DEPTH) {
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			*id = t->type;
			t = btf__type_by_id(btf, *id);
			continue;
		}
		return t;
	}
	return NULL;
}

static const char *kind_str(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT:	return "int";
	case BTF_KIND_PTR:	return "pointer";
	case BTF_KIND_ARRAY:	return "array";
	case BTF_KIND_STRUCT:	return "struct";
	case BTF_KIND_UNION:	return "union";
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:	return "enum";
	case BTF_KIND_FWD:	return "forward declaration";
	case BTF_KIND_TYPEDEF:	return "typedef";
	case BTF_KIND_FUNC_PROTO: return "function prototype";
	case BTF_KIND_FLOAT:	return "float";
	case BTF_KIND_FUNC:	return "function";
	case BTF_KIND_VAR:	return "variable";
	case BTF_KIND_DATASEC:	return "section";
	default:		return "type";
	}
}

/* The name of the nearest typedef on the way from id to what it names */
static const char *typedef_name(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && depth++ < MAX_DEPTH && (btf_is_mod(t) || btf_is_typedef(t))) {
		if (btf_is_typedef(t))
			return str(btf, t->name_off);
		t = btf__type_by_id(btf, t->type);
	}
	return "";
}

/* "struct sigqueue", "pointer", "int", "rcuref_t (an anonymous struct)":
 * what a member is, for the report */
static void describe(const struct btf *btf, __u32 id, char *buf, size_t len)
{
	const char *tdname = typedef_name(btf, id);
	const struct btf_type *t = skip_mods(btf, &id);
	const char *name;

	if (!t) {
		snprintf(buf, len, "a broken type");
		return;
	}
	if (!id) {
		snprintf(buf, len, "void");
		return;
	}
	name = str(btf, t->name_off);
	if (!*name && *tdname && btf_is_composite(t))
		snprintf(buf, len, "%s (an anonymous %s)", tdname, kind_str(t));
	else
		snprintf(buf, len, "%s%s%s", kind_str(t), *name ? " " : "", name);
}

/* Same essential name? */
static bool same_name(const char *a, const char *b)
{
	size_t al = essential_len(a), bl = essential_len(b);

	return al == bl && !strncmp(a, b, al);
}

/*
 * Can a member of local type lid be read as the target's member of type
 * tid? As libbpf's bpf_core_fields_are_compat(): any two structs or unions
 * are, as are any two pointers (pointees not compared), ints unless they
 * are old bit-field style ints, enums of one name (or an anonymous one),
 * and arrays whose elements are.
 */
static bool fields_compat(const struct btf *lbtf, __u32 lid,
			  const struct btf *tbtf, __u32 tid)
{
	const struct btf_type *lt, *tt;
	const char *ln, *tn;
	size_t ll, tl;
	int depth;

	for (depth = 0; depth < MAX_DEPTH; depth++) {
		lt = skip_mods(lbtf, &lid);
		tt = skip_mods(tbtf, &tid);
		if (!lt || !tt)
			return false;
		if (btf_is_composite(lt) && btf_is_composite(tt))
			return true;
		if (!btf_kind_core_compat(lt, tt))
			return false;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return true;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			ln = str(lbtf, lt->name_off);
			tn = str(tbtf, tt->name_off);
			ll = essential_len(ln);
			tl = essential_len(tn);
			return !ll || !tl || (ll == tl && !strncmp(ln, tn, ll));
		case BTF_KIND_INT:
			return !btf_int_offset(lt) && !btf_int_offset(tt);
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		default:
			return false;
		}
	}
	return false;
}

/*
 * Is the member's struct another one in the kernel? libbpf relocates any
 * struct member onto any struct member of the same name, so a member
 * whose type became another struct (list_head to hlist_head, atomic_t to
 * rcuref_t) resolves, and the program reads it with the layout it was
 * compiled for. Worth a note, not a failure: the program loads. Named
 * structs compare by name, anonymous ones by their typedef's.
 */
static bool renamed(const struct btf *lbtf, __u32 lid, const struct btf *tbtf, __u32 tid)
{
	const char *ltd = typedef_name(lbtf, lid), *ttd = typedef_name(tbtf, tid);
	const struct btf_type *lt = skip_mods(lbtf, &lid), *tt = skip_mods(tbtf, &tid);
	const char *ln, *tn;

	if (!lt || !tt || !btf_is_composite(lt) || !btf_is_composite(tt))
		return false;
	ln = str(lbtf, lt->name_off);
	tn = str(tbtf, tt->name_off);
	if (*ln && *tn)
		return !same_name(ln, tn);
	if (!*ln && !*tn && *ltd && *ttd)
		return !same_name(ltd, ttd);
	return false;
}

/*
 * Is the target's type tid the local type lid, for TYPE_ID_TARGET,
 * TYPE_SIZE and TYPE_EXISTS? As libbpf's __bpf_core_types_are_compat(),
 * simplified: kinds match, pointers and arrays compared by what they
 * point at or hold, function prototypes by their parameters and return.
 */
static bool types_compat(const struct btf *lbtf, __u32 lid,
			 const struct btf *tbtf, __u32 tid, int level)
{
	const struct btf_type *lt, *tt;
	const struct btf_param *lp, *tp;
	int depth, i;

	lt = btf__type_by_id(lbtf, lid);
	tt = btf__type_by_id(tbtf, tid);
	if (!lt || !tt || !btf_kind_core_compat(lt, tt))
		return false;
	for (depth = 0; depth < MAX_DEPTH; depth++) {
		lt = skip_mods(lbtf, &lid);
		tt = skip_mods(tbtf, &tid);
		if (!lt || !tt || !btf_kind_core_compat(lt, tt))
			return false;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			return true;
		case BTF_KIND_INT:
			return !btf_int_offset(lt) && !btf_int_offset(tt);
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO:
			if (btf_vlen(lt) != btf_vlen(tt) || level <= 0)
				return false;
			lp = btf_params(lt);
			tp = btf_params(tt);
			for (i = 0; i < btf_vlen(lt); i++, lp++, tp++)
				if (!types_compat(lbtf, lp->type, tbtf, tp->type, level - 1))
					return false;
			lid = lt->type;
			tid = tt->type;
			continue;
		default:
			return false;
		}
	}
	return false;
}

/* ---- the kernels ---------------------------------------------------------- */

static int kind_key(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_ENUM64 ? BTF_KIND_ENUM : btf_kind(t);
}

static int cand_cmp_key(const char *an, size_t al, int ak, const struct cand *b)
{
	size_t n = al < b->len ? al : b->len;
	int c = memcmp(an, b->name, n);

	if (c)
		return c;
	if (al != b->len)
		return al < b->len ? -1 : 1;
	return ak - b->kind;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = cand_cmp_key(x->name, x->len, x->kind, y);

	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void load_target(struct target *tg, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const struct btf_type *t;
	const char *name;
	__u32 id, n;

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "core_relocs: target '%s' is not NAME=BTF_PATH\n", arg);
		exit(2);
	}
	tg->name = strndup(arg, eq - arg);
	tg->path = eq + 1;
	errno = 0;
	tg->btf = btf__parse(tg->path, NULL);
	if (!tg->btf)
		parse_error(tg->path, "cannot read BTF: %s (raw BTF or an ELF file with .BTF expected)",
			    btf_err());

	/* Every named type, sorted, so each relocation's candidates are
	 * found by a binary search rather than a scan of 100k types. */
	n = btf__type_cnt(tg->btf);
	tg->cands = xcalloc(n, sizeof(*tg->cands));
	for (id = 1; id < n; id++) {
		t = btf__type_by_id(tg->btf, id);
		name = str(tg->btf, t->name_off);
		if (!*name)
			continue;
		tg->cands[tg->ncands].name = name;
		tg->cands[tg->ncands].len = essential_len(name);
		tg->cands[tg->ncands].kind = kind_key(t);
		tg->cands[tg->ncands].id = id;
		tg->ncands++;
	}
	qsort(tg->cands, tg->ncands, sizeof(*tg->cands), cand_cmp);
}

/* The target's types of the same kind and essential name as the local
 * type t: *first, and the count returned. */
static size_t find_cands(const struct target *tg, const struct btf *lbtf,
			 const struct btf_type *t, const struct cand **first)
{
	const char *name = str(lbtf, t->name_off);
	size_t len = essential_len(name), lo = 0, hi = tg->ncands, end;
	int kind = kind_key(t);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cand_cmp_key(name, len, kind, &tg->cands[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < tg->ncands; end++)
		if (cand_cmp_key(name, len, kind, &tg->cands[end]))
			break;
	*first = &tg->cands[lo];
	return end - lo;
}

/* Is the program of ELF section sec attached to a hook this kernel has?
 * The same BTF names the loader probes. */
static bool hook_present(const struct btf *btf, const char *sec)
{
	char name[256];

	if (!strncmp(sec, "fentry/", 7))
		return btf__find_by_name_kind(btf, sec + 7, BTF_KIND_FUNC) > 0;
	if (!strncmp(sec, "fexit/", 6))
		return btf__find_by_name_kind(btf, sec + 6, BTF_KIND_FUNC) > 0;
	if (!strncmp(sec, "tp_btf/", 7)) {
		snprintf(name, sizeof(name), "btf_trace_%s", sec + 7);
		return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
	}
	if (!strncmp(sec, "iter/", 5)) {
		snprintf(name, sizeof(name), "bpf_iter_%s", sec + 5);
		return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
	}
	return true;
}

/* ---- the objects ---------------------------------------------------------- */

static int sec_by_shndx(const struct obj *o, size_t shndx)
{
	int i;

	for (i = 0; i < o->nsecs; i++)
		if (o->secs[i].shndx == shndx)
			return i;
	return -1;
}

static int sec_by_name(const struct obj *o, const char *name)
{
	int i;

	for (i = 0; i < o->nsecs; i++)
		if (!strcmp(o->secs[i].name, name))
			return i;
	return -1;
}

static int func_at(const struct obj *o, int sec, size_t insn)
{
	int i;

	for (i = 0; i < o->nfuncs; i++)
		if (o->funcs[i].sec == sec && insn >= o->funcs[i].start && insn < o->funcs[i].end)
			return i;
	return -1;
}

static void add_callee(struct func *f, int callee)
{
	int i;

	for (i = 0; i < f->ncallees; i++)
		if (f->callees[i] == callee)
			return;
	f->callees = xrealloc(f->callees, f->ncallees + 1, sizeof(*f->callees));
	f->callees[f->ncallees++] = callee;
}

/* An edge from the function holding insn idx of section sec to the .text
 * subprogram holding .text instruction target. */
static void add_edge(struct obj *o, int sec, size_t idx, long long target)
{
	int from = func_at(o, sec, idx), to;

	if (o->text < 0 || target < 0)
		parse_error(o->path, "%s: insn %zu calls outside .text", o->secs[sec].name, idx);
	to = func_at(o, o->text, target);
	if (from < 0 || to < 0)
		parse_error(o->path, "%s: insn %zu calls .text insn %lld, which no function symbol covers",
			    o->secs[sec].name, idx, target);
	add_callee(&o->funcs[from], to);
}

static bool is_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_CALL;
}

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/*
 * Which subprograms each function reaches. As libbpf does: a call or a
 * 64-bit load (a bpf_loop callback's address) with an ELF relocation
 * against a .text symbol reaches .text at the symbol's offset plus imm; a
 * call without one stays in its own section, imm insns after itself.
 */
static void read_calls(struct obj *o, Elf_Data *symdata, Elf_Scn *scn, const GElf_Shdr *sh)
{
	int sec = sec_by_shndx(o, sh->sh_info);
	const struct bpf_insn *insn;
	Elf_Data *data;
	GElf_Rel rel;
	GElf_Sym sym;
	size_t i, n, idx;

	if (sec < 0)
		return;		/* relocations of data or of .BTF */
	data = elf_getdata(scn, NULL);
	if (!data || !sh->sh_entsize)
		parse_error(o->path, "cannot read the relocations of %s", o->secs[sec].name);
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getrel(data, i, &rel) || !gelf_getsym(symdata, GELF_R_SYM(rel.r_info), &sym))
			parse_error(o->path, "relocation %zu of %s is unreadable", i, o->secs[sec].name);
		idx = rel.r_offset / sizeof(struct bpf_insn);
		if (idx >= o->secs[sec].ninsns)
			parse_error(o->path, "relocation %zu of %s points past its end", i,
				    o->secs[sec].name);
		o->secs[sec].relocated[idx] = true;
		if (o->text < 0 || sym.st_shndx != o->secs[o->text].shndx)
			continue;
		insn = &o->secs[sec].insns[idx];
		if (is_call(insn))
			add_edge(o, sec, idx, (long long)(sym.st_value / 8) + insn->imm + 1);
		else if (is_ldimm64(insn))
			add_edge(o, sec, idx, ((long long)sym.st_value + insn->imm) / 8);
	}
}

static void read_local_calls(struct obj *o)
{
	const struct bpf_insn *insn;
	int s;
	size_t i;

	for (s = 0; s < o->nsecs; s++) {
		for (i = 0; i < o->secs[s].ninsns; i++) {
			insn = &o->secs[s].insns[i];
			if (is_ldimm64(insn)) {
				i++;	/* its second half is no instruction */
				continue;
			}
			if (!is_call(insn) || o->secs[s].relocated[i])
				continue;
			if (s != o->text)
				parse_error(o->path, "%s: insn %zu calls within its section, not into .text",
					    o->secs[s].name, i);
			add_edge(o, s, i, (long long)i + insn->imm + 1);
		}
	}
}

static void read_funcs(struct obj *o, Elf_Data *symdata, const GElf_Shdr *symsh)
{
	size_t i, n = symsh->sh_entsize ? symsh->sh_size / symsh->sh_entsize : 0;
	GElf_Sym sym;
	struct func *f;
	int sec;

	o->funcs = xcalloc(n, sizeof(*o->funcs));
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(symdata, i, &sym))
			parse_error(o->path, "symbol %zu is unreadable", i);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size)
			continue;
		sec = sec_by_shndx(o, sym.st_shndx);
		if (sec < 0)
			continue;
		f = &o->funcs[o->nfuncs++];
		f->name = elf_strptr(o->elf, symsh->sh_link, sym.st_name);
		if (!f->name)
			parse_error(o->path, "symbol %zu has no name", i);
		f->sec = sec;
		f->start = sym.st_value / sizeof(struct bpf_insn);
		f->end = (sym.st_value + sym.st_size) / sizeof(struct bpf_insn);
		if (f->end > o->secs[sec].ninsns)
			parse_error(o->path, "function %s runs past the end of %s", f->name,
				    o->secs[sec].name);
	}
}

/* Parse the access string and walk it through the local types, keeping
 * the named members and array indexes (libbpf's "high-level" spec). */
static void parse_access(struct obj *o, struct relo *r, const char *secname)
{
	const struct btf *btf = o->btf;
	const struct btf_type *t, *root;
	const struct btf_member *m;
	const char *s = r->access, *name;
	__u32 id = r->type_id;
	size_t used;
	int i, len;
	char *end;

	root = btf__type_by_id(btf, r->type_id);
	if (!root)
		parse_error(o->path, "%s: insn %zu: relocation of unknown type [%u]", secname,
			    r->insn, r->type_id);
	name = str(btf, root->name_off);
	used = snprintf(r->path, sizeof(r->path), "%s", *name ? name : "(anonymous)");

	while (*s) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || (*end && *end != ':') || r->nraw == MAX_ACCESS)
			parse_error(o->path, "%s: insn %zu: bad access string '%s'", secname,
				    r->insn, r->access);
		r->raw[r->nraw++] = v;
		s = *end ? end + 1 : end;
	}
	if (!r->nraw)
		parse_error(o->path, "%s: insn %zu: empty access string", secname, r->insn);

	if (r->kind >= TYPE_ID_LOCAL && r->kind <= TYPE_SIZE) {
		if (r->nraw != 1 || r->raw[0])
			parse_error(o->path, "%s: insn %zu: type relocation with access '%s'",
				    secname, r->insn, r->access);
		return;
	}
	if (r->kind == ENUMVAL_EXISTS || r->kind == ENUMVAL_VALUE) {
		t = skip_mods(btf, &id);
		if (!t || !btf_is_any_enum(t) || r->nraw != 1 || r->raw[0] >= btf_vlen(t))
			parse_error(o->path, "%s: insn %zu: enum relocation with access '%s'",
				    secname, r->insn, r->access);
		r->steps[0].name = str(btf, btf_is_enum(t) ? btf_enum(t)[r->raw[0]].name_off :
							    btf_enum64(t)[r->raw[0]].name_off);
		r->nsteps = 1;
		snprintf(r->path + used, sizeof(r->path) - used, ".%s", r->steps[0].name);
		return;
	}
	if (r->kind == TYPE_MATCHES) {
		if (r->nraw != 1 || r->raw[0])
			parse_error(o->path, "%s: insn %zu: type relocation with access '%s'",
				    secname, r->insn, r->access);
		return;
	}

	/* field relocations: raw[0] indexes the root as an array */
	if (r->raw[0])
		used += snprintf(r->path + used, sizeof(r->path) - used, "[%u]", r->raw[0]);
	for (i = 1; i < r->nraw; i++) {
		t = skip_mods(btf, &id);
		if (t && btf_is_composite(t) && r->raw[i] < btf_vlen(t)) {
			m = btf_members(t) + r->raw[i];
			id = m->type;
			name = str(btf, m->name_off);
			if (!*name)
				continue;	/* anonymous: its members are named directly */
			r->steps[r->nsteps].name = name;
			r->steps[r->nsteps].type_id = m->type;
			r->nsteps++;
			len = snprintf(r->path + used, sizeof(r->path) - used, ".%s", name);
		} else if (t && btf_is_array(t)) {
			id = btf_array(t)->type;
			r->steps[r->nsteps].idx = r->raw[i];
			r->steps[r->nsteps].type_id = id;
			r->nsteps++;
			len = snprintf(r->path + used, sizeof(r->path) - used, "[%u]", r->raw[i]);
		} else {
			parse_error(o->path, "%s: insn %zu: access '%s' of %s does not fit its type",
				    secname, r->insn, r->access, r->path);
		}
		if (len > 0 && used + len < sizeof(r->path))
			used += len;
	}
}

/* The CO-RE relocation records of .BTF.ext */
static void read_core_relos(struct obj *o, Elf_Data *ext)
{
	const char *data = ext->d_buf, *p, *end;
	struct btf_ext_hdr hdr = {};
	__u32 rec_size, sec_off, num, j;
	const char *secname;
	struct relo *r;
	int sec, cap = 0;
	__u32 rec[4];

	if (ext->d_size < 8)
		parse_error(o->path, ".BTF.ext is %zu bytes, shorter than its header", ext->d_size);
	memcpy(&hdr, data, 8);
	if (hdr.magic != BTF_EXT_MAGIC)
		parse_error(o->path, ".BTF.ext magic is %#x, not %#x (a big-endian object?)",
			    hdr.magic, BTF_EXT_MAGIC);
	if (hdr.hdr_len > ext->d_size)
		parse_error(o->path, ".BTF.ext header length %u is past its end", hdr.hdr_len);
	/* an older header has no CO-RE subsection */
	if (hdr.hdr_len < sizeof(hdr))
		return;
	memcpy(&hdr, data, sizeof(hdr));
	if (!hdr.core_relo_len)
		return;
	if ((size_t)hdr.hdr_len + hdr.core_relo_off + hdr.core_relo_len > ext->d_size ||
	    hdr.core_relo_len < 4)
		parse_error(o->path, ".BTF.ext CO-RE subsection (off %u, len %u) is out of bounds",
			    hdr.core_relo_off, hdr.core_relo_len);
	p = data + hdr.hdr_len + hdr.core_relo_off;
	end = p + hdr.core_relo_len;
	memcpy(&rec_size, p, 4);
	p += 4;
	if (rec_size < sizeof(rec))
		parse_error(o->path, ".BTF.ext CO-RE record size %u is below %zu", rec_size, sizeof(rec));

	while (p < end) {
		if (end - p < 8)
			parse_error(o->path, ".BTF.ext CO-RE subsection ends inside a section header");
		memcpy(&sec_off, p, 4);
		memcpy(&num, p + 4, 4);
		p += 8;
		if ((size_t)(end - p) / rec_size < num)
			parse_error(o->path, ".BTF.ext CO-RE subsection ends inside its records");
		secname = btf__name_by_offset(o->btf, sec_off);
		if (!secname)
			parse_error(o->path, ".BTF.ext CO-RE section name offset %u is not in .BTF", sec_off);
		sec = sec_by_name(o, secname);
		if (sec < 0)
			parse_error(o->path, ".BTF.ext has CO-RE relocations for section '%s', which has no code",
				    secname);
		for (j = 0; j < num; j++, p += rec_size) {
			memcpy(rec, p, sizeof(rec));
			if (o->nrelos == cap) {
				cap = cap ? 2 * cap : 256;
				o->relos = xrealloc(o->relos, cap, sizeof(*o->relos));
			}
			r = &o->relos[o->nrelos];
			memset(r, 0, sizeof(*r));
			if (rec[0] % sizeof(struct bpf_insn) ||
			    rec[0] / sizeof(struct bpf_insn) >= o->secs[sec].ninsns)
				parse_error(o->path, "%s: CO-RE relocation at byte %u is no instruction",
					    secname, rec[0]);
			r->insn = rec[0] / sizeof(struct bpf_insn);
			r->type_id = rec[1];
			r->access = btf__name_by_offset(o->btf, rec[2]);
			r->kind = rec[3];
			if (!r->access)
				parse_error(o->path, "%s: insn %zu: access string offset %u is not in .BTF",
					    secname, r->insn, rec[2]);
			if (r->kind >= NR_KINDS)
				parse_error(o->path, "%s: insn %zu: unknown CO-RE relocation kind %u",
					    secname, r->insn, r->kind);
			r->func = func_at(o, sec, r->insn);
			if (r->func < 0)
				parse_error(o->path, "%s: insn %zu: no function symbol covers it",
					    secname, r->insn);
			parse_access(o, r, secname);
			o->nrelos++;
		}
	}
}

static void load_obj(struct obj *o, const char *path)
{
	Elf_Data *symdata = NULL, *ext = NULL;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, symsh = {};
	GElf_Ehdr ehdr;
	size_t shstrndx;
	const char *name;
	struct sec *s;
	int fd;

	o->path = path;
	name = strrchr(path, '/');
	o->name = name ? name + 1 : path;
	o->text = -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		parse_error(path, "%s", strerror(errno));
	o->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF || !gelf_getehdr(o->elf, &ehdr))
		parse_error(path, "not an ELF file");
	if (ehdr.e_machine != EM_BPF)
		parse_error(path, "not a BPF object (ELF machine %u)", ehdr.e_machine);
	if (elf_getshdrstrndx(o->elf, &shstrndx))
		parse_error(path, "no section name table: %s", elf_errmsg(-1));

	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			parse_error(path, "unreadable section header: %s", elf_errmsg(-1));
		name = elf_strptr(o->elf, shstrndx, sh.sh_name);
		if (!name)
			parse_error(path, "section %zu has no name", elf_ndxscn(scn));
		if (sh.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symsh = sh;
		} else if (!strcmp(name, ".BTF.ext")) {
			ext = elf_getdata(scn, NULL);
		} else if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (!d || d->d_size != sh.sh_size || sh.sh_size % sizeof(struct bpf_insn))
				parse_error(path, "section %s is unreadable or no whole instructions", name);
			o->secs = xrealloc(o->secs, o->nsecs + 1, sizeof(*o->secs));
			s = &o->secs[o->nsecs];
			s->name = name;
			s->shndx = elf_ndxscn(scn);
			s->insns = d->d_buf;
			s->ninsns = sh.sh_size / sizeof(struct bpf_insn);
			s->relocated = xcalloc(s->ninsns, sizeof(bool));
			if (!strcmp(name, ".text"))
				o->text = o->nsecs;
			o->nsecs++;
		}
	}
	if (!symscn || !(symdata = elf_getdata(symscn, NULL)))
		parse_error(path, "no symbol table");
	if (!ext)
		parse_error(path, "no .BTF.ext section (not compiled with clang -g?): no CO-RE relocations to check");

	errno = 0;
	o->btf = btf__parse_elf(path, NULL);
	if (!o->btf)
		parse_error(path, "cannot read its .BTF section: %s", btf_err());

	read_funcs(o, symdata, &symsh);
	scn = NULL;
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_REL)
			read_calls(o, symdata, scn, &sh);
	}
	read_local_calls(o);
	read_core_relos(o, ext);
}

/* ---- matching ------------------------------------------------------------- */

/*
 * Find member name in the composite id, looking into anonymous struct and
 * union members too (C names their members directly). Sets *mtype, adds
 * its bit offset to *off, and tells whether it is the last member of the
 * composite holding it (a flexible array may be indexed past its size).
 */
static bool find_member(const struct btf *btf, __u32 id, const char *name, __u32 *mtype,
			__u64 *off, bool *last, int depth)
{
	const struct btf_type *t = skip_mods(btf, &id);
	const struct btf_member *m;
	const char *mname;
	__u64 sub;
	int i, n;

	if (!t || !btf_is_composite(t) || depth > MAX_DEPTH)
		return false;
	m = btf_members(t);
	n = btf_vlen(t);
	for (i = 0; i < n; i++, m++) {
		mname = str(btf, m->name_off);
		if (!*mname) {
			sub = *off + btf_member_bit_offset(t, i);
			if (find_member(btf, m->type, name, mtype, &sub, last, depth + 1)) {
				*off = sub;
				return true;
			}
		} else if (!strcmp(mname, name)) {
			*mtype = m->type;
			*off += btf_member_bit_offset(t, i);
			*last = i == n - 1;
			return true;
		}
	}
	return false;
}

/* Walk r's access path through the target's candidate root tid. True with
 * the field's bit offset in *val when every step matches (and in note a
 * struct that changed its name on the way, if any); else false with the
 * reason in why. */
static bool match_field(const struct obj *o, const struct relo *r, const struct btf *tbtf,
			__u32 tid, __u64 *val, char *why, char *note, size_t len)
{
	const struct btf_type *t;
	const struct step *st;
	char lhave[96], thave[96], where[256];
	bool last = false;
	__s64 sz;
	__u32 mtype;
	int i, used;

	sz = btf__resolve_size(tbtf, tid);
	if (sz < 0) {
		snprintf(why, len, "the kernel's %s has no size", r->path);
		return false;
	}
	*val = (__u64)r->raw[0] * sz * 8;
	used = snprintf(where, sizeof(where), "%s", str(tbtf, btf__type_by_id(tbtf, tid)->name_off));
	for (i = 0; i < r->nsteps; i++) {
		st = &r->steps[i];
		t = skip_mods(tbtf, &tid);
		if (!t)
			return false;
		if (!st->name) {
			const struct btf_array *a;

			if (!btf_is_array(t)) {
				describe(tbtf, tid, thave, sizeof(thave));
				snprintf(why, len, "%s is %s in the kernel, not an array", where, thave);
				return false;
			}
			a = btf_array(t);
			/* a flexible array: size 0, the last member */
			if (st->idx >= a->nelems && !(a->nelems == 0 && last && i > 0)) {
				snprintf(why, len, "%s has %u elements in the kernel, index %u", where,
					 a->nelems, st->idx);
				return false;
			}
			tid = a->type;
			sz = btf__resolve_size(tbtf, tid);
			if (sz < 0)
				return false;
			*val += (__u64)st->idx * sz * 8;
			last = false;
			if (used < (int)sizeof(where))
				used += snprintf(where + used, sizeof(where) - used, "[%u]", st->idx);
			continue;
		}
		if (!btf_is_composite(t)) {
			describe(tbtf, tid, thave, sizeof(thave));
			snprintf(why, len, "%s is %s in the kernel, which has no member %s", where,
				 thave, st->name);
			return false;
		}
		if (!find_member(tbtf, tid, st->name, &mtype, val, &last, 0)) {
			describe(tbtf, tid, thave, sizeof(thave));
			snprintf(why, len, "%s (%s) has no member %s in the kernel", where, thave,
				 st->name);
			return false;
		}
		if (used < (int)sizeof(where))
			used += snprintf(where + used, sizeof(where) - used, ".%s", st->name);
		if (!fields_compat(o->btf, st->type_id, tbtf, mtype)) {
			describe(o->btf, st->type_id, lhave, sizeof(lhave));
			describe(tbtf, mtype, thave, sizeof(thave));
			snprintf(why, len, "%s is %s in the kernel, %s in the object", where, thave,
				 lhave);
			return false;
		}
		if (!*note && renamed(o->btf, st->type_id, tbtf, mtype)) {
			describe(o->btf, st->type_id, lhave, sizeof(lhave));
			describe(tbtf, mtype, thave, sizeof(thave));
			snprintf(note, len, "%s is %s in the kernel, %s in the object", where, thave,
				 lhave);
		}
		tid = mtype;
	}
	return true;
}

static bool match_enumval(const struct relo *r, const struct btf *tbtf, __u32 tid, __u64 *val,
			  char *why, size_t len)
{
	const struct btf_type *t = skip_mods(tbtf, &tid);
	size_t want = essential_len(r->steps[0].name), have;
	const char *name;
	int i;

	if (!t || !btf_is_any_enum(t))
		return false;
	for (i = 0; i < btf_vlen(t); i++) {
		if (btf_is_enum(t)) {
			name = str(tbtf, btf_enum(t)[i].name_off);
			*val = (__u64)(__s64)btf_enum(t)[i].val;
		} else {
			name = str(tbtf, btf_enum64(t)[i].name_off);
			*val = btf_enum64_value(&btf_enum64(t)[i]);
		}
		have = essential_len(name);
		if (have == want && !strncmp(name, r->steps[0].name, want))
			return true;
	}
	snprintf(why, len, "enum %s has no %s in the kernel", str(tbtf, t->name_off),
		 r->steps[0].name);
	return false;
}

/* No candidate matches r: libbpf poisons the instruction, but for a
 * type's id or size, which it makes 0 (the program loads; worth a note). */
static void no_match(const struct relo *r, struct verdict *v)
{
	if (r->kind == TYPE_ID_TARGET || r->kind == TYPE_SIZE) {
		v->res = RES_OK;
		snprintf(v->note, sizeof(v->note), "to 0: %s", v->why);
		v->why[0] = 0;
		return;
	}
	v->res = RES_NONE;
}

/*
 * Resolve relocation r on target tg, as libbpf would: every candidate that
 * matches must agree (on the field's offset, the type's size, the
 * enumerator's value), or libbpf refuses the object.
 */
static void resolve(const struct obj *o, const struct relo *r, const struct target *tg,
		    struct verdict *v)
{
	const struct btf_type *root = btf__type_by_id(o->btf, r->type_id);
	const struct cand *c;
	__u64 val = 0, first = 0;
	size_t n, i, matched = 0;
	__u32 first_id = 0;
	char scratch[WHY_LEN], note[WHY_LEN];
	bool ok;

	v->res = RES_OK;
	v->why[0] = 0;
	v->note[0] = 0;
	if (r->kind == TYPE_ID_LOCAL)
		return;
	if (!*str(o->btf, root->name_off)) {
		v->res = RES_FATAL;
		snprintf(v->why, sizeof(v->why), "libbpf cannot relocate an anonymous type");
		return;
	}
	n = find_cands(tg, o->btf, root, &c);
	if (!n) {
		snprintf(v->why, sizeof(v->why), "the kernel has no %s %.*s", kind_str(root),
			 (int)essential_len(str(o->btf, root->name_off)), str(o->btf, root->name_off));
		no_match(r, v);
		return;
	}
	for (i = 0; i < n; i++, c++) {
		/* the first candidate explains a miss */
		char *why = i ? scratch : v->why;

		note[0] = 0;
		switch (r->kind) {
		case TYPE_ID_TARGET:
		case TYPE_EXISTS:
		case TYPE_MATCHES:
		case TYPE_SIZE:
			/* TYPE_MATCHES is stricter in libbpf (bpf_core_types_match);
			 * it is a guard here and never fails */
			ok = types_compat(o->btf, r->type_id, tg->btf, c->id, MAX_DEPTH);
			if (ok && r->kind == TYPE_SIZE)
				val = btf__resolve_size(tg->btf, c->id);
			else if (!ok)
				snprintf(why, WHY_LEN, "the kernel's %s %s is of another kind",
					 kind_str(root), c->name);
			break;
		case ENUMVAL_EXISTS:
		case ENUMVAL_VALUE:
			ok = match_enumval(r, tg->btf, c->id, &val, why, WHY_LEN);
			break;
		default:
			ok = match_field(o, r, tg->btf, c->id, &val, why, note, WHY_LEN);
			break;
		}
		if (!ok)
			continue;
		if (matched && val != first) {
			v->res = RES_FATAL;
			snprintf(v->why, sizeof(v->why),
				 "ambiguous: kernel types [%u] and [%u] both match and disagree (%llu != %llu)",
				 first_id, c->id, (unsigned long long)first,
				 (unsigned long long)val);
			return;
		}
		if (!matched) {
			first = val;
			first_id = c->id;
			memcpy(v->note, note, sizeof(v->note));
		}
		matched++;
	}
	if (!matched)
		no_match(r, v);
}

/* ---- judging -------------------------------------------------------------- */

static bool is_existence(__u32 kind)
{
	return kind == FIELD_EXISTS || kind == TYPE_EXISTS || kind == TYPE_MATCHES ||
	       kind == ENUMVAL_EXISTS;
}

/* Does g check the member r reads, or one holding it: the same local root
 * type, and g's access path a prefix of r's? */
static bool covers(const struct relo *g, const struct relo *r)
{
	int i;

	if (g == r || !is_existence(g->kind) || g->func != r->func || g->type_id != r->type_id)
		return false;
	if (g->nraw > r->nraw)
		return false;
	for (i = 0; i < g->nraw; i++)
		if (g->raw[i] != r->raw[i])
			return false;
	return true;
}

/* Which functions are loaded on this kernel: the programs whose hook it
 * has, and the .text subprograms they reach. */
static int mark_loaded(struct obj *o, const struct target *tg)
{
	int i, j, programs = 0;
	bool changed = true;

	for (i = 0; i < o->nfuncs; i++) {
		struct func *f = &o->funcs[i];

		f->loaded = f->sec != o->text && hook_present(tg->btf, o->secs[f->sec].name);
		programs += f->loaded;
	}
	while (changed) {
		changed = false;
		for (i = 0; i < o->nfuncs; i++) {
			if (!o->funcs[i].loaded)
				continue;
			for (j = 0; j < o->funcs[i].ncallees; j++) {
				if (!o->funcs[o->funcs[i].callees[j]].loaded) {
					o->funcs[o->funcs[i].callees[j]].loaded = true;
					changed = true;
				}
			}
		}
	}
	return programs;
}

/* The insns of the relocations like the i-th (same function, kind, type,
 * access and outcome), all marked done: one report line for them. Returns
 * how many. */
static int same_insns(const struct obj *o, int i, const enum res *res, bool *done,
		      char *buf, size_t len)
{
	const struct relo *r = &o->relos[i], *q;
	size_t used = 0;
	int j, n = 0;

	buf[0] = 0;
	for (j = i; j < o->nrelos; j++) {
		q = &o->relos[j];
		if (done[j] || res[j] != res[i] || q->func != r->func || q->kind != r->kind ||
		    q->type_id != r->type_id || strcmp(q->access, r->access))
			continue;
		done[j] = true;
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%zu", n ? ", " : "", q->insn);
		n++;
	}
	return n;
}

/* Check object o on target tg: print one TAP result, return true if ok */
static bool check(struct obj *o, const struct target *tg, int testno)
{
	struct verdict *v = xcalloc(o->nrelos, sizeof(*v));
	enum res *res = xcalloc(o->nrelos, sizeof(*res));
	bool *done = xcalloc(o->nrelos, sizeof(bool));
	bool *guarded = xcalloc(o->nrelos, sizeof(bool));
	int *guard = xcalloc(o->nrelos, sizeof(int));
	int i, j, n, programs, counted = 0, unresolved = 0, failed = 0;
	char insns[512];

	programs = mark_loaded(o, tg);
	for (i = 0; i < o->nrelos; i++) {
		if (!o->funcs[o->relos[i].func].loaded)
			continue;
		counted++;
		resolve(o, &o->relos[i], tg, &v[i]);
		res[i] = v[i].res;
	}
	for (i = 0; i < o->nrelos; i++) {
		guard[i] = -1;
		if (!o->funcs[o->relos[i].func].loaded)
			continue;
		for (j = 0; j < o->nrelos; j++) {
			if (!covers(&o->relos[j], &o->relos[i]))
				continue;
			guard[i] = j;
			/* dead code only if that check is false here */
			if (res[j] == RES_NONE) {
				guarded[i] = true;
				break;
			}
		}
		if (res[i] == RES_OK || (is_existence(o->relos[i].kind) && res[i] == RES_NONE))
			continue;	/* resolved, or a check that says no */
		unresolved++;
		/* libbpf refuses the object whatever the code around it */
		if (res[i] == RES_FATAL)
			guarded[i] = false;
		failed += !guarded[i];
	}

	printf("%sok %d - %s on %s: %d relocations in %d programs loaded there, %d unresolved, ",
	       failed ? "not " : "", testno, o->name, tg->name, counted, programs, unresolved);
	if (failed)
		printf("%d not guarded\n", failed);
	else
		printf("all guarded\n");

	for (i = 0; verbose && i < o->nfuncs; i++) {
		const struct func *f = &o->funcs[i];

		if (f->sec != o->text && !f->loaded)
			printf("# %s/%s: not loaded here (its hook is not in this kernel's BTF)\n",
			       o->secs[f->sec].name, f->name);
	}
	for (i = 0; i < o->nrelos; i++) {
		const struct relo *r = &o->relos[i], *g;
		const struct func *f = &o->funcs[r->func];

		if (done[i] || !f->loaded || res[i] == RES_OK ||
		    (is_existence(r->kind) && res[i] == RES_NONE))
			continue;
		if (guarded[i] && !verbose)
			continue;
		n = same_insns(o, i, res, done, insns, sizeof(insns));
		printf("# %s/%s: insn%s %s: %s %s (%s) ", o->secs[f->sec].name, f->name,
		       n > 1 ? "s" : "", insns, kind_names[r->kind], r->path, r->access);
		if (res[i] == RES_FATAL) {
			printf("refused by libbpf: %s\n", v[i].why);
			continue;
		}
		g = guard[i] >= 0 ? &o->relos[guard[i]] : NULL;
		if (guarded[i])
			printf("unresolved, guarded by %s %s (%s) at insn %zu: %s\n",
			       kind_names[g->kind], g->path, g->access, g->insn, v[i].why);
		else if (g)
			printf("unresolved, not guarded (%s %s at insn %zu is true here): %s\n",
			       kind_names[g->kind], g->path, g->insn, v[i].why);
		else
			printf("unresolved, not guarded: %s\n", v[i].why);
	}
	for (i = 0; i < o->nrelos; i++) {
		const struct relo *r = &o->relos[i];
		const struct func *f = &o->funcs[r->func];

		if (done[i] || !f->loaded || res[i] != RES_OK || !v[i].note[0] || guarded[i])
			continue;
		n = same_insns(o, i, res, done, insns, sizeof(insns));
		printf("# note: %s/%s: insn%s %s: %s %s (%s) resolves, but %s\n",
		       o->secs[f->sec].name, f->name, n > 1 ? "s" : "", insns,
		       kind_names[r->kind], r->path, r->access, v[i].note);
	}
	free(v);
	free(res);
	free(done);
	free(guarded);
	free(guard);
	return !failed;
}

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr, "usage: core_relocs [-v] OBJ.bpf.o... -- NAME=BTF_PATH...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct target *targets;
	struct obj *objs;
	int i, nobj = 0, ntarg = 0, testno = 0, sep = -1;
	bool all_ok = true;

	i = 1;
	if (i < argc && !strcmp(argv[i], "-v")) {
		verbose = true;
		i++;
	}
	for (int k = i; k < argc; k++) {
		if (!strcmp(argv[k], "--")) {
			sep = k;
			break;
		}
	}
	if (sep < 0 || sep == i || sep == argc - 1)
		usage();
	nobj = sep - i;
	ntarg = argc - sep - 1;

	/* our own messages name the file and the problem; libbpf's add noise */
	libbpf_set_print(silent);
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "core_relocs: libelf is out of date\n");
		return 2;
	}
	objs = xcalloc(nobj, sizeof(*objs));
	targets = xcalloc(ntarg, sizeof(*targets));
	for (int k = 0; k < nobj; k++)
		load_obj(&objs[k], argv[i + k]);
	for (int k = 0; k < ntarg; k++)
		load_target(&targets[k], argv[sep + 1 + k]);

	printf("1..%d\n", nobj * ntarg);
	for (int k = 0; k < nobj; k++)
		for (int t = 0; t < ntarg; t++)
			all_ok &= check(&objs[k], &targets[t], ++testno);
	fflush(stdout);
	return all_ok ? 0 : 1;
}
