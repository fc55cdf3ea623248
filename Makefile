# ucounttop: kernel series + CO-RE BPF tool for per-user-namespace rlimit
# accounting. `make help` lists the targets. Everything heavy (kernel tree,
# kernel build, ccache, userspace outputs, initramfs) lives in CACHE_DIR,
# outside the repository.

CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ucounttop
ACCEL ?= tcg
# The kernel tree the kernel targets build and `make run`/`shell` boot:
# Debian's linux-source-KTREE with its series in patches/KTREE. Mainline
# (the default) carries every series; the LTS trees 6.1 and 6.12 the
# fixes as stable backports (guest/lib.sh).
MAINLINE_TREE := $(shell sed -n 's/^MAINLINE_TREE=//p' guest/lib.sh)
TREES := $(shell sed -n 's/^KTREES="\(.*\)"/\1/p' guest/lib.sh)
KTREE ?= $(MAINLINE_TREE)
export CACHE_DIR ACCEL KTREE

# userspace outputs, per checkout (see guest/lib.sh)
OUT := $(CACHE_DIR)/out/$(shell printf %s "$(CURDIR)" | sha256sum | cut -c1-12)
UCT_OUT := $(OUT)
export UCT_OUT
# ucounttop is compiled against the mainline guest kernel's BTF, whatever
# the tree: CO-RE relocates it on the kernel it loads on
VMLINUX := $(CACHE_DIR)/tree-$(MAINLINE_TREE)/kbuild/vmlinux

.PHONY: help deps kernel kernel-debug stock-initramfs selftests modules tools initramfs guest run shell test bench screenshot sweep check-patches check-series install uninstall deb clean distclean

help:
	@echo 'make run         boot the guest into the live ucounttop demo (builds everything first)'
	@echo 'make shell       boot the guest to a shell on the serial console'
	@echo 'make test        host checks, our $(MAINLINE_TREE) guest, stock 6.12 (UCT_MATRIX=full: CI, every stock kernel; all: every kernel too)'
	@echo 'make bench       ucounttop overhead on the signal and fork paths (-icount), into docs/performance.md'
	@echo 'make screenshot  docs/ucounttop.png: make run'"'"'s screen, photographed by headless Chromium'
	@echo 'make sweep       every kselftest collection that builds, alone and under check, into docs/testing.md'
	@echo 'make kernel      extract, patch, configure and build the guest kernel'
	@echo 'make kernel-debug   the same tree with KASAN, lockdep, kmemleak, UBSAN... (UCT_MATRIX=all make test boots the $(MAINLINE_TREE) one)'
	@echo 'make guest       kernel + selftests + tools + initramfs'
	@echo 'make stock-initramfs  KTREE'"'"'s kselftests and the tools, for a stock kernel (no kernel build)'
	@echo 'make deps        install the Debian packages the build and the tests need'
	@echo 'make selftests   the kselftests and the BPF selftest, from the patched tree'
	@echo 'make modules     the test module (guest/fault) for that kernel'
	@echo 'make tools       ucounttop, its BPF objects and the guest tools (guest/tools)'
	@echo 'make initramfs   the guest initramfs that carries them'
	@echo 'make check-patches  checkpatch --strict every patch of every tree'
	@echo 'make check-series   build every prefix of each tree series, W=1 and sparse on touched files (slow)'
	@echo 'make install     install what make tools built: PREFIX=$(PREFIX), DESTDIR (builds nothing)'
	@echo 'make uninstall   remove what make install installed (same PREFIX, DESTDIR)'
	@echo 'make deb         a Debian package of what make tools built, into $(DEB_DIR)'
	@echo 'make clean       remove userspace outputs ($(OUT))'
	@echo 'make distclean   remove the whole cache ($(CACHE_DIR))'
	@echo 'KTREE=6.12 make ...  the same on another tree: $(TREES) (default $(MAINLINE_TREE))'
	@echo 'guest/run --help run any command inside the guest'

deps:
	@guest/deps.sh

kernel: deps
	@guest/build-kernel.sh

# Same patched tree (which `kernel` brings up to date), own build
# directory. Both take $(CACHE_DIR)/kernel.lock: never two builds at once.
kernel-debug: deps kernel
	@guest/build-kernel.sh --debug

selftests: kernel
	@guest/build-selftests.sh
	@guest/build-bpf-selftests.sh

modules: kernel
	@guest/build-modules.sh

# the tool needs the mainline kernel's BTF (VMLINUX) whichever tree is built
tools: kernel
	@[ "$(KTREE)" = "$(MAINLINE_TREE)" ] || $(MAKE) -s kernel KTREE=$(MAINLINE_TREE)
	@$(MAKE) -s -C cli OUT=$(OUT) VMLINUX=$(VMLINUX)
	@$(MAKE) -s -C guest/tools OUT=$(OUT)

initramfs: selftests modules tools
	@guest/build-initramfs.sh

guest: kernel initramfs

run: guest
	@guest/run --demo

shell: guest
	@guest/run --interactive

# docs/ucounttop.png, README's picture: make run's screen, photographed
screenshot: guest
	@guest/deps.sh --screenshot
	@guest/screenshot.sh

# A developer's run: our mainline guest, Debian's stock 6.12 and the host
# suites. UCT_MATRIX=full (CI, within its time from a cold cache): also
# every guest test, the kselftest sweep, Debian's stock 6.1, 6.12,
# 6.12-rt, 7.x and 7.x-rt kernels, the container engines and the stable
# trees' series compiled; UCT_MATRIX=all: also the mainline debug kernel
# and the stable trees' kernels (tests/run.sh). The recipe builds the
# mainline guest; the suites build the other kernels they boot, one build
# at a time.
UCT_MATRIX ?= dev
export UCT_MATRIX
test:
	@$(MAKE) -s guest KTREE=$(MAINLINE_TREE)
	@if [ "$(UCT_MATRIX)" != dev ]; then guest/deps.sh --sweep; fi
	@tests/run.sh

# What a stock kernel's boot needs of another tree (tests/host/stock-kernel.sh):
# the tree's kselftests and our tools in its initramfs; no kernel of its own
stock-initramfs: deps
	@guest/prepare-tree.sh
	@guest/build-selftests.sh
	@$(MAKE) -s tools KTREE=$(MAINLINE_TREE)
	@guest/build-initramfs.sh

# Overhead as ratios of guest time in -icount runs (not a timed test): on
# our kernel (everything), then the hot-path loops on each of Debian's
# stock kernels (6.1, 6.12, 6.12-rt, 7.x; the programs every stock kernel
# uses); then the memory of the maps each mode holds, on stock 6.1
# booted with 2 and with 256 possible CPUs. The runs' tables replace the
# generated block of docs/performance.md (guest/bench-to-doc.sh), so
# that its figures are never typed; the consoles stay in $(BENCH_LOG) and bench-stock-*.console
# beside it.
BENCH_LOG := $(CACHE_DIR)/logs/$(KTREE)/bench.console
BENCH_STOCK := 6.1 6.12 6.12-rt 7.x
# the maps' memory at 2 and 256 possible CPUs: a kernel whose
# possible_cpus= can raise the count beyond the CPUs QEMU lists (7.x's
# only lowers it) and whose NR_CPUS allows 256
BENCH_MAPS_STOCK := 6.1
bench: guest
	@guest/deps.sh --bench
	@layer=$$(guest/build-bench-layer.sh) && \
	{ guest/run --icount --timeout 5400 --mem 3072 --add guest/bench.sh \
		--add "$$layer:/opt/bt" -- sh /uct/add/bench.sh; echo $$? > $(BENCH_LOG).rc; } | \
		tee $(BENCH_LOG) && \
	[ "$$(cat $(BENCH_LOG).rc)" = 0 ] && \
	logs= && for f in $(BENCH_STOCK); do \
		log=$(CACHE_DIR)/logs/$(KTREE)/bench-stock-$$f.console; \
		stock=$$(guest/fetch-stock-kernel.sh $$f | tail -n 1) && \
		{ guest/run --icount --timeout 5400 --mem 3072 --kernel "$$stock/vmlinuz" \
			--add "$$stock/early-modules:/uct/early-modules" --add guest/bench.sh \
			--add "$$layer:/opt/bt" -- env BENCH_HOT_ONLY=1 sh /uct/add/bench.sh; \
			echo $$? > $$log.rc; } | tee $$log && \
		[ "$$(cat $$log.rc)" = 0 ] || exit 1; \
		logs="$$logs $$log"; \
	done && \
	maps= && stock=$$(guest/fetch-stock-kernel.sh $(BENCH_MAPS_STOCK) | tail -n 1) && \
	for n in 2 256; do \
		log=$(CACHE_DIR)/logs/$(KTREE)/bench-maps-$$n.console; \
		{ guest/run --timeout 900 --mem 2048 --append possible_cpus=$$n \
			--kernel "$$stock/vmlinuz" --add "$$stock/early-modules:/uct/early-modules" \
			--add guest/bench-maps.sh -- sh /uct/add/bench-maps.sh; echo $$? > $$log.rc; } | tee $$log && \
		[ "$$(cat $$log.rc)" = 0 ] || exit 1; \
		maps="$$maps --maps $$log"; \
	done && \
	guest/bench-to-doc.sh $$maps $(BENCH_LOG) docs/performance.md $$logs

check-patches: deps
	@tests/host/checkpatch.sh

# The kselftest sweep (tests/host/kselftest-sweep.sh; SWEEP_ON=debug or
# stock-FLAVOUR for another kernel): its TAP, then its table regenerated
# into docs/testing.md (a whole sweep, with a block there), whether it
# passed or not
SWEEP_ON ?= mainline
SWEEP_LOG := $(CACHE_DIR)/logs/$(KTREE)/sweep$(if $(filter-out mainline,$(SWEEP_ON)),-$(SWEEP_ON))
sweep: guest $(if $(filter debug,$(SWEEP_ON)),kernel-debug)
	@guest/deps.sh --sweep
	@SWEEP_ON=$(SWEEP_ON) tests/host/kselftest-sweep.sh; rc=$$?; \
	if [ -z "$(SWEEP_ONLY)" ] && grep -q '^<!-- $(notdir $(SWEEP_LOG)):begin -->$$' docs/testing.md; then \
		guest/sweep-to-doc.sh $(SWEEP_LOG) docs/testing.md || rc=1; \
	fi; exit $$rc

# Not part of `make test`: a kernel build per prefix of each tree's series.

check-series: deps
	@rc=0; for t in $(TREES); do KTREE=$$t guest/check-series.sh || rc=1; done; exit $$rc

# ---- install, uninstall, deb ------------------------------------------------
# The tool, its man page and bash completion, and contrib/'s Prometheus
# rules (with their unit tests) and Grafana dashboard in
# $(PREFIX)/share/ucounttop. install builds nothing: the build needs the
# mainline kernel's BTF (make tools), and one run as root would leave root's
# files in $(CACHE_DIR). `make tools` as yourself, then `make install` as
# root; or UCOUNTTOP=PATH, a binary built otherwise. deb (the same files
# under /usr, packaged by packaging/build-deb.sh) needs no root.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
UCOUNTTOP ?= $(OUT)/cli/ucounttop
DEB_DIR ?= $(OUT)/deb
INSTALL ?= install
CONTRIB_FILES := prometheus/ucounttop.rules.yml prometheus/ucounttop.rules.test.yml \
	grafana/ucounttop.json

install:
	@[ -x "$(UCOUNTTOP)" ] || { echo "error: $(UCOUNTTOP) is not built: run 'make tools'" \
		"first (it needs the $(MAINLINE_TREE) kernel's BTF), or give UCOUNTTOP=PATH" >&2; exit 1; }
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/ucounttop/prometheus $(DESTDIR)$(DATADIR)/ucounttop/grafana
	$(INSTALL) -m 0755 $(UCOUNTTOP) $(DESTDIR)$(SBINDIR)/ucounttop
	$(INSTALL) -m 0644 cli/ucounttop.8 $(DESTDIR)$(MANDIR)/man8/ucounttop.8
	$(INSTALL) -m 0644 cli/completion/ucounttop.bash \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/ucounttop
	for f in $(CONTRIB_FILES); do \
		$(INSTALL) -m 0644 contrib/$$f $(DESTDIR)$(DATADIR)/ucounttop/$$f || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/ucounttop $(DESTDIR)$(MANDIR)/man8/ucounttop.8 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/ucounttop \
		$(addprefix $(DESTDIR)$(DATADIR)/ucounttop/,$(CONTRIB_FILES))
	rmdir $(DESTDIR)$(DATADIR)/ucounttop/prometheus $(DESTDIR)$(DATADIR)/ucounttop/grafana \
		$(DESTDIR)$(DATADIR)/ucounttop 2>/dev/null || true

deb:
	@packaging/build-deb.sh "$(UCOUNTTOP)" "$(DEB_DIR)"

clean:
	rm -rf $(OUT)

distclean:
	rm -rf $(CACHE_DIR)
