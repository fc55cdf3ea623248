# ucounttop: kernel series + CO-RE BPF tool for per-user-namespace rlimit
# accounting. `make help` lists the targets. Everything heavy (kernel tree,
# kernel build, ccache, userspace outputs, initramfs) lives in CACHE_DIR,
# outside the repository.

CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ucounttop
KSRC_TARBALL ?= /usr/src/linux-source-6.1.tar.xz
ACCEL ?= tcg
export CACHE_DIR KSRC_TARBALL ACCEL

# userspace outputs, per checkout (see guest/lib.sh)
OUT := $(CACHE_DIR)/out/$(shell printf %s "$(CURDIR)" | sha256sum | cut -c1-12)
UCT_OUT := $(OUT)
export UCT_OUT
VMLINUX := $(CACHE_DIR)/kbuild/vmlinux

.PHONY: help deps kernel kernel-debug selftests modules tools initramfs guest run shell test bench check-patches check-series clean distclean

help:
	@echo 'make run         boot the guest into the live ucounttop demo (builds everything first)'
	@echo 'make shell       boot the guest to a shell on the serial console'
	@echo 'make test        host checks + one guest boot running all tests'
	@echo 'make bench       ucounttop overhead on the signal and fork paths (-icount), into docs/performance.md'
	@echo 'make kernel      extract, patch, configure and build the guest kernel'
	@echo 'make kernel-debug   the same tree with KASAN, lockdep, kmemleak, UBSAN... (make test boots it)'
	@echo 'make guest       kernel + selftests + tools + initramfs'
	@echo 'make check-patches  checkpatch --strict every patch in patches/series'
	@echo 'make check-series   build every prefix of the series, W=1 on touched files (slow)'
	@echo 'make clean       remove userspace outputs ($(OUT))'
	@echo 'make distclean   remove the whole cache ($(CACHE_DIR))'
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

tools: kernel
	@$(MAKE) -s -C cli OUT=$(OUT) VMLINUX=$(VMLINUX)
	@$(MAKE) -s -C guest/tools OUT=$(OUT)

initramfs: selftests modules tools
	@guest/build-initramfs.sh

guest: kernel initramfs

run: guest
	@guest/run --demo

shell: guest
	@guest/run --interactive

# The debug kernel is built for make test only: run, shell and bench do
# not boot it.
test: guest kernel-debug
	@tests/run.sh

# Overhead as ratios of guest time in one -icount run (not a timed test).
# The run's tables replace the generated block of docs/performance.md
# (guest/bench-to-doc.sh), so that its figures are never typed; the whole
# console stays in $(BENCH_LOG).
BENCH_LOG := $(CACHE_DIR)/logs/bench.console
bench: guest
	@guest/deps.sh --bench
	@layer=$$(guest/build-bench-layer.sh) && \
	{ guest/run --icount --timeout 5400 --mem 3072 --add guest/bench.sh \
		--add "$$layer:/opt/bt" -- sh /uct/add/bench.sh; echo $$? > $(BENCH_LOG).rc; } | \
		tee $(BENCH_LOG) && \
	[ "$$(cat $(BENCH_LOG).rc)" = 0 ] && \
	guest/bench-to-doc.sh $(BENCH_LOG) docs/performance.md

check-patches: kernel
	@tests/host/checkpatch.sh

# Not part of `make test`: a kernel build per prefix of the series.
check-series: deps
	@guest/check-series.sh

clean:
	rm -rf $(OUT)

distclean:
	rm -rf $(CACHE_DIR)
