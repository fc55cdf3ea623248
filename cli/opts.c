// SPDX-License-Identifier: GPL-2.0
/* opts.c - command line of ucounttop. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "opts.h"

void uct_usage(FILE *f, const char *prog)
{
	fprintf(f,
"Usage: %1$s [options]              live view of per-user-namespace rlimit counts\n"
"       %1$s trace [options]        one line per charge, uncharge and refusal\n"
"       %1$s check [options] -- CMD [ARGS...]\n"
"                                   run CMD, then report accounting errors\n"
"       %1$s check --kselftest [options] DIR...\n"
"                                   the same for each test of kselftest collections\n"
"\n"
"The kernel counts four rlimits per (user namespace, uid) in struct ucounts\n"
"(kernel/ucount.c): NPROC (processes), MSGQUEUE (POSIX mqueue bytes),\n"
"SIGPENDING (queued signals) and MEMLOCK (SHM_LOCK/hugetlb shm pages). A charge\n"
"in namespace C also counts against its creator's row in the parent namespace,\n"
"up to the init namespace, and each of those levels is capped by the\n"
"rlimit_max the namespace below inherited from its creator. ucounttop shows\n"
"that tree: a line per namespace and, under it, a line per uid.\n"
"\n"
"Reading the table:\n"
"  ns line    CREATOR-VALUE/NS-MAX: the creator's usage against this namespace's\n"
"             maximum (the comparison the kernel makes on every charge from inside)\n"
"             and what runs in it: its oldest process's container id (short),\n"
"             its hostname if the namespace has its own, comm(pid); or 'no task'\n"
"             and what holds it: (ns) a child namespace, (mq) a message queue,\n"
"             (shm) a locked segment, (sig) a queued signal\n"
"  uid line   VALUE[+CHANGE]/LIMIT: CHANGE since the last refresh; LIMIT is the\n"
"             cap enforced at this level ('-': only the caller's own rlimit)\n"
"  units      one per column: MSGQUEUE(B) and MEMLOCK(B) in bytes (K/M/G:\n"
"             powers of 1024; the kernel counts MEMLOCK in pages, as JSON and\n"
"             OpenMetrics show it), NPROC processes, SIGPENDING signals\n"
"  uids       as each row's namespace maps them, -(kN) if it maps none to\n"
"             kuid N; owners (oN) as the parent namespace maps them; a uid's\n"
"             (NAME) from that namespace's own passwd file: /etc/passwd in its\n"
"             oldest process's root (ours for the init namespace), cut with +\n"
"  DENY       refused charges since ucounttop started\n"
"  FLAG       D denials  O over limit  I imbalanced (value < sum of the rows of\n"
"             the namespaces it created: a leak or double uncharge)  N new\n"
"\n"
"Options (of the live view; trace and check take those listed for them below\n"
"and refuse the others):\n"
"  -d, --delay SECS       refresh every SECS seconds (default 1; fractions ok)\n"
"  -n, --iterations N     stop after N refreshes (default: until q or Ctrl-C)\n"
"  -b, --batch            plain text, no escape sequences (for logs and pipes)\n"
"      --json             one JSON document per refresh, one per line (schema\n"
"                         ucounttop/1, see ucounttop(8))\n"
"      --openmetrics      OpenMetrics text per refresh, ending in '# EOF'\n"
"      --prometheus       the same families in the Prometheus text format 0.0.4,\n"
"                         what node_exporter's textfile collector reads\n"
"  -o, --output FILE      write each refresh to FILE, replaced atomically\n"
"                         (node_exporter's textfile collector: --prometheus,\n"
"                         FILE.prom in its directory)\n"
"      --listen ADDR:PORT serve /metrics over HTTP (127.0.0.1:9465, [::1]:9465;\n"
"                         :9465 or [::]:9465 every address, IPv4 and IPv6):\n"
"                         OpenMetrics when the scraper's Accept header asks for\n"
"                         it, else the Prometheus text format 0.0.4; a snapshot\n"
"                         per scrape, at most one per -d SECS (scrapes between\n"
"                         get the same one); not with -b, --json, --openmetrics,\n"
"                         -o or -n. Runs until SIGINT/SIGTERM\n"
"      --web.config.file FILE  TLS and basic auth for --listen (see ucounttop(8))\n"
"      --ns INUM          only namespace INUM (as in /proc/PID/ns/user) and below\n"
"      --uid UID          only rows of global uid (kuid) UID, whatever the table\n"
"                         shows\n"
"      --pid PID          only what process PID charges: its row and, up to the\n"
"                         initial namespace, the creator rows its charges reach\n"
"      --container ID|NAME  only the namespaces whose oldest process is in a\n"
"                         container whose id starts with ID (hex, as docker ps\n"
"                         shows it) or whose name is NAME (Docker's, a Kubernetes\n"
"                         NAMESPACE/POD/CONTAINER, NAMESPACE/POD for the pod's,\n"
"                         or USER:NAME for user USER's rootless Podman's),\n"
"                         everything below them, and the rows their charges\n"
"                         reach up to the initial namespace\n"
"      --no-tenant-labels leave out of OpenMetrics (--openmetrics, --listen) the\n"
"                         names tenants choose: user names from their passwd\n"
"                         files, hostnames, container ids from their cgroups\n"
"      --run-as USER      the user the parts that face tenants and the network\n"
"                         run as, with no capability (default: ucounttop, else\n"
"                         nobody); root's part only reads (ucounttop(8), SECURITY)\n"
"      --kuid             show global uids (kuids) in the table, as the kernel\n"
"                         and trace name them, instead of uids as each row's\n"
"                         namespace maps them (JSON has both: uid, ns_uid),\n"
"                         named by the init namespace's /etc/passwd\n"
"  -t, --type TYPE        only rows with a non-zero TYPE counter\n"
"                         (nproc, msgqueue, sigpending, memlock)\n"
"  -s, --sort KEY         uid, nproc, msgqueue, sigpending, memlock, denials, change\n"
"      --events           also hook every charge and uncharge: charge counts,\n"
"                         rates and refusals of all four types. COST: one BPF\n"
"                         program run per charge, which the signal path feels\n"
"                         most (docs/performance.md has make bench's figures).\n"
"                         Without it only rare events are hooked (limit checks\n"
"                         that fail, ucounts alloc/free) and values are read by\n"
"                         an iterator once per refresh: near-zero overhead.\n"
"      --pin DIR          pin maps and links under DIR (a bpffs directory, e.g.\n"
"                         /sys/fs/bpf/ucounttop) for bpftool; removed on exit\n"
"      --keep-pinned      leave them pinned (and the hooks attached) on exit\n"
"      --max-entries N    size of each per-row map (default 10240)\n"
"      --task-iter        take snapshots with the task iterator even when the\n"
"                         kernel has the ucounts iterator\n"
"      --no-tracepoints   use fentry/fexit even when ucounts tracepoints exist\n"
"  -v, --verbose          print libbpf's messages\n"
"  -h, --help             this text;  -V, --version\n"
"Numbers are plain decimal (SECS may have a fraction): a sign, a blank, an\n"
"exponent, 0x, inf or nan is a usage error.\n"
"\n"
"trace options: --stack (kernel stack per line), --ns (that namespace only,\n"
"  not the ones below it), --uid, -t,\n"
"  --count N (stop after N lines), --duration SECS, --ringbuf-kb N (ring\n"
"  buffer size in KiB, default 256), --pin, --keep-pinned, --max-entries N,\n"
"  --no-tracepoints, -v,\n"
"  -w, --write FILE (record the events, binary, for -r or another tool:\n"
"  cheaper than lines at high rates; - for standard output),\n"
"  -r, --read FILE (print a recording as its lines; with --count only)\n"
"\n"
"check runs CMD (in its own process group) with every charge and uncharge\n"
"hooked, waits for it, then at most --settle for its descendants and for\n"
"deferred frees (what still runs is named, not waited for), and judges each\n"
"counter change:\n"
"lost uncharge, double uncharge, freed while charged, hierarchy mismatch,\n"
"admitted over limit; charges still held by live tasks, signals, queues or\n"
"locked segments are 'outstanding'. Report: '# ' lines (KTAP diagnostics).\n"
"check options: --json (schema ucounttop-check/1), -o FILE (report to FILE),\n"
"  --ktap (KTAP to standard output: CMD's output as one subtest, check's\n"
"  verdict per class as the other),\n"
"  --kselftest DIR... (instead of CMD: every test of kselftest collections,\n"
"  each under check as with --ktap, from its directory, bounded by its\n"
"  settings timeout (45 s without one, --timeout over all); one KTAP\n"
"  document as kselftest's runner writes, with check's verdict nested per\n"
"  test; the programs are loaded once),\n"
"  --settle SECS (after CMD, wait at most this long for its descendants and\n"
"  deferred frees, default 3), --timeout SECS (bound CMD itself: then SIGTERM\n"
"  to its group and every descendant, SIGKILL 2 s later), --fail-outstanding\n"
"  (outstanding charges fail too), --user USER (run CMD as USER: a name in\n"
"  /etc/passwd, with its groups, or UID[:GID]; default root; in a session of\n"
"  its own, stdin /dev/null, output relayed, on a terminal made safe),\n"
"  --max-entries N,\n"
"  --task-iter, --no-tracepoints, -v.\n"
"  Ctrl-C/SIGTERM are forwarded to CMD's process group; the report is still\n"
"  printed. Exit: 0 clean and CMD exited 0, 1 imbalance found (whatever\n"
"  CMD did), 2 usage, 4 skip (CMD exited 4, or check cannot judge here: no\n"
"  privilege, a kernel feature missing), 5 CMD could not start, 6 tool\n"
"  failure, 7 no imbalance but CMD failed, was killed or check was\n"
"  interrupted, 124 CMD timed out (its own 124, or --timeout): what\n"
"  kselftest's runner reads as pass, fail, skip and timeout.\n"
"\n"
"Keys (live view): q quit  s next sort key  t cycle type filter  p or space\n"
"  pause  e or Enter expand/collapse the selected namespace  Up/Down or j/k\n"
"  move  / search namespaces by container id, hostname or command (Enter\n"
"  keeps it, Esc cancels, an empty search shows all)  h or ? help\n"
"\n"
"Examples:\n"
"  %1$s                                 live view, refresh every second\n"
"  %1$s -b -n 1                         one plain-text snapshot\n"
"  %1$s --json -n 1 | jq '.rows[] | select(.nproc.value > 100)'\n"
"  %1$s -b -n 1 --container 3f2a1b     a container's namespaces, charges\n"
"  %1$s --uid 1000 -t sigpending -d 5   who queues signals as uid 1000\n"
"  %1$s --prometheus -d 15 -o /var/lib/prometheus/node-exporter/ucounttop.prom\n"
"  %1$s --listen 127.0.0.1:9465         serve /metrics to Prometheus\n"
"  %1$s --events -s change              with charge rates (costs, see above)\n"
"  %1$s trace -t nproc --stack          every fork/exit charge, with stacks\n"
"  %1$s trace -w run.uct --duration 60; %1$s trace -r run.uct | less\n"
"  %1$s --pin /sys/fs/bpf/ucounttop --keep-pinned -n 1\n"
"      then: bpftool map dump pinned /sys/fs/bpf/ucounttop/stats\n"
"  %1$s check -- ./rlimits_userns_test   a kselftest, then its accounting\n"
"  %1$s check --kselftest selftests/pidfd   a collection, each test checked\n"
"\n"
"Exit status: 0 ok, 1 runtime failure, 2 invalid options, 3 missing privilege\n"
"(root or CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON), 4 kernel or system lacks a\n"
"required feature (BTF at /sys/kernel/btf/vmlinux, a kernel function, bpffs).\n"
"\n"
"See ucounttop(8) (man -l cli/ucounttop.8 on the host).\n",
		prog);
}

enum {
	OPT_JSON = 256, OPT_OM, OPT_PROM, OPT_NS, OPT_UID, OPT_EVENTS, OPT_PIN, OPT_KEEP,
	OPT_MAXENT, OPT_RB, OPT_TASKITER, OPT_NOTP, OPT_NOTENANT, OPT_STACK, OPT_DURATION, OPT_COUNT,
	OPT_SETTLE, OPT_FAILOUT, OPT_TIMEOUT, OPT_USER, OPT_KUID, OPT_PID, OPT_LISTEN, OPT_CONTAINER,
	OPT_WEBCONFIG, OPT_KTAP, OPT_KSELFTEST, OPT_RUNAS,
};

static const struct option longopts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "batch", no_argument, NULL, 'b' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "ktap", no_argument, NULL, OPT_KTAP },
	{ "kselftest", no_argument, NULL, OPT_KSELFTEST },
	{ "openmetrics", no_argument, NULL, OPT_OM },
	{ "prometheus", no_argument, NULL, OPT_PROM },
	{ "output", required_argument, NULL, 'o' },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "web.config.file", required_argument, NULL, OPT_WEBCONFIG },
	{ "ns", required_argument, NULL, OPT_NS },
	{ "uid", required_argument, NULL, OPT_UID },
	{ "kuid", no_argument, NULL, OPT_KUID },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "container", required_argument, NULL, OPT_CONTAINER },
	{ "type", required_argument, NULL, 't' },
	{ "sort", required_argument, NULL, 's' },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "keep-pinned", no_argument, NULL, OPT_KEEP },
	{ "max-entries", required_argument, NULL, OPT_MAXENT },
	{ "ringbuf-kb", required_argument, NULL, OPT_RB },
	{ "task-iter", no_argument, NULL, OPT_TASKITER },
	{ "no-tracepoints", no_argument, NULL, OPT_NOTP },
	{ "no-tenant-labels", no_argument, NULL, OPT_NOTENANT },
	{ "stack", no_argument, NULL, OPT_STACK },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "settle", required_argument, NULL, OPT_SETTLE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "user", required_argument, NULL, OPT_USER },
	{ "run-as", required_argument, NULL, OPT_RUNAS },
	{ "fail-outstanding", no_argument, NULL, OPT_FAILOUT },
	{ "write", required_argument, NULL, 'w' },
	{ "read", required_argument, NULL, 'r' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 }
};

/* The short options, without getopt's ':' markers. */
#define SHORT_LETTERS "dnbotswrvhV"

/*
 * Which commands an option means something to. An option given to a
 * command it does not apply to is an error, not silently ignored: a user
 * who writes `ucounttop check --stack -- CMD` expects stacks and would
 * get none. Options missing here (-v, -h, -V) apply everywhere.
 */
#define IN_TOP		(1u << UCT_CMD_TOP)
#define IN_TRACE	(1u << UCT_CMD_TRACE)
#define IN_CHECK	(1u << UCT_CMD_CHECK)

static const struct {
	int val;
	const char *name;
	unsigned cmds;
} scopes[] = {
	{ 'd', "-d/--delay", IN_TOP },
	{ 'n', "-n/--iterations", IN_TOP },
	{ 'b', "-b/--batch", IN_TOP },
	{ OPT_JSON, "--json", IN_TOP | IN_CHECK },
	{ OPT_KTAP, "--ktap", IN_CHECK },
	{ OPT_KSELFTEST, "--kselftest", IN_CHECK },
	{ OPT_OM, "--openmetrics", IN_TOP },
	{ OPT_PROM, "--prometheus", IN_TOP },
	{ 'o', "-o/--output", IN_TOP | IN_CHECK },
	{ OPT_LISTEN, "--listen", IN_TOP },
	{ OPT_WEBCONFIG, "--web.config.file", IN_TOP },
	{ OPT_NS, "--ns", IN_TOP | IN_TRACE },
	{ OPT_UID, "--uid", IN_TOP | IN_TRACE },
	/* trace and check always print kuids */
	{ OPT_KUID, "--kuid", IN_TOP },
	{ OPT_PID, "--pid", IN_TOP },
	{ OPT_CONTAINER, "--container", IN_TOP },
	{ 't', "-t/--type", IN_TOP | IN_TRACE },
	{ 's', "-s/--sort", IN_TOP },
	/* trace always hooks every charge; check has its own hooks */
	{ OPT_EVENTS, "--events", IN_TOP },
	{ OPT_PIN, "--pin", IN_TOP | IN_TRACE },
	{ OPT_KEEP, "--keep-pinned", IN_TOP | IN_TRACE },
	/* trace fills the stats map too (bpftool, with --pin) */
	{ OPT_MAXENT, "--max-entries", IN_TOP | IN_TRACE | IN_CHECK },
	{ OPT_RB, "--ringbuf-kb", IN_TRACE },
	/* trace takes no snapshot */
	{ OPT_TASKITER, "--task-iter", IN_TOP | IN_CHECK },
	{ OPT_NOTP, "--no-tracepoints", IN_TOP | IN_TRACE | IN_CHECK },
	{ OPT_NOTENANT, "--no-tenant-labels", IN_TOP },
	{ OPT_STACK, "--stack", IN_TRACE },
	{ 'w', "-w/--write", IN_TRACE },
	{ 'r', "-r/--read", IN_TRACE },
	{ OPT_DURATION, "--duration", IN_TRACE },
	{ OPT_COUNT, "--count", IN_TRACE },
	{ OPT_SETTLE, "--settle", IN_CHECK },
	{ OPT_FAILOUT, "--fail-outstanding", IN_CHECK },
	{ OPT_TIMEOUT, "--timeout", IN_CHECK },
	{ OPT_USER, "--user", IN_CHECK },
	{ OPT_RUNAS, "--run-as", IN_TOP },
};

static const char *cmd_title(enum uct_cmd cmd)
{
	switch (cmd) {
	case UCT_CMD_TRACE: return "'trace'";
	case UCT_CMD_CHECK: return "'check'";
	default: return "the live view";
	}
}

/* Whole-string decimal integer in [min, max]: "010" is ten, "0x10" an error
 * (uids, inode numbers and counts are written in decimal everywhere). */
static bool parse_ull(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	/* strtoull() would take a sign or leading blanks */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v >= min && *v <= max;
}

#define MAX_SECS (86400.0 * 365)

/* --container's value: a container id or a prefix of one (1 to 64 hex
 * digits, kept in lowercase: runtimes write ids in lowercase), else a
 * name as Docker accepts them (uct_container_name_ok()), a pod's
 * namespace/pod[/container] (uct_kube_display_ok()) or a rootless
 * container's user:name (uct_tenant_cname_ok()), kept as is */
static bool parse_container(const char *s, char out[UCT_CFILTER_MAX + 1])
{
	size_t i, n = strlen(s), hex = 0;

	if (!n || n > UCT_CFILTER_MAX)
		return false;
	if (memchr(s, '/', n)) {
		if (!uct_kube_display_ok(s, n))
			return false;
		memcpy(out, s, n + 1);
		return true;
	}
	for (i = 0; i < n; i++)
		hex += (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		       (s[i] >= 'A' && s[i] <= 'F');
	if (hex == n && n <= UCT_CID_LEN) {
		for (i = 0; i < n; i++)
			out[i] = s[i] >= 'A' && s[i] <= 'F' ? (char)(s[i] - 'A' + 'a') : s[i];
		out[n] = 0;
		return true;
	}
	if (!uct_container_name_ok(s, n) && !uct_tenant_cname_ok(s, n))
		return false;
	memcpy(out, s, n + 1);
	return true;
}

/*
 * Whole-string decimal seconds in [min, max] (above min only, when
 * above): digits with an optional fraction, "2", "0.5", ".25". strtod()
 * alone would also take blanks, a sign, an exponent, hexadecimal, "inf"
 * and "nan"; none of those is a duration anybody means.
 */
static bool parse_secs(const char *s, double min, bool above, double max, double *v)
{
	const char *p = s;
	bool digits = false;

	while (*p >= '0' && *p <= '9')
		p++, digits = true;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits = true;
	if (!digits || *p)
		return false;
	/* the text is plain decimal: an overflow is HUGE_VAL, an underflow
	 * 0 or a denormal, both judged by the range below */
	*v = strtod(s, NULL);
	return (above ? *v > min : *v >= min) && *v <= max;
}

/*
 * --listen: an IPv4 address or a bracketed IPv6 one, written as numbers,
 * a colon and a port, 127.0.0.1:9465 or [::1]:9465; or no address, :9465,
 * for every address, as exporters take it (so is [::]:9465: IPv4 too,
 * through IPv4-mapped addresses). No host names: a name lookup is one
 * more way to fail at start, and the address it gives is not the one a
 * reader of the command line sees. No port 0 either: a scraper must know
 * where to look.
 */
static bool parse_listen(const char *s, struct uct_listen_addr *a)
{
	static const unsigned char unspecified[16];
	char host[INET6_ADDRSTRLEN];
	const char *port;
	unsigned long long u;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (*s == ':') {
		if (!parse_ull(s + 1, 1, 65535, &u))
			return false;
		a->family = AF_INET6;
		a->port = (unsigned short)u;
		a->any = true;
		return true;
	}
	if (*s == '[') {
		port = strchr(++s, ']');
		if (!port || port[1] != ':')
			return false;
		n = (size_t)(port++ - s);
		a->family = AF_INET6;
	} else {
		port = strchr(s, ':');
		if (!port)
			return false;
		n = (size_t)(port - s);
		a->family = AF_INET;
	}
	if (!n || n >= sizeof(host))
		return false;
	memcpy(host, s, n);
	host[n] = 0;
	if (inet_pton(a->family, host, a->addr) != 1 || !parse_ull(port + 1, 1, 65535, &u))
		return false;
	a->port = (unsigned short)u;
	a->any = a->family == AF_INET6 && !memcmp(a->addr, unspecified, sizeof(unspecified));
	return true;
}

/* What getopt_long() just refused, as written: for a short option inside
 * a group (-bz), argv[optind - 1] is not even the right word. */
static void bad_option(FILE *err, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);
	int n = (int)strcspn(arg, "=");

	/* optopt: the letter of a short option (a byte > 0x7f is negative),
	 * the value of a long one that has a value, 0 for an unknown or
	 * ambiguous long option */
	if (c == '?' && optopt)
		is_long = optopt > 255 || (optopt > 0 && strchr(SHORT_LETTERS, optopt));
	fputs("ucounttop: ", err);
	if (!is_long) {
		unsigned char l = (unsigned char)optopt;
		char name[8];

		snprintf(name, sizeof(name), l > 0x20 && l < 0x7f ? "-%c" : "-\\x%02x", l);
		fprintf(err, c == ':' ? "option '%s' needs an argument" : "unknown option '%s'",
			name);
	} else if (c == ':') {
		fprintf(err, "option '%.*s' needs an argument", n, arg);
	} else if (optopt) {
		fprintf(err, "option '%.*s' takes no argument", n, arg);
	} else {
		const struct option *lo;
		const char *sep = " (";
		int matches = 0;

		for (lo = longopts; lo->name; lo++)
			matches += !strncmp(lo->name, arg + 2, n - 2);
		fprintf(err, "%s option '%.*s'", matches > 1 ? "ambiguous" : "unknown", n, arg);
		for (lo = longopts; matches > 1 && lo->name; lo++) {
			if (strncmp(lo->name, arg + 2, n - 2))
				continue;
			fprintf(err, "%s--%s", sep, lo->name);
			sep = ", ";
		}
		if (matches > 1)
			fputc(')', err);
	}
	fputs(" (see ucounttop --help)\n", err);
}

#define BAD(...) do { fprintf(err, "ucounttop: " __VA_ARGS__); \
		      fprintf(err, " (see ucounttop --help)\n"); return UCT_EXIT_USAGE; } while (0)

int uct_parse_opts(int argc, char **argv, struct uct_opts *o, FILE *out, FILE *err)
{
	unsigned long long u;
	int c, first = 1;
	size_t i;
	bool json = false, om = false, prom = false, batch = false, ktap = false;
	const char *recording_opt = NULL;	/* trace: the first option of a recording */

	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->iterations = -1;
	o->uid_filter = -1;
	o->type_filter = -1;
	o->max_entries = 10240;
	o->ringbuf_kb = 256;
	o->settle = 3.0;

	if (argc > 1 && argv[1][0] != '-') {
		if (!strcmp(argv[1], "trace"))
			o->cmd = UCT_CMD_TRACE;
		else if (!strcmp(argv[1], "check"))
			o->cmd = UCT_CMD_CHECK;
		else if (!strcmp(argv[1], "top"))
			o->cmd = UCT_CMD_TOP;
		else
			BAD("unknown command '%s' (commands: trace, check; default: live view)", argv[1]);
		first = 2;
	}
	/* getopt over argv[first..]: shift by handing it a sub-array */
	argc -= first - 1;
	argv += first - 1;
	optind = 0;	/* full reset (glibc), parse from argv[1] */
	opterr = 0;
	/* check: options end at the first non-option, CMD's own come after */
	while ((c = getopt_long(argc, argv, o->cmd == UCT_CMD_CHECK ? "+:d:n:bo:t:s:w:r:vhV" :
				":d:n:bo:t:s:w:r:vhV", longopts, NULL)) != -1) {
		for (i = 0; i < ARRAY_SIZE(scopes); i++) {
			char where[64] = "";
			enum uct_cmd k;

			/* trace's options but -r and --count act on a recording */
			if (scopes[i].val == c && o->cmd == UCT_CMD_TRACE && c != 'r' &&
			    c != OPT_COUNT && !recording_opt)
				recording_opt = scopes[i].name;

			if (scopes[i].val != c || (scopes[i].cmds & (1u << o->cmd)))
				continue;
			for (k = UCT_CMD_TOP; k <= UCT_CMD_CHECK; k++)
				if (scopes[i].cmds & (1u << k))
					snprintf(where + strlen(where), sizeof(where) - strlen(where),
						 "%s%s", *where ? " and " : "", cmd_title(k));
			BAD("%s applies to %s only, not to %s", scopes[i].name, where,
			    cmd_title(o->cmd));
		}
		switch (c) {
		case 'd':
			if (!parse_secs(optarg, 0.01, false, MAX_SECS, &o->delay))
				BAD("-d/--delay needs seconds from 0.01 to %.0f, got '%s'", MAX_SECS,
				    optarg);
			break;
		case 'n':
			if (!parse_ull(optarg, 1, LONG_MAX, &u))
				BAD("-n/--iterations needs a count >= 1, got '%s'", optarg);
			o->iterations = (long)u;
			break;
		case 'b': batch = true; break;
		case OPT_JSON: json = true; break;
		case OPT_KTAP: ktap = true; break;
		case OPT_KSELFTEST: o->kselftest = true; break;
		case OPT_OM: om = true; break;
		case OPT_PROM: prom = true; break;
		case 'o':
			if (!*optarg)
				BAD("-o/--output needs a file name");
			o->output_file = optarg;
			break;
		case OPT_LISTEN:
			if (!parse_listen(optarg, &o->listen_addr))
				BAD("--listen needs an IPv4 address and a port (127.0.0.1:9465), "
				    "[IPv6]:PORT ([::1]:9465) or :PORT (every address), port "
				    "1..65535, no host names, got '%s'", optarg);
			o->listen = optarg;
			break;
		case OPT_WEBCONFIG:
			if (!*optarg)
				BAD("--web.config.file needs a file name");
			o->web_config = optarg;
			break;
		case OPT_NS:
			if (!parse_ull(optarg, 1, 0xffffffffULL, &u))
				BAD("--ns needs a namespace inode number (ls -l /proc/PID/ns/user), got '%s'", optarg);
			o->ns_filter = (long long)u;
			break;
		case OPT_UID:
			if (!parse_ull(optarg, 0, 0xfffffffeULL, &u))
				BAD("--uid needs a numeric uid in 0..4294967294, got '%s'", optarg);
			o->uid_filter = (long long)u;
			break;
		case OPT_KUID: o->kuid = true; break;
		case OPT_PID:
			/* PID_MAX_LIMIT */
			if (!parse_ull(optarg, 1, 4194304, &u))
				BAD("--pid needs a process id in 1..4194304, got '%s'", optarg);
			o->pid_filter = (int)u;
			break;
		case OPT_CONTAINER:
			if (!parse_container(optarg, o->container))
				BAD("--container needs a container id or a prefix of one (1 to %d hex "
				    "digits), a container's name as Docker gives it ([a-zA-Z0-9]"
				    "[a-zA-Z0-9_.-]*, at most %d bytes), a Kubernetes pod's "
				    "NAMESPACE/POD[/CONTAINER] or a rootless Podman's USER:NAME, "
				    "got '%s'", UCT_CID_LEN,
				    UCT_CNAME_MAX, optarg);
			break;
		case 't':
			o->type_filter = uct_type_parse(optarg);
			if (o->type_filter < 0)
				BAD("-t/--type must be nproc, msgqueue, sigpending or memlock, got '%s'", optarg);
			break;
		case 's':
			c = uct_sort_parse(optarg);
			if (c < 0)
				BAD("-s/--sort must be uid, nproc, msgqueue, sigpending, memlock, denials or change, got '%s'", optarg);
			o->sort = c;
			break;
		case OPT_EVENTS: o->events = true; break;
		case OPT_PIN:
			if (!*optarg)
				BAD("--pin needs a directory");
			o->pin_dir = optarg;
			break;
		case OPT_KEEP: o->keep_pinned = true; break;
		case OPT_MAXENT:
			if (!parse_ull(optarg, 16, 1u << 22, &u))
				BAD("--max-entries must be 16..4194304, got '%s'", optarg);
			o->max_entries = (unsigned)u;
			break;
		case OPT_RB:
			if (!parse_ull(optarg, 4, 1u << 20, &u) || (u & (u - 1)))
				BAD("--ringbuf-kb must be a power of two in 4..1048576, got '%s'", optarg);
			o->ringbuf_kb = (unsigned)u;
			break;
		case OPT_TASKITER: o->force_task_iter = true; break;
		case OPT_NOTP: o->no_tracepoints = true; break;
		case OPT_NOTENANT: o->no_tenant_labels = true; break;
		case OPT_STACK: o->stack = true; break;
		case 'w':
			if (!*optarg)
				BAD("-w/--write needs a file name, or - for standard output");
			o->write_file = optarg;
			break;
		case 'r':
			if (!*optarg)
				BAD("-r/--read needs a file that trace -w wrote");
			o->read_file = optarg;
			break;
		case OPT_DURATION:
			if (!parse_secs(optarg, 0.01, false, MAX_SECS, &o->duration))
				BAD("--duration needs seconds from 0.01 to %.0f, got '%s'", MAX_SECS,
				    optarg);
			break;
		case OPT_COUNT:
			if (!parse_ull(optarg, 1, LONG_MAX, &u))
				BAD("--count needs a number >= 1, got '%s'", optarg);
			o->count = (long)u;
			break;
		case OPT_SETTLE:
			if (!parse_secs(optarg, 0, false, 3600, &o->settle))
				BAD("--settle needs seconds in 0..3600, got '%s'", optarg);
			break;
		case OPT_FAILOUT: o->fail_outstanding = true; break;
		case OPT_RUNAS:
			/* looked up before anything is loaded (uct_run_as_lookup()) */
			if (!*optarg)
				BAD("--run-as needs a user name");
			o->run_as = optarg;
			break;
		case OPT_USER:
			/* looked up when check starts (check_cmd_user()) */
			if (!*optarg || strlen(optarg) > 64 || strchr(optarg, '\n'))
				BAD("--user needs a user name or UID[:GID], got '%s'", optarg);
			o->cmd_user = optarg;
			break;
		case OPT_TIMEOUT:
			if (!parse_secs(optarg, 0, true, 86400, &o->timeout))
				BAD("--timeout needs seconds in (0, 86400], got '%s'", optarg);
			break;
		case 'v': o->verbose = true; break;
		case 'h':
			uct_usage(out, "ucounttop");
			return UCT_EXIT_OK;
		case 'V':
			fprintf(out, "ucounttop %s\n", UCT_VERSION);
			return UCT_EXIT_OK;
		default:	/* '?' and ':' */
			bad_option(err, c, argv);
			return UCT_EXIT_USAGE;
		}
	}
	if (o->kselftest) {
		/* the directories: a collection each, or an installed tree */
		if (optind >= argc)
			BAD("check --kselftest needs a directory: ucounttop check --kselftest DIR...");
		if (json || o->output_file)
			BAD("check --kselftest writes KTAP to standard output: not with %s",
			    json ? "--json" : "-o FILE");
		ktap = true;
	}
	if (o->cmd == UCT_CMD_CHECK) {
		if (optind >= argc)
			BAD("check needs a command: ucounttop check [options] -- CMD [ARGS...]");
		o->cmd_argv = argv + optind;
		optind = argc;
	}
	if (optind < argc)
		BAD("unexpected argument '%s'", argv[optind]);

	/* --listen is an output of its own, refreshed by its scrapers */
	if (o->listen && (json || om || prom || batch || o->output_file || o->iterations >= 0))
		BAD("--listen serves /metrics over HTTP, to be scraped: it does not combine with %s",
		    json ? "--json" : om ? "--openmetrics" : prom ? "--prometheus" : batch ? "-b" :
		    o->output_file ? "-o" : "-n");
	if (o->web_config && !o->listen)
		BAD("--web.config.file configures --listen's server: it needs --listen ADDR:PORT");
	if (json + om + prom + batch > 1)
		BAD("-b, --json, --openmetrics and --prometheus exclude each other");
	if (ktap && (json || o->output_file))
		BAD("--ktap writes KTAP to standard output, CMD's output nested in it: not with %s",
		    json ? "--json" : "-o FILE");
	o->output = ktap ? UCT_OUT_KTAP : json ? UCT_OUT_JSON : om ? UCT_OUT_OPENMETRICS :
		    prom ? UCT_OUT_PROMETHEUS : batch ? UCT_OUT_BATCH : UCT_OUT_TTY;
	if (o->keep_pinned && !o->pin_dir)
		BAD("--keep-pinned needs --pin DIR");
	/* -r prints a recording: no kernel, nothing to filter or hook */
	if (o->read_file && recording_opt)
		BAD("trace -r FILE prints what -w recorded, as it was filtered and with the "
		    "stacks it has: %s is for the recording, -r takes --count only",
		    recording_opt);
	if (o->cmd == UCT_CMD_TRACE)
		o->events = true;
	else if (o->cmd == UCT_CMD_TOP && o->output_file && o->output == UCT_OUT_TTY)
		BAD("-o FILE needs -b, --json, --openmetrics or --prometheus");
	return -1;
}
