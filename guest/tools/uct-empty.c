// SPDX-License-Identifier: GPL-2.0
/*
 * uct-empty - attach an empty BPF program (r0 = 0; exit) to each hook,
 * as ucounttop attaches its own: make bench's floor for --events, what a
 * program on every charge costs before it does anything.
 *
 *   uct-empty HOOK...
 *
 * HOOK: tp_btf:TRACEPOINT, fentry:FUNCTION or fexit:FUNCTION, as
 * ucounttop's header lists its hooks. Prints "Attached N" once every
 * program is attached and holds them until SIGINT or SIGTERM. Exit 0, 1
 * when a hook cannot be found or attached (named), 2 on usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* Load and attach one empty tracing program on HOOK. The link's fd, or -1
 * with the reason on stderr. */
static int attach_empty(const struct btf *vmlinux, const char *hook)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char name[160];
	const char *target = strchr(hook, ':');
	int id, prog, link;

	if (!target || !target[1]) {
		fprintf(stderr, "uct-empty: '%s' is not KIND:NAME\n", hook);
		return -1;
	}
	target++;
	if (!strncmp(hook, "tp_btf:", 7)) {
		opts.expected_attach_type = BPF_TRACE_RAW_TP;
		snprintf(name, sizeof(name), "btf_trace_%s", target);
		id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF);
	} else if (!strncmp(hook, "fentry:", 7) || !strncmp(hook, "fexit:", 6)) {
		opts.expected_attach_type = hook[1] == 'e' && hook[2] == 'n' ? BPF_TRACE_FENTRY :
									     BPF_TRACE_FEXIT;
		id = btf__find_by_name_kind(vmlinux, target, BTF_KIND_FUNC);
	} else {
		fprintf(stderr, "uct-empty: '%s': the kind is tp_btf, fentry or fexit\n", hook);
		return -1;
	}
	if (id < 0) {
		fprintf(stderr, "uct-empty: %s: not in the kernel's BTF\n", hook);
		return -1;
	}
	opts.attach_btf_id = id;
	prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "uct_empty", "GPL", insns, 2, &opts);
	if (prog < 0) {
		fprintf(stderr, "uct-empty: %s: load failed: %s\n", hook, strerror(errno));
		return -1;
	}
	/* a tracing program's link: its target was given at load */
	link = bpf_raw_tracepoint_open(NULL, prog);
	if (link < 0) {
		fprintf(stderr, "uct-empty: %s: attach failed: %s\n", hook, strerror(errno));
		close(prog);
		return -1;
	}
	close(prog);
	return link;
}

int main(int argc, char **argv)
{
	struct btf *vmlinux;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: uct-empty HOOK... (tp_btf:NAME, fentry:NAME, fexit:NAME)\n");
		return 2;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "uct-empty: no kernel BTF: %s\n", strerror(errno));
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (attach_empty(vmlinux, argv[i]) < 0)
			return 1;
	btf__free(vmlinux);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("Attached %d\n", argc - 1);
	fflush(stdout);
	while (!stop)
		pause();
	return 0;
}
